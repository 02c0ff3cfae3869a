import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordChanges } from '../../components/record-changes';
import { useDateTimeFormat } from '../../session/clinic-time';
import { useMoneyFormat } from '../inventory/format';
import { type RecordKind, useRecordChanges } from './api';
import { useCalendarDate } from './form-bits';
import { recordKinds } from './records';

const pageSize = 10;

/** Translated enumerations the history shows as words, not codes. */
const enumFields: Record<string, string> = {
  attendanceType: 'attendanceTypes',
  attendanceGroup: 'attendanceGroups',
};
const moneyFields = new Set(['attendanceFee', 'totalBillable', 'price', 'total']);
const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
const instantPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A clinical record's history of changes: the shared table with the clinical fields' labels and values. */
export function ClinicalChanges({
  kind,
  patientId,
  id,
  names = {},
  fieldLabels = {},
  valueLabels = {},
  actionLabel,
}: {
  kind: RecordKind;
  patientId: string;
  id: string;
  /** Names of the ids the audit keeps (the professional, the supplies and medicines used). */
  names?: Record<string, string>;
  /** Labels of the record's own fields (another namespace's), before clinical:fields.<field>. */
  fieldLabels?: Record<string, string>;
  /** Words of the record's own enumerations: field → value → label. */
  valueLabels?: Record<string, Record<string, string>>;
  /** The record's own actions (`health_certificate_voided`); undefined = the generic verb. */
  actionLabel?: (action: string) => string | undefined;
}) {
  const { t, i18n } = useTranslation('clinical');
  const money = useMoneyFormat();
  const calendarDate = useCalendarDate();
  const dateTime = useDateTimeFormat();
  const [page, setPage] = useState(1);
  const query = useRecordChanges(kind, patientId, id, page, pageSize);
  const fieldLabel = (field: string) =>
    fieldLabels[field] ?? (i18n.exists(`clinical:fields.${field}`) ? t(`fields.${field}`) : field);
  const valueText = (field: string, value: unknown, labels: Record<string, string> = {}): string | undefined => {
    if (Array.isArray(value)) {
      return value
        .map((entry) => {
          if (field === 'studies' && typeof entry === 'string') return t(`attendanceTypes.${entry}`);
          if (entry && typeof entry === 'object') {
            const item = entry as { description?: string; name?: string; itemId?: string; quantity?: number };
            const label =
              item.description ??
              item.name ??
              (item.itemId ? (names[item.itemId] ?? labels[item.itemId.toLowerCase()] ?? item.itemId) : '');
            return `${label} × ${item.quantity ?? ''}`;
          }
          return String(entry);
        })
        .join(', ');
    }
    const own = typeof value === 'string' ? valueLabels[field]?.[value] : undefined;
    if (own) return own;
    const group = field === 'status' ? recordKinds[kind].statusGroup : enumFields[field];
    if (group && typeof value === 'string' && i18n.exists(`clinical:${group}.${value}`)) return t(`${group}.${value}`);
    if (typeof value !== 'string') return undefined;
    if (field === 'professionalId') return names[value] ?? value;
    if (moneyFields.has(field)) return money(value);
    if (dayPattern.test(value)) return calendarDate(value);
    if (instantPattern.test(value)) return dateTime(value);
    return value;
  };
  return (
    <RecordChanges
      query={query}
      page={page}
      pageSize={pageSize}
      onPage={setPage}
      formatInstant={dateTime}
      fieldLabel={fieldLabel}
      valueText={valueText}
      actionLabel={actionLabel}
    />
  );
}
