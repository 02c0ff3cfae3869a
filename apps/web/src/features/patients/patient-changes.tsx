import type { RecordChange } from '@odontia/shared/schemas/records';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PaginationFooter } from '../../components/pagination-footer';
import { TableBodyState } from '../../components/table-body-state';
import { usePatientChanges } from './api';
import { useDateFormat, useDateTimeFormat } from './format';

const pageSize = 10;

/** Fields the history does not list as changes (bookkeeping, not the patient's data). */
const hiddenFields = new Set(['version', 'deleted', 'updatedBy', 'createdBy', 'accountId', 'id']);

/** The order of the form: a change lists its fields in it (the audit keeps no order). */
const fieldOrder = [
  'skuPatient',
  'firstName',
  'lastName',
  'sex',
  'birthdate',
  'ssn',
  'medicalHistory',
  'language',
  'active',
  'email',
  'phoneArea',
  'phone',
  'street',
  'complement',
  'zipCode',
  'city',
  'state',
  'country',
  'district',
  'address',
  'allergies',
  'chronicConditions',
  'currentMedication',
  'obs',
];
const rank = (field: string) => {
  const index = fieldOrder.indexOf(field);
  return index === -1 ? fieldOrder.length : index;
};

/** The fields a change touched, in the order of the form, with their old and new values. */
function changedFields(change: RecordChange): { field: string; before: unknown; after: unknown }[] {
  const before = change.before ?? {};
  const after = change.after ?? {};
  // A deletion keeps the whole record in `before`: it is listed as one event, not field by field.
  if (change.action.endsWith('_deleted')) return [];
  const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])].filter((key) => !hiddenFields.has(key));
  return keys
    .sort((a, b) => rank(a) - rank(b))
    .map((field) => ({ field, before: before[field], after: after[field] }))
    .filter((row) => (change.action.endsWith('_created') ? row.after !== null && row.after !== '' : true));
}

function useValueText() {
  const { t, i18n } = useTranslation('patients');
  const date = useDateFormat();
  return (field: string, value: unknown): string => {
    if (value === null || value === undefined || value === '') return t('changes.emptyValue');
    if (typeof value === 'boolean') return t(value ? 'changes.yes' : 'changes.no');
    if (field === 'sex' && typeof value === 'string') return t(`sexes.${value}`, { defaultValue: value });
    if (field === 'birthdate' && typeof value === 'string') return date(value);
    if (field === 'language' && typeof value === 'string') return t(`languages.${value}`, { defaultValue: value });
    if (typeof value === 'string') return value;
    if (typeof value === 'number') return new Intl.NumberFormat(i18n.language).format(value);
    return JSON.stringify(value);
  };
}

/** The patient record's history of changes, newest first: when, who, what, and each field before → after. */
export function PatientChanges({ patientId }: { patientId: string }) {
  const { t, i18n } = useTranslation('patients');
  const [page, setPage] = useState(1);
  const query = usePatientChanges(patientId, page, pageSize);
  const dateTime = useDateTimeFormat();
  const valueText = useValueText();
  const rows = query.data?.data ?? [];
  const fieldLabel = (field: string) => (i18n.exists(`patients:fields.${field}`) ? t(`fields.${field}`) : field);

  return (
    <div data-testid="patient-changes">
      <div className="table-responsive">
        <table className="table align-top mb-0 data-table changes-table" aria-busy={query.isFetching}>
          <caption className="visually-hidden">{t('changes.title')}</caption>
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
              retryText={t('list.retry')}
              compact
            >
              {rows.map((change) => {
                const fields = changedFields(change);
                return (
                  <tr key={change.id} data-testid="change-row" data-action={change.action}>
                    <td className="change-date text-nowrap">{dateTime(change.createdAt)}</td>
                    <td className="change-user text-nowrap">{change.userName ?? t('changes.unknownUser')}</td>
                    <td className="change-action">
                      <span className={`badge ${actionClass(change.action)}`}>
                        {t(`changes.actions.${change.action}`, { defaultValue: change.action })}
                      </span>
                    </td>
                    <td className="change-fields">
                      {fields.length ? (
                        <dl className={`change-list mb-0${fields.length > 6 ? ' change-list-long' : ''}`}>
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
                                    <span className="visually-hidden"> {t('changes.to')} </span>
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
          label={t('changes.pagination')}
        />
      ) : null}
    </div>
  );
}

function actionClass(action: string): string {
  if (action.endsWith('_created')) return 'bg-success-subtle text-success-emphasis';
  if (action.endsWith('_deleted')) return 'bg-danger-subtle text-danger-emphasis';
  return 'bg-primary-subtle text-primary-emphasis';
}
