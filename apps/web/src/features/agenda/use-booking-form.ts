import { clinicToday, clinicWallTime, instantOfClinicWallTime } from '@odontia/shared/clinic-time';
import { type Appointment, createAppointmentRequestSchema } from '@odontia/shared/schemas/appointments';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { fieldErrorsOf, fieldMessageKey, parseFieldMessage } from '../../lib/field-message';
import { isApiError } from '../../lib/http';
import { useClinicTimeZone } from '../../session/clinic-time';
import { appointmentsApi } from '../appointments/api';
import type { useTreatments } from './api';
import { type Errors, usePatientById } from './booking-patient';
import { overlapText } from './status';

/** What opens the booking dialog: a selected slot, a deep link, or an appointment to edit. */
export interface BookingDraft {
  startsAt?: string;
  endsAt?: string;
  professionalId?: string;
  chairId?: string;
  patientId?: string;
  appointment?: Appointment;
}

const defaultMinutes = 30;

type Treatments = NonNullable<ReturnType<typeof useTreatments>['data']>;

/**
 * The booking dialog's values and its save: checked by the shared contract first, a start in the
 * past said before booking it, and the server's refusals (outside the schedule, an overlap, a
 * field) shown where they belong.
 */
export function useBookingForm(draft: BookingDraft, treatments: Treatments, onClose: () => void) {
  const { t, i18n } = useTranslation(['agenda', 'validation']);
  const timeZone = useClinicTimeZone();
  const language = (i18n.resolvedLanguage ?? 'es').slice(0, 2);
  const editing = draft.appointment ?? null;
  const startsAt = editing?.startsAt ?? draft.startsAt;
  const endsAt = editing?.endsAt ?? draft.endsAt;
  const startWall = startsAt ? clinicWallTime(startsAt, timeZone) : `${clinicToday(timeZone)}T09:00`;
  const [patient, setPatient] = useState<{ id: string; name: string } | null>(
    editing ? { id: editing.patientId, name: editing.patientName } : null,
  );
  const [patientIdFromLink] = useState(draft.patientId ?? null);
  usePatientById(patient ? null : patientIdFromLink, setPatient);
  const [creating, setCreating] = useState(false);
  const [values, setValues] = useState({
    professionalId: editing?.professionalId ?? draft.professionalId ?? '',
    chairId: editing?.chairId ?? draft.chairId ?? '',
    treatmentId: editing?.treatmentId ?? '',
    date: startWall.slice(0, 10),
    time: startWall.slice(11, 16),
    minutes: String(
      startsAt && endsAt ? Math.round((Date.parse(endsAt) - Date.parse(startsAt)) / 60_000) : defaultMinutes,
    ),
    reason: editing?.reason ?? '',
    notes: editing?.notes ?? '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [outside, setOutside] = useState<string[] | null>(null);
  const [overlap, setOverlap] = useState<string | null>(null);
  /** A start in the past, said before booking it (a walk-in recorded afterwards); confirmed once. */
  const [past, setPast] = useState<'asking' | 'confirmed' | null>(null);
  const [pending, setPending] = useState(false);
  // A second click (on "Guardar", "Reservar igualmente" or "Reservar en el pasado") while the first
  // is on its way would send the same change twice: the second answers a stale version.
  const sending = useRef(false);
  const minutes = Number(values.minutes) || defaultMinutes;
  const set = (name: keyof typeof values, value: string) => {
    setValues((current) => {
      const next = { ...current, [name]: value };
      if (name === 'treatmentId') {
        const treatment = treatments.find((x) => x.id === value);
        if (treatment) {
          next.minutes = String(treatment.durationMinutes);
          if (!current.reason) next.reason = treatment.name;
        }
      }
      return next;
    });
    setOutside(null);
    setOverlap(null);
    if (name === 'date' || name === 'time') setPast(null);
  };
  /** A free slot picked: its day, time and professional. */
  const pickSlot = (slot: { startsAt: string; professionalId: string }) => {
    const wall = clinicWallTime(slot.startsAt, timeZone);
    setValues((current) => ({
      ...current,
      date: wall.slice(0, 10),
      time: wall.slice(11, 16),
      professionalId: slot.professionalId,
    }));
    setOutside(null);
    setOverlap(null);
  };
  const message = (code: string) => {
    const { key, values: v } = fieldMessageKey(parseFieldMessage(code));
    return t(`validation:${key}`, v);
  };
  const fieldOf = (path: string) => (path === 'startsAt' ? 'time' : path === 'endsAt' ? 'minutes' : path);

  const submit = async (allowOutsideSchedule: boolean, pastConfirmed = past === 'confirmed') => {
    const start = instantOfClinicWallTime(`${values.date}T${values.time}`, timeZone);
    const local: Errors = {};
    if (!values.date) local.date = message('required');
    if (!start) local.time = message(values.time ? 'invalid_time' : 'required');
    if (!(Number(values.minutes) >= 5)) local.minutes = message('too_small|min=5');
    const body = {
      patientId: patient?.id ?? '',
      professionalId: values.professionalId,
      chairId: values.chairId || null,
      treatmentId: values.treatmentId || null,
      startsAt: start?.toISOString() ?? '',
      endsAt: start ? new Date(start.getTime() + minutes * 60_000).toISOString() : '',
      reason: values.reason,
      notes: values.notes,
      allowOutsideSchedule,
    };
    const parsed = createAppointmentRequestSchema.safeParse(body);
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const field = fieldOf(String(issue.path[0]));
        local[field] ??= message(issue.message);
      }
    setErrors(local);
    if (Object.keys(local).length) return;
    // A new start in the past: allowed (a walk-in recorded afterwards), but said first.
    const movedToPast = start && start.getTime() < Date.now() && start.toISOString() !== editing?.startsAt;
    if (movedToPast && !pastConfirmed) {
      setPast('asking');
      return;
    }
    if (sending.current) return;
    sending.current = true;
    setPending(true);
    try {
      const answer = editing
        ? await appointmentsApi.update(editing.id, { ...body, version: editing.version })
        : await appointmentsApi.create(body);
      toastSuccess(answer.code ?? 'appointment_created');
      onClose();
    } catch (error) {
      if (isApiError(error) && error.code === 'appointment_outside_schedule')
        setOutside((error.details?.reasons as string[] | undefined) ?? []);
      else if (isApiError(error) && error.code === 'appointment_overlaps')
        setOverlap(overlapText(t, error.details, timeZone, language));
      else {
        const fields = fieldErrorsOf(error);
        if (fields.length) setErrors(Object.fromEntries(fields.map((f) => [fieldOf(f.path), message(f.code)])));
        else toastApiError(error);
      }
    } finally {
      sending.current = false;
      setPending(false);
    }
  };
  /** "Book in the past" after the warning. */
  const confirmPast = () => {
    setPast('confirmed');
    void submit(false, true);
  };
  return {
    editing,
    timeZone,
    language,
    values,
    set,
    pickSlot,
    minutes,
    patient,
    setPatient,
    creating,
    setCreating,
    errors,
    outside,
    overlap,
    past,
    pending,
    submit,
    confirmPast,
  };
}
