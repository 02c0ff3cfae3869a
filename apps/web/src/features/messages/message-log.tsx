import type { Message } from '@odontia/shared/schemas/messages';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table';
import { pagesOf, useListState } from '../../lib/use-list-state';
import { useInstantFormat } from '../../session/clinic-time';
import { useMessages } from './api';
import { statusBadgeClass, statusMoment } from './message-words';

const pageSize = 10;

/** A message's status as a badge, with the moment it reached it ("Entregado · 10:32"). */
export function MessageStatus({ message }: { message: Message }) {
  const { t } = useTranslation('messaging');
  const when = useInstantFormat('dateTime');
  const moment = statusMoment(message);
  return (
    <>
      <span
        className={`badge ${statusBadgeClass[message.status]}`}
        data-testid="message-status"
        data-status={message.status}
      >
        {t(`statuses.${message.status}`)}
      </span>
      {moment ? <div className="small text-body-secondary text-nowrap">{when(moment)}</div> : null}
    </>
  );
}

function useColumns(): Column<Message>[] {
  const { t } = useTranslation('messaging');
  const when = useInstantFormat('dateTime');
  return [
    {
      key: 'createdAt',
      header: t('log.createdAt'),
      className: 'text-nowrap',
      cell: (message) => when(message.createdAt),
    },
    {
      key: 'kind',
      header: t('log.kind'),
      primary: true,
      cell: (message) => (
        <>
          <span className="fw-semibold">{t(`kinds.${message.kind}`)}</span>
          {message.createdByName ? (
            <div className="small text-body-secondary">{t('log.by', { who: message.createdByName })}</div>
          ) : null}
        </>
      ),
    },
    {
      key: 'channel',
      header: t('log.channel'),
      cell: (message) => (
        <>
          {t(`channels.${message.channel}`)}
          <div className="small text-body-secondary text-break">{message.toAddress}</div>
        </>
      ),
    },
    { key: 'status', header: t('log.status'), cell: (message) => <MessageStatus message={message} /> },
    {
      key: 'text',
      header: t('log.text'),
      className: 'w-50',
      cell: (message) => (
        <>
          {message.error ? (
            <div className="small text-danger-emphasis mb-1" data-testid="message-error">
              {message.error}
            </div>
          ) : null}
          <details>
            <summary className="small">{t('log.showText')}</summary>
            <div className="message-body small mt-1">{message.body}</div>
          </details>
        </>
      ),
    },
  ];
}

/** The messages sent to a patient, newest first, with their delivery (GET /api/messages?patientId). */
export function MessageLog({ patientId }: { patientId: string }) {
  const { t } = useTranslation('messaging');
  const list = useListState({ prefix: 'messages' });
  const query = useMessages({ patientId, page: list.page, pageSize });
  return (
    <section aria-labelledby="patient-message-log" data-testid="patient-message-log">
      <h3 id="patient-message-log" className="h6 px-3 pt-3">
        {t('log.title')}
      </h3>
      <DataTable<Message>
        label={t('log.title')}
        query={query}
        columns={useColumns()}
        rowKey={(message) => message.id}
        rowProps={(message) => ({ 'data-testid': 'message-row', 'data-channel': message.channel })}
        className="table-hover"
        compact
        emptyText={t('log.empty')}
        emptyTestId="message-log-empty"
        pagination={{ ...pagesOf(list, pageSize), label: t('log.pages'), onlyWhenNeeded: true }}
      />
    </section>
  );
}
