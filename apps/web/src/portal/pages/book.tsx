import { sexes } from '@odontia/shared/enums';
import { CalendarCheck, ChevronLeft, MailCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { portalErrorText } from '../errors';
import { formatDay, formatTime, formatWhen } from '../format';
import { Link, useRouter } from '../router';
import { ErrorAlert, Placeholder, PortalForm } from '../ui';
import { useFormSubmit } from '../use-submit';

/*
 * The booking, step by step: treatment → professional (or any) → day → free time → who the patient
 * is (the public page only) → booked. Each choice is in the address (`?treatment=&professional=&day=&time=`),
 * so Back returns to the step before with everything chosen still chosen, and a reload keeps it.
 */

export interface BookingOption {
  id: string;
  name: string;
}

export interface FreeSlot {
  startsAt: string;
  endsAt: string;
  professionalId: string;
  professionalName: string;
}

export interface BookingChoices {
  treatmentId: string;
  professionalId: string;
  startsAt: string;
}

export interface BookingSource {
  timeZone: string;
  treatments: readonly (BookingOption & { durationMinutes: number })[];
  professionals: readonly BookingOption[];
  /** Free slots of a treatment (and professional) over `days` days from `from`. */
  freeSlots: (query: {
    treatmentId: string;
    professionalId?: string;
    from?: string;
    days: number;
  }) => Promise<FreeSlot[]>;
}

/** `instant` as its calendar day in the clinic's zone ('2026-12-01'). */
function clinicDay(instant: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(instant),
  );
}

const anyProfessional = 'any';
/** Days of free slots the day step offers. */
const daysShown = 14;

/** The address of the flow with `changes` applied to its query. */
function withQuery(path: string, query: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(query);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) next.delete(name);
    else next.set(name, value);
  }
  const text = next.toString();
  return text ? `${path}?${text}` : path;
}

function StepHeading({ step, title, back }: { step: number; title: string; back: string | null }) {
  const { t } = useTranslation();
  return (
    <div className="mb-3">
      {back ? (
        <Link to={back} className="btn btn-link px-0 mb-2 d-inline-flex align-items-center" testId="booking-back">
          <ChevronLeft size={18} aria-hidden="true" />
          {t('book.back')}
        </Link>
      ) : null}
      <p className="text-body-secondary small mb-1">{t('book.stepOf', { step, steps: 5 })}</p>
      <h2 className="h4" data-testid="booking-step">
        {title}
      </h2>
    </div>
  );
}

/** Slots grouped by the clinic's day, in order. */
function byDay(slots: readonly FreeSlot[], timeZone: string): Map<string, FreeSlot[]> {
  const days = new Map<string, FreeSlot[]>();
  for (const slot of slots) {
    const day = clinicDay(slot.startsAt, timeZone);
    days.set(day, [...(days.get(day) ?? []), slot]);
  }
  return days;
}

function useSlots(source: BookingSource, treatmentId: string, professionalId: string) {
  const [slots, setSlots] = useState<{ key: string; list: FreeSlot[] | null; error: unknown }>({
    key: '',
    list: null,
    error: null,
  });
  const key = `${treatmentId}|${professionalId}`;
  const { freeSlots } = source;
  useEffect(() => {
    if (!treatmentId || !professionalId) return;
    let current = true;
    setSlots({ key, list: null, error: null });
    freeSlots({
      treatmentId,
      ...(professionalId === anyProfessional ? {} : { professionalId }),
      days: daysShown,
    }).then(
      (list) => current && setSlots({ key, list, error: null }),
      (error: unknown) => current && setSlots({ key, list: null, error }),
    );
    return () => {
      current = false;
    };
  }, [freeSlots, key, treatmentId, professionalId]);
  return slots.key === key ? slots : { key, list: null, error: null };
}

/**
 * The steps. `finish` is what books once the time is chosen: the public page asks who the patient
 * is first (`details`), the signed-in patient books at once.
 */
