import { clinicWallTime, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import type { AttendanceType } from '@odontia/shared/enums';
import { lineTotal, sumMoney } from '@odontia/shared/money';
import type { Appointment } from '@odontia/shared/schemas/appointments';
import type { Attendance } from '@odontia/shared/schemas/attendances';
import type { Treatment } from '@odontia/shared/schemas/schedules';
import { moneyAmount } from '@odontia/shared/validation';
import { i18n } from '../../lib/i18n';
import type { LineLinkValues } from './attendance-line-links';
import type { PickedItem } from './item-picker';

export interface LineValues extends LineLinkValues {
  /** The stored line's id (sent back so an unchanged line keeps its row), null for a new one. */
  lineId: string | null;
  description: string;
  itemId: string | null;
  quantity: string;
  price: string;
  /** An issued invoice bills it: read-only here (the server refuses any change). */
  invoiced: boolean;
}

export const newLine = (): LineValues => ({
  lineId: null,
  description: '',
  itemId: null,
  treatmentId: '',
  tooth: '',
  budgetLineId: '',
  quantity: '1',
  price: '',
  invoiced: false,
});

export interface AttendanceValues {
  date: string;
  attendanceType: AttendanceType | '';
  specialization: string;
  professionalId: string;
  titleResume: string;
  resume: string;
  detail: string;
  nextAppointment: string;
  finished: boolean;
  resultDate: string;
  result: string;
  billable: boolean;
  attendanceFee: string;
  lines: LineValues[];
  supplies: PickedItem[];
  medications: PickedItem[];
  version: number;
}

/** A saved amount ("1500.50") as people type it in the interface language ("1500,50" but in English). */
export function amountInput(value: string): string {
  const language = i18n.resolvedLanguage ?? i18n.language;
  return language?.startsWith('en') ? value : value.replace('.', ',');
}

export function valuesOf(
  record: Attendance | null,
  professionalId: string,
  timeZone: string,
  appointment: Appointment | null = null,
  treatment: Treatment | null = null,
): AttendanceValues {
  const picked = (items: Attendance['supplies']): PickedItem[] =>
    items.map((item) => ({ itemId: item.itemId, name: item.name, quantity: String(item.quantity), available: null }));
  return {
    // The datetime-local input shows the clinic's wall-clock time, whatever the browser's zone.
    // Started from an appointment: its professional, its time and its treatment or reason.
    date: clinicWallTime(record?.date ?? appointment?.startsAt ?? new Date(), timeZone),
    // From an appointment: a visit at the clinic (a consultation), and the treatment booked, as a
    // line at its price-list price (billable when it has one).
    attendanceType: record?.attendanceType ?? (appointment ? 'medical_attendance' : ''),
    specialization: record?.specialization ?? '',
    professionalId: record?.professionalId ?? appointment?.professionalId ?? professionalId,
    titleResume: record?.titleResume ?? appointment?.treatmentName ?? appointment?.reason ?? '',
    resume: record?.resume ?? (appointment?.treatmentName && appointment.reason ? appointment.reason : ''),
    detail: record?.detail ?? '',
    nextAppointment: record?.nextAppointment?.slice(0, 10) ?? '',
    finished: record?.finished ?? false,
    resultDate: record?.resultDate?.slice(0, 10) ?? '',
    result: record?.result ?? '',
    billable: record?.billable ?? (treatment ? Number(treatment.price) > 0 : false),
    attendanceFee: record ? amountInput(record.attendanceFee) : '0',
    lines: (record?.lines ?? []).map((line) => ({
      lineId: line.id,
      description: line.description,
      itemId: line.itemId,
      treatmentId: line.treatmentId ?? '',
      tooth: line.tooth ?? '',
      budgetLineId: line.budgetLineId ?? '',
      quantity: String(line.quantity),
      price: amountInput(line.price),
      invoiced: line.invoiced,
    })),
    ...(!record && appointment?.treatmentId
      ? {
          lines: [
            {
              ...newLine(),
              treatmentId: appointment.treatmentId,
              description: treatment?.name ?? appointment.treatmentName ?? '',
              price: treatment ? amountInput(treatment.price) : '',
            },
          ],
        }
      : {}),
    supplies: picked(record?.supplies ?? []),
    medications: picked(record?.medications ?? []),
    version: record?.version ?? 1,
  };
}

/** The form's values as the contract wants them: the clinic's wall-clock time as an instant, blanks as missing. */
export function toRequest(value: unknown, timeZone: string) {
  if (!value || typeof value !== 'object') return value;
  const values = { ...(value as Record<string, unknown>) };
  if (typeof values.date === 'string' && values.date) {
    const instant = instantOfClinicWallTime(values.date, timeZone);
    if (instant) values.date = instant.toISOString();
  }
  if (values.attendanceType === '') values.attendanceType = undefined;
  if (Array.isArray(values.lines)) {
    values.lines = (values.lines as LineValues[]).map(({ lineId, invoiced: _invoiced, ...line }) => ({
      ...line,
      ...(lineId ? { id: lineId } : {}),
    }));
  }
  return values;
}

/** A typed amount as a decimal string, or null while it is not one (never a float). */
export function decimalOf(value: unknown): string | null {
  const parsed = moneyAmount().safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function quantityOf(value: unknown): number | null {
  const number = Number(String(value ?? '').trim());
  return String(value ?? '').trim() !== '' && Number.isInteger(number) && number > 0 ? number : null;
}

/** Each line's total and the attendance's total, with decimals, as the server computes them. */
export function billingTotals(fee: unknown, lines: { price?: unknown; quantity?: unknown }[]) {
  const totals = lines.map((line) => {
    const price = decimalOf(line.price);
    const quantity = quantityOf(line.quantity);
    return price !== null && quantity !== null ? lineTotal(price, quantity) : null;
  });
  const feeAmount = decimalOf(fee);
  const complete = feeAmount !== null && totals.every((total) => total !== null);
  return {
    lineTotals: totals,
    total: complete ? sumMoney([feeAmount, ...(totals as string[])]) : null,
  };
}
