import type { RecordChange } from '@odontia/shared/schemas/records';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type ListQuery } from './data-table';

/*
 * A record's history of changes (GET …/:id/changes), newest first: when, who, what, and each field
 * before → after. The table, the bookkeeping it hides and the generic values (empty, yes/no) are
 * written once here; a record passes its query, its labels and how its own values read.
 *
 *   <RecordChanges query={changes} page={page} onPage={setPage} pageSize={10}
 *     formatInstant={dateTime} fieldLabel={(field) => t(`fields.${field}`)} valueText={valueOf} />
 */

/** Bookkeeping the history does not list as changes. */
const bookkeeping = new Set(['version', 'deleted', 'updatedBy', 'createdBy', 'accountId', 'id', 'patientId']);

const isEmptyValue = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** The fields a change touched, in `order` when given, with their old and new values. */
export function changedFields(
  change: RecordChange,
  order: readonly string[] = [],
): { field: string; before: unknown; after: unknown }[] {
  // A deletion keeps the whole record in `before`: it is listed as one event, not field by field.
  if (change.action.endsWith('_deleted')) return [];
  const before = change.before ?? {};
  const after = change.after ?? {};
  const rank = (field: string) => (order.includes(field) ? order.indexOf(field) : order.length);
  const created = change.action.endsWith('_created');
  return [...new Set([...Object.keys(after), ...Object.keys(before)])]
    .filter((key) => !bookkeeping.has(key))
    .sort((a, b) => rank(a) - rank(b))
    .map((field) => ({ field, before: before[field], after: after[field] }))
    .filter((row) => JSON.stringify(row.before) !== JSON.stringify(row.after))
    .filter((row) => !created || !isEmptyValue(row.after));
}

/** 'diagnosis_created' → 'created'; 'attendance_addendum_created' → 'addendum'. */
export function actionVerb(action: string): string {
  if (action.includes('addendum')) return 'addendum';
  if (action.endsWith('_created')) return 'created';
  if (action.endsWith('_deleted')) return 'deleted';
  if (action.endsWith('_updated')) return 'updated';
  return action;
}

function actionClass(verb: string): string {
  if (verb === 'deleted') return 'bg-danger-subtle text-danger-emphasis';
  if (verb === 'created') return 'bg-success-subtle text-success-emphasis';
  return 'bg-primary-subtle text-primary-emphasis';
}

export function RecordChanges({
  query,
  page,
  pageSize,
  onPage,
  formatInstant,
  fieldLabel,
  valueText,
  fieldOrder,
  actionLabel,
  card = true,
  testId = 'record-changes',
}: {
  query: ListQuery<RecordChange>;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  /** An instant (the change's time) in the clinic's time zone. */
  formatInstant: (iso: string) => string;
  fieldLabel: (field: string) => string;
  /** The record's own reading of a value (an enumeration, money, a date); undefined = the generic one. */
  valueText?: (field: string, value: unknown, labels: Record<string, string>) => string | undefined;
  /** The order of the record's form: a change lists its fields in it (the audit keeps none). */
  fieldOrder?: readonly string[];
  /** The record's own name of an action code (`patient_created`); undefined = the generic verb. */
  actionLabel?: (action: string) => string | undefined;
  /** In a card with its title (false: the caller's section has one). */
  card?: boolean;
  testId?: string;
}) {
  const { t, i18n } = useTranslation('common');
  const text = (field: string, value: unknown, labels: RecordChange['labels'] = {}): string => {
    if (isEmptyValue(value)) return t('changes.empty');
    // A record the value names (a professional, a patient, a chair…): its name, as the server read it.
    if (typeof value === 'string' && labels[value.toLowerCase()]) return labels[value.toLowerCase()] as string;
    if (Array.isArray(value) && value.some((item) => typeof item === 'string' && labels[item.toLowerCase()]))
      return value.map((item) => (typeof item === 'string' && labels[item.toLowerCase()]) || String(item)).join(', ');
    const own = valueText?.(field, value, labels);
    if (own !== undefined) return own;
    if (typeof value === 'boolean') return t(value ? 'changes.yes' : 'changes.no');
    if (typeof value === 'number') return new Intl.NumberFormat(i18n.language).format(value);
    if (typeof value === 'string') return value;
    return JSON.stringify(value);
  };
  // A field the record does not name itself (a reference: professionalId, chairId…): the common word.
  const label = (field: string) => {
    const own = fieldLabel(field);
    return own === field && i18n.exists(`common:changes.fieldNames.${field}`) ? t(`changes.fieldNames.${field}`) : own;
  };
  const fieldsCell = (change: RecordChange): ReactNode => {
    const fields = changedFields(change, fieldOrder);
    if (!fields.length) return <span className="text-body-secondary">—</span>;
    const created = change.action.endsWith('_created');
    return (
      <dl className={`change-list mb-0${fields.length > 6 ? ' change-list-long' : ''}`}>
        {fields.map((row) => (
          <div key={row.field} data-testid="change-field" data-field={row.field}>
            <dt>{label(row.field)}</dt>
            <dd>
              {created ? null : (
                <>
                  <del className="text-body-secondary">{text(row.field, row.before, change.labels)}</del>
                  <span aria-hidden="true" className="mx-1">
                    →
                  </span>
                  <span className="visually-hidden"> {t('changes.to')} </span>
                </>
              )}
              <span className="fw-semibold">{text(row.field, row.after, change.labels)}</span>
            </dd>
          </div>
        ))}
      </dl>
    );
  };
  const table = (
    <DataTable<RecordChange>
      label={t('changes.title')}
      query={query}
      rowKey={(change) => change.id}
      rowProps={(change) => ({ 'data-testid': 'change-row', 'data-action': change.action })}
      className="align-top changes-table"
      cards={false}
      compact
      emptyText={t('changes.none')}
      errorText={t('changes.loadError')}
      pagination={{ page, pageSize, onPage, label: t('changes.pagination'), onlyWhenNeeded: true }}
      columns={[
        {
          key: 'date',
          header: t('changes.date'),
          className: 'change-date text-nowrap',
          cell: (change) => formatInstant(change.createdAt),
        },
        {
          key: 'user',
          header: t('changes.user'),
          className: 'change-user text-nowrap',
          cell: (change) => change.userName ?? t('changes.system'),
        },
        {
          key: 'action',
          header: t('changes.action'),
          className: 'change-action',
          cell: (change) => {
            const verb = actionVerb(change.action);
            return (
              <span className={`badge ${actionClass(verb)}`}>
                {actionLabel?.(change.action) ??
                  (i18n.exists(`common:changes.actions.${verb}`) ? t(`changes.actions.${verb}`) : change.action)}
              </span>
            );
          },
        },
        { key: 'fields', header: t('changes.fields'), className: 'change-fields', cell: fieldsCell },
      ]}
    />
  );
  if (!card) return <div data-testid={testId}>{table}</div>;
  return (
    <section className="card mb-0" data-testid={testId}>
      <div className="card-header">
        <h2 className="card-title h6 mb-0">{t('changes.title')}</h2>
      </div>
      {table}
    </section>
  );
}
