import { can } from '@odontia/shared/permissions';
import { inboxStates } from '@odontia/shared/schemas/messages';
import { Archive, Reply } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BusyButton } from '../../components/busy-button';
import { type Column, DataTable } from '../../components/data-table';
import { ListFilter } from '../../components/filter-select';
import { PageTitle } from '../../components/page-title';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { pagesOf, useListState } from '../../lib/use-list-state';
import { useInstantFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { type InboxRow, useInbox, useInboxStep } from './api';
import { InboxAnswerDialog } from './inbox-answer-dialog';
import { replyExplanationKey } from './message-words';
import './messages.css';

const pageSize = 20;

/** "Archivar": files the reply without answering it. */
function ArchiveButton({ reply }: { reply: InboxRow }) {
  const { t } = useTranslation('messaging');
  const step = useInboxStep(reply.id);
  // A double click files it once.
  const sending = useRef(false);
  const archive = () => {
    if (sending.current) return;
    sending.current = true;
    step.mutate(
      { kind: 'close', version: reply.version },
      {
        onSuccess: (answer) => toastSuccess(answer.code),
        onError: toastApiError,
        onSettled: () => {
          sending.current = false;
        },
      },
    );
  };
  return (
    <BusyButton
      className="btn btn-sm btn-outline-secondary"
      icon={Archive}
      busy={step.isPending}
      onClick={archive}
      testId="inbox-archive"
    >
      {t('inbox.archive')}
      <span className="visually-hidden"> ({reply.patientName ?? reply.fromAddress})</span>
    </BusyButton>
  );
}

function useColumns(canWrite: boolean, onAnswer: (reply: InboxRow) => void): Column<InboxRow>[] {
  const { t } = useTranslation('messaging');
  const when = useInstantFormat('dateTime');
  const columns: Column<InboxRow>[] = [
    { key: 'receivedAt', header: t('inbox.receivedAt'), className: 'text-nowrap', cell: (row) => when(row.receivedAt) },
    {
      key: 'from',
      header: t('inbox.from'),
      primary: true,
      cell: (row) => (
        <>
          {row.patientId ? (
            <Link to={`/patients/${row.patientId}/mh?tab=messages`} className="fw-semibold">
              {row.patientName}
            </Link>
          ) : (
            <span className="fw-semibold">{t('inbox.unknownPatient')}</span>
          )}
          <div className="small text-body-secondary text-nowrap">
            {t(`channels.${row.channel}`)} · {row.fromAddress}
          </div>
        </>
      ),
    },
    {
      key: 'body',
      header: t('inbox.text'),
      cell: (row) => <p className="inbox-text mb-0">{row.body}</p>,
    },
    {
      key: 'outcome',
      header: t('inbox.outcome'),
      cell: (row) => (
        <>
          <span data-testid="inbox-explanation">
            {t(replyExplanationKey(row), {
              appointment: row.appointmentStartsAt
                ? t('inbox.appointmentOn', { when: when(row.appointmentStartsAt) })
                : t('inbox.theAppointment'),
            })}
          </span>
          {row.handledAt ? (
            <div className="small text-body-secondary">
              {row.handledByName
                ? t('inbox.handledBy', { who: row.handledByName, when: when(row.handledAt) })
                : t('inbox.handledAutomatically', { when: when(row.handledAt) })}
            </div>
          ) : null}
        </>
      ),
    },
  ];
  if (!canWrite) return columns;
  return [
    ...columns,
    {
      key: 'actions',
      header: <span className="visually-hidden">{t('inbox.actions')}</span>,
      className: 'text-end text-nowrap',
      cell: (row) =>
        row.handledAt ? null : (
          <div className="d-inline-flex flex-wrap justify-content-end gap-1">
            <button
              type="button"
              className="btn btn-sm btn-primary"
              onClick={() => onAnswer(row)}
              data-testid="inbox-answer"
            >
              <Reply size={14} aria-hidden="true" className="me-1" />
              {t('inbox.answerButton')}
              <span className="visually-hidden"> ({row.patientName ?? row.fromAddress})</span>
            </button>
            <ArchiveButton reply={row} />
          </div>
        ),
    },
  ];
}

/**
 * `/inbox` (issue 38; patients.read, answering and filing appointments.write): the patients'
 * replies the app did not apply on its own — a word it did not know, a "2" after the appointment
 * had started, a number it never wrote — newest first, each explained in words.
 */
export function InboxPage() {
  const { t } = useTranslation(['messaging', 'common']);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'appointments.write') : false;
  const list = useListState<'state'>({ filters: ['state'] });
  const state = list.filters.state === 'all' ? 'all' : 'open';
  const query = useInbox({ state, page: list.page, pageSize });
  const [answering, setAnswering] = useState<InboxRow | null>(null);
  const columns = useColumns(canWrite, setAnswering);
  return (
    <>
      <PageTitle title={t('common:pages.inbox')} />
      <p className="text-body-secondary">{t('inbox.intro')}</p>
      <section className="card" data-testid="inbox">
        <div className="card-header list-toolbar">
          <ListFilter
            list={list}
            name="state"
            label={t('inbox.show')}
            testId="inbox-state"
            shownWhenEmpty="open"
            options={inboxStates.map((value) => ({ value, label: t(`inbox.states.${value}`) }))}
          />
        </div>
        <DataTable<InboxRow>
          label={t('inbox.caption')}
          query={query}
          columns={columns}
          rowKey={(row) => row.id}
          rowProps={(row) => ({ 'data-testid': 'inbox-row', 'data-outcome': row.outcome })}
          className="table-hover align-top"
          emptyText={t(state === 'open' ? 'inbox.empty' : 'inbox.emptyAll')}
          emptyTestId="inbox-empty"
          pagination={{ ...pagesOf(list, pageSize), label: t('inbox.pages') }}
        />
      </section>
      {answering ? <InboxAnswerDialog reply={answering} onDone={() => setAnswering(null)} /> : null}
    </>
  );
}
