import type { RecordChange } from '@odontia/shared/schemas/records';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PaginationFooter } from '../../components/pagination-footer';
import { TableBodyState } from '../../components/table-body-state';
import { useDateTimeFormat } from '../auth/clinic-time';
import { useMoneyFormat } from '../inventory/format';
import { type RecordKind, useRecordChanges } from './api';
import { useCalendarDate } from './form-bits';

const pageSize = 10;

/** Bookkeeping the history does not list as changes. */
const hiddenFields = new Set(['version', 'deleted', 'updatedBy', 'createdBy', 'accountId', 'id', 'patientId']);

/** Translated enumerations the history shows as words, not codes (per kind where they differ). */
const enumFields: Record<string, string> = {
  attendanceType: 'attendanceTypes',
  attendanceGroup: 'attendanceGroups',
};
const statusGroups: Record<RecordKind, string> = {
  diagnosis: 'statuses',
  laboratory: 'laboratory.statuses',
  attendance: 'statuses',
  prescription: 'statuses',
};
const moneyFields = new Set(['attendanceFee', 'totalBillable', 'price', 'total']);
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
const instantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function changedFields(change: RecordChange): { field: string; before: unknown; after: unknown }[] {
  if (change.action.endsWith('_deleted')) return [];
  const before = change.before ?? {};
  const after = change.after ?? {};
  const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])].filter((key) => !hiddenFields.has(key));
  return keys
    .map((field) => ({ field, before: before[field], after: after[field] }))
    .filter((row) => JSON.stringify(row.before) !== JSON.stringify(row.after))
    .filter((row) =>
      change.action.endsWith('_created')
        ? row.after !== null && row.after !== '' && !(Array.isArray(row.after) && row.after.length === 0)
        : true,
    );
}

/** A record's history of changes (GET …/:id/changes), newest first: when, who, what, before → after. */
export function RecordChanges({
  kind,
  patientId,
  id,
  names = {},
  fieldLabels = {},
}: {
  kind: RecordKind;
  patientId: string;
  id: string;
  /** Names of the ids the audit keeps (the professional, the supplies and medicines used). */
  names?: Record<string, string>;
  /** Labels of the record's own fields (another namespace's), before clinical:fields.<field>. */
  fieldLabels?: Record<string, string>;
}) {
  const { t, i18n } = useTranslation('clinical');
  const money = useMoneyFormat();
  const calendarDate = useCalendarDate();
  const [page, setPage] = useState(1);
  const query = useRecordChanges(kind, patientId, id, page, pageSize);
  const rows = query.data?.data ?? [];
  const dateTime = useDateTimeFormat();
  const fieldLabel = (field: string) =>
    fieldLabels[field] ?? (i18n.exists(`clinical:fields.${field}`) ? t(`fields.${field}`) : field);
  const valueText = (field: string, value: unknown): string => {
    if (value === null || value === undefined || value === '') return t('changes.empty');
    if (typeof value === 'boolean') return t(value ? 'common.yes' : 'common.no');
    if (Array.isArray(value)) {
      if (value.length === 0) return t('changes.empty');
      return value
        .map((entry) => {
          if (field === 'studies' && typeof entry === 'string') return t(`attendanceTypes.${entry}`);
          if (entry && typeof entry === 'object') {
            const item = entry as { description?: string; name?: string; itemId?: string; quantity?: number };
            const label = item.description ?? item.name ?? (item.itemId ? (names[item.itemId] ?? item.itemId) : '');
            return `${label} × ${item.quantity ?? ''}`;
          }
          return String(entry);
        })
        .join(', ');
    }
    const group = field === 'status' ? statusGroups[kind] : enumFields[field];
    if (group && typeof value === 'string' && i18n.exists(`clinical:${group}.${value}`)) return t(`${group}.${value}`);
    if (typeof value === 'string') {
      if (field === 'professionalId') return names[value] ?? value;
      if (moneyFields.has(field)) return money(value);
      if (dayPattern.test(value)) return calendarDate(value);
      if (instantPattern.test(value)) return dateTime(value);
      return value;
    }
    return JSON.stringify(value);
  };

  return (
    <section className="card mb-0" data-testid="record-changes">
      <div className="card-header">
        <h2 className="card-title h6 mb-0">{t('changes.title')}</h2>
      </div>
      <div className="table-responsive">
        <table className="table align-top mb-0 data-table changes-table" aria-busy={query.isFetching}>
          <thead>
            <tr>
              <th scope="col">{t('changes.date')}</th>
              <th scope="col">{t('changes.user')}</th>
              <th scope="col">{t('changes.action')}</th>
              <th scope="col">{t('changes.fields')}</th>
            </tr>
          </thead>
          <tbody>
            <TableBodyState
              query={query}
              columns={4}
              isEmpty={rows.length === 0}
              emptyText={t('changes.none')}
              errorText={t('changes.loadError')}
              retryText={t('common.retry')}
              compact
            >
              {rows.map((change) => {
                const fields = changedFields(change);
                return (
                  <tr key={change.id} data-testid="change-row" data-action={change.action}>
                    <td className="change-date text-nowrap">{dateTime(change.createdAt)}</td>
                    <td className="change-user text-nowrap">{change.userName ?? t('common.system')}</td>
                    <td className="change-action">
                      <span className={`badge ${actionClass(change.action)}`}>
                        {i18n.exists(`clinical:changes.actions.${actionVerb(change.action)}`)
                          ? t(`changes.actions.${actionVerb(change.action)}`)
                          : change.action}
                      </span>
                    </td>
                    <td className="change-fields">
                      {fields.length ? (
                        <dl className="change-list mb-0">
                          {fields.map((row) => (
                            <div key={row.field} data-testid="change-field" data-field={row.field}>
                              <dt>{fieldLabel(row.field)}</dt>
                              <dd>
                                {change.action.endsWith('_created') ? null : (
                                  <>
                                    <del className="text-body-secondary">{valueText(row.field, row.before)}</del>
                                    <span aria-hidden="true" className="mx-1">
                                      →
                                    </span>
                                  </>
                                )}
                                <span className="fw-semibold">{valueText(row.field, row.after)}</span>
                              </dd>
                            </div>
                          ))}
                        </dl>
                      ) : (
                        <span className="text-body-secondary">—</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </TableBodyState>
          </tbody>
        </table>
      </div>
      {(query.data?.total ?? 0) > pageSize ? (
        <PaginationFooter
          page={page}
          pageSize={pageSize}
          total={query.data?.total ?? 0}
          onPage={setPage}
          label={t('changes.title')}
        />
      ) : null}
    </section>
  );
}

/** 'diagnosis_created' → 'created'; 'attendance_addendum_created' → 'addendum'. */
function actionVerb(action: string): string {
  if (action.includes('addendum')) return 'addendum';
  if (action.endsWith('_created')) return 'created';
  if (action.endsWith('_deleted')) return 'deleted';
  if (action.endsWith('_updated')) return 'updated';
  return action;
}

function actionClass(action: string): string {
  if (action.endsWith('_deleted')) return 'bg-danger-subtle text-danger-emphasis';
  if (action.endsWith('_created') && !action.includes('addendum')) return 'bg-success-subtle text-success-emphasis';
  return 'bg-primary-subtle text-primary-emphasis';
}