export function BookingFlow({
  source,
  path,
  details,
  book,
}: {
  source: BookingSource;
  /** The flow's own path ('/c/clinica/book', '/portal/book'). */
  path: string;
  /** The public page asks who books before booking. */
  details: boolean;
  book: (choices: BookingChoices, person: Record<string, string> | null) => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const { query } = useRouter();
  const treatmentId = query.get('treatment') ?? '';
  const professionalId = query.get('professional') ?? '';
  const day = query.get('day') ?? '';
  const time = query.get('time') ?? '';
  const slotProfessional = query.get('with') ?? '';
  const treatment = source.treatments.find((item) => item.id === treatmentId);
  // A professional the clinic does not offer online (an address kept from before) is chosen again.
  const professionalOffered =
    professionalId === anyProfessional || source.professionals.some((item) => item.id === professionalId);
  const slots = useSlots(source, treatment ? treatmentId : '', professionalOffered ? professionalId : '');
  const to = (changes: Record<string, string | null>) => withQuery(path, query, changes);
  const language = i18n.language;

  if (!treatment) {
    return (
      <section aria-labelledby="booking-step">
        <StepHeading step={1} title={t('book.treatment')} back={null} />
        <ul className="portal-choices">
          {source.treatments.map((item) => (
            <li key={item.id}>
              <Link
                to={to({ treatment: item.id, professional: null, day: null, time: null, with: null })}
                className={`btn btn-outline-primary portal-choice${item.id === treatmentId ? ' active' : ''}`}
              >
                <span className="d-block fw-semibold">{item.name}</span>
                <span className="small">{t('book.minutes', { count: item.durationMinutes })}</span>
              </Link>
            </li>
          ))}
        </ul>
        {source.treatments.length === 0 ? <p>{t('book.noTreatments')}</p> : null}
      </section>
    );
  }

  if (!professionalOffered) {
    return (
      <section>
        <StepHeading step={2} title={t('book.professional')} back={to({ treatment: null })} />
        <ul className="portal-choices">
          <li>
            <Link to={to({ professional: anyProfessional })} className="btn btn-outline-primary portal-choice">
              {t('book.anyProfessional')}
            </Link>
          </li>
          {source.professionals.map((item) => (
            <li key={item.id}>
              <Link to={to({ professional: item.id })} className="btn btn-outline-primary portal-choice">
                {item.name}
              </Link>
            </li>
          ))}
        </ul>
      </section>
    );
  }

  if (!slots.list) {
    return (
      <section>
        <StepHeading step={3} title={t('book.day')} back={to({ professional: null, day: null })} />
        {slots.error ? (
          <ErrorAlert>{portalErrorText(slots.error)}</ErrorAlert>
        ) : (
          <Placeholder testId="booking-loading" />
        )}
      </section>
    );
  }

  const days = byDay(slots.list, source.timeZone);
  const daySlots = days.get(day);
  if (!daySlots) {
    return (
      <section>
        <StepHeading step={3} title={t('book.day')} back={to({ professional: null, day: null })} />
        {days.size === 0 ? (
          <p data-testid="booking-no-days">{t('book.noDays')}</p>
        ) : (
          <ul className="portal-days">
            {[...days.keys()].map((item) => (
              <li key={item}>
                <Link to={to({ day: item, time: null, with: null })} className="btn btn-outline-primary">
                  {formatDay(item, language, 'short')}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    );
  }

  const slot = daySlots.find((item) => item.startsAt === time && item.professionalId === slotProfessional);
  if (!slot) {
    return (
      <section>
        <StepHeading step={4} title={t('book.time', { day: formatDay(day, language) })} back={to({ day: null })} />
        <ul className="portal-slots">
          {daySlots.map((item) => (
            <li key={`${item.startsAt}|${item.professionalId}`}>
              <Link
                to={to({ time: item.startsAt, with: item.professionalId })}
                className="btn btn-outline-primary"
                testId="booking-slot"
              >
                {formatTime(item.startsAt, source.timeZone, language)}
                {professionalId === anyProfessional ? (
                  <span className="d-block small text-truncate">{item.professionalName}</span>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
      </section>
    );
  }

  return (
    <section>
      <StepHeading step={5} title={t('book.review')} back={to({ time: null, with: null })} />
      <dl className="portal-summary" data-testid="booking-summary">
        <dt>{t('book.treatmentLabel')}</dt>
        <dd>{treatment.name}</dd>
        <dt>{t('book.professionalLabel')}</dt>
        <dd>{slot.professionalName}</dd>
        <dt>{t('book.whenLabel')}</dt>
        <dd>{formatWhen(slot.startsAt, source.timeZone, language)}</dd>
      </dl>
      <BookForm
        details={details}
        book={(person) => book({ treatmentId, professionalId: slot.professionalId, startsAt: slot.startsAt }, person)}
      />
    </section>
  );
}

const textFields = ['firstName', 'lastName', 'email', 'phone', 'idNumber', 'birthdate'] as const;
const personFields = [...textFields, 'sex'] as const;
const fieldTypes: Record<(typeof textFields)[number], { type: string; autoComplete: string }> = {
  firstName: { type: 'text', autoComplete: 'given-name' },
  lastName: { type: 'text', autoComplete: 'family-name' },
  email: { type: 'email', autoComplete: 'email' },
  phone: { type: 'tel', autoComplete: 'tel' },
  idNumber: { type: 'text', autoComplete: 'off' },
  birthdate: { type: 'date', autoComplete: 'bday' },
};

/** Sex, as the clinic's patient record asks it: two radio buttons, reachable by keyboard. */
function SexField({ error }: { error: string | undefined }) {
  const { t } = useTranslation();
  return (
    <fieldset className="mb-3" aria-describedby={error ? 'booking-sex-error' : undefined}>
      <legend className="form-label fs-6 mb-1">{t('book.person.sex')}</legend>
      {sexes.map((sex) => (
        <div className="form-check form-check-inline" key={sex}>
          <input
            className={`form-check-input${error ? ' is-invalid' : ''}`}
            type="radio"
            name="sex"
            id={`booking-sex-${sex}`}
            value={sex}
            required
          />
          <label className="form-check-label" htmlFor={`booking-sex-${sex}`}>
            {t(`book.person.sexes.${sex}`)}
          </label>
        </div>
      ))}
      {error ? (
        <div id="booking-sex-error" className="invalid-feedback d-block">
          {error}
        </div>
      ) : null}
    </fieldset>
  );
}

/** The last step: who books (public page) and the button that books once, however often it is pressed. */
function BookForm({
  details,
  book,
}: {
  details: boolean;
  book: (person: Record<string, string> | null) => Promise<void>;
}) {
  const { t } = useTranslation();
  // The signed-in patient is known: only the button.
  const form = useFormSubmit(details ? personFields : [], (person) =>
    book(
      details
        ? (Object.fromEntries(Object.entries(person).map(([name, value]) => [name, String(value).trim()])) as Record<
            string,
            string
          >)
        : null,
    ),
  );

  return (
    <PortalForm
      form={form}
      testId="booking-form"
      submitTestId="booking-submit"
      fields={details ? textFields.map((name) => ({ name, label: t(`book.person.${name}`), ...fieldTypes[name] })) : []}
      submitLabel={t('book.confirm')}
      icon={CalendarCheck}
    >
      {details ? <SexField error={form.fieldErrors.sex} /> : null}
    </PortalForm>
  );
}

/** The public page's last screen: the booking waits for the e-mail's link. */
export function CheckYourMail({ expiresAt, timeZone }: { expiresAt: string; timeZone: string }) {
  const { t, i18n } = useTranslation();
  return (
    <section className="text-center py-4" data-testid="booking-held">
      <MailCheck size={48} aria-hidden="true" className="text-success mb-3" />
      <h2 className="h4">{t('book.held.title')}</h2>
      <p>{t('book.held.text', { until: formatWhen(expiresAt, timeZone, i18n.language) })}</p>
    </section>
  );
}
