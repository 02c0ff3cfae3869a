import { waitingListStatuses } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import type { WaitingListEntry } from '@odontia/shared/schemas/waiting-list';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDelete, useConfirmDelete } from '../../components/confirm-delete';
import { type Column, DataTable } from '../../components/data-table';
import { ListFilter } from '../../components/filter-select';
import { IconButton } from '../../components/icon-button';
import { NewButton } from '../../components/list-card';
import { PageTitle } from '../../components/page-title';
import { pagesOf, useListState } from '../../lib/use-list-state';
import { useCalendarDateFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { displayedWeekdays } from '../schedules/week-editor';
import { useRemoveFromWaitingList, useWaitingList } from './api';
import { EntryDialog } from './entry-dialog';

const pageSize = 20;
const missing = <span className="text-body-secondary">—</span>;

function useColumns(onRemove: ((entry: WaitingListEntry) => void) | null): Column<WaitingListEntry>[] {
  const { t } = useTranslation(['agenda', 'schedules']);
  const date = useCalendarDateFormat();
  const columns: Column<WaitingListEntry>[] = [
    {
      key: 'patient',
      header: t('waitingList.patient'),
      primary: true,
      cell: (entry) => (
        <>
          <span className="fw-semibold" data-testid="waiting-entry-patient-name">
            {entry.patientName}
          </span>
          {entry.priority === 'high' ? (
            <span className="badge text-bg-warning ms-2">{t('waitingList.priorities.high')}</span>
          ) : null}
          <div className="small text-body-secondary">
            {[entry.patientPhone, entry.patientHasEmail ? null : t('waitingList.noEmail')].filter(Boolean).join(' · ')}
          </div>
        </>
      ),
    },
    {
      key: 'treatment',
      header: t('waitingList.treatment'),
      cell: (entry) => (
        <>
          {entry.treatmentName}
          <div className="small text-body-secondary">{entry.professionalName ?? t('waitingList.anyProfessional')}</div>
        </>
      ),
    },
    {
      key: 'preferences',
      header: t('waitingList.preferences'),
      cell: (entry) => {
        const days = displayedWeekdays.filter((day) => entry.weekdays.includes(day));
        return (
          <>
            <div>
              {days.length ? days.map((day) => t(`schedules:weekdays.${day}`)).join(', ') : t('waitingList.anyDay')}
            </div>
            <div className="small text-body-secondary">
              {entry.timeRanges.length
                ? entry.timeRanges.map((range) => `${range.from}–${range.to}`).join(', ')
                : t('waitingList.anyTime')}
            </div>
          </>
        );
      },
    },
    {
      key: 'until',
      header: t('waitingList.until'),
      className: 'text-nowrap',
      cell: (entry) => (entry.until ? date(entry.until) : missing),
    },
    {
      key: 'offer',
      header: t('waitingList.lastOffer'),
      cell: (entry) =>
        entry.status === 'booked' ? (
          <span className="badge text-bg-success">{t('waitingList.statuses.booked')}</span>
        ) : entry.lastOfferStatus ? (
          <span className="badge text-bg-light border">{t(`waitingList.offerStatuses.${entry.lastOfferStatus}`)}</span>
        ) : (
          missing
        ),
    },
  ];
  if (onRemove) {
    columns.push({
      key: 'actions',
      header: <span className="visually-hidden">{t('waitingList.actions')}</span>,
      cell: (entry) =>
        entry.status === 'waiting' ? (
          <IconButton
            icon={Trash2}
            className="btn btn-sm btn-outline-danger"
            label={t('waitingList.removeOne', { name: entry.patientName })}
            onClick={() => onRemove(entry)}
            testId="waiting-entry-remove"
          />
        ) : null,
    });
  }
  return columns;
}

function RemoveEntry({ entry, onDone }: { entry: WaitingListEntry; onDone: () => void }) {
  const { t } = useTranslation('agenda');
  const remove = useRemoveFromWaitingList(entry.id);
  const { dialog } = useConfirmDelete(remove, async () => onDone());
  return (
    <ConfirmDelete
      {...dialog}
      show
      onCancel={onDone}
      title={t('waitingList.removeTitle')}
      confirmLabel={t('waitingList.remove')}
      testId="waiting-entry-remove-dialog"
    >
      <p className="mb-0">{t('waitingList.removeText', { name: entry.patientName, treatment: entry.treatmentName })}</p>
    </ConfirmDelete>
  );
}

/**
 * `/waiting-list` (issue 38): the patients waiting for a freed time, high priority first then by
 * arrival (or the booked ones); who writes the agenda adds an entry in a dialog and removes one.
 */
export function WaitingListPage() {
  const { t } = useTranslation(['agenda', 'common']);
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'appointments.write') : false;
  const list = useListState<'status'>({ filters: ['status'] });
  const status = list.filters.status === 'booked' ? 'booked' : 'waiting';
  const query = useWaitingList({ page: list.page, pageSize, sort: 'priority', status });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<WaitingListEntry | null>(null);
  const columns = useColumns(canWrite ? setRemoving : null);
  return (
    <>
      <PageTitle title={t('common:pages.waitingList')} />
      <section className="card" data-testid="waiting-list">
        <div className="card-header list-toolbar">
          <ListFilter
            list={list}
            name="status"
            label={t('waitingList.status')}
            testId="waiting-list-status"
            shownWhenEmpty="waiting"
            options={waitingListStatuses.map((value) => ({ value, label: t(`waitingList.statuses.${value}`) }))}
          />
          {canWrite ? (
            <NewButton label={t('waitingList.add')} onClick={() => setAdding(true)} testId="waiting-entry-add" />
          ) : null}
        </div>
        <DataTable<WaitingListEntry>
          label={t('waitingList.caption')}
          query={query}
          columns={columns}
          rowKey={(entry) => entry.id}
          rowProps={(entry) => ({ 'data-testid': 'waiting-entry-row', 'data-status': entry.status })}
          className="table-hover"
          emptyText={t(status === 'booked' ? 'waitingList.emptyBooked' : 'waitingList.empty')}
          emptyTestId="waiting-list-empty"
          pagination={{ ...pagesOf(list, pageSize), label: t('waitingList.pages') }}
        />
      </section>
      {adding ? <EntryDialog onDone={() => setAdding(false)} /> : null}
      {removing ? <RemoveEntry entry={removing} onDone={() => setRemoving(null)} /> : null}
    </>
  );
}
