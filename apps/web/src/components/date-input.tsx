import { CalendarDays } from 'lucide-react';
import {
  type ChangeEvent,
  type FocusEvent,
  type InputHTMLAttributes,
  type Ref,
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import type { FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { UrlEcho } from '../lib/url-echo';
import { useSessionUser } from '../session/session';
import { BoundField, type BoundFieldProps } from './bound-fields';
import { inputClass } from './form-field';
import { IconButton } from './icon-button';

/**
 * A calendar date typed as the user writes dates (their profile's date format: 31/12/2026,
 * 12/31/2026 or 2026-12-31), whatever the browser's language — a native date input shows the
 * browser's mm/dd/yyyy to a Spanish clinic on an English computer. The value the form and the API
 * see stays 'YYYY-MM-DD': it lives in a hidden input that react-hook-form's `register` drives
 * (`<DateInput {...register('date')} />`). A button opens the browser's own calendar to pick a day.
 */

export type DateFormat = 'DD/MM/YYYY' | 'MM/DD/YYYY' | 'YYYY-MM-DD';

export function dateFormatOf(setting: string | null | undefined): DateFormat {
  const upper = (setting ?? '').toUpperCase();
  return upper === 'MM/DD/YYYY' || upper === 'YYYY-MM-DD' ? upper : 'DD/MM/YYYY';
}

const pad = (value: number, size = 2) => String(value).padStart(size, '0');

function realDay(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || year < 1 || year > 9999) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? `${pad(year, 4)}-${pad(month)}-${pad(day)}`
    : null;
}

/** 'YYYY-MM-DD' of what was typed in the user's format (or as an ISO date), or null when it is not a date. */
export function parseTypedDate(text: string, format: DateFormat): string | null {
  const value = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(value);
  if (iso) return realDay(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const parts = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(value);
  if (!parts || format === 'YYYY-MM-DD') return null;
  const [first, second, year] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  return format === 'DD/MM/YYYY' ? realDay(year, second, first) : realDay(year, first, second);
}

/** 'YYYY-MM-DD' written in the user's format; anything else as it is. */
export function formatTypedDate(iso: string, format: DateFormat): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return iso;
  const [, year, month, day] = match;
  if (format === 'YYYY-MM-DD') return iso;
  return format === 'DD/MM/YYYY' ? `${day}/${month}/${year}` : `${month}/${day}/${year}`;
}

type RegisterProps = {
  name: string;
  onChange: (event: { target: HTMLInputElement; type: string }) => unknown;
  onBlur?: (event: { target: HTMLInputElement; type: string }) => unknown;
  ref?: Ref<HTMLInputElement>;
  /** For a form without react-hook-form: the 'YYYY-MM-DD' to show (onChange gets each new one). */
  value?: string;
};

type DateInputProps = RegisterProps &
  Omit<
    InputHTMLAttributes<HTMLInputElement>,
    'name' | 'onChange' | 'onBlur' | 'value' | 'defaultValue' | 'type' | 'max' | 'min'
  > & {
    /** The latest day the calendar offers ('YYYY-MM-DD'), e.g. the clinic's today for a birthdate. */
    max?: string | number | undefined;
    min?: string | number | undefined;
  };

export function DateInput({
  name,
  onChange,
  onBlur,
  ref,
  value: controlled,
  max,
  min,
  className,
  disabled,
  ...visible
}: DateInputProps) {
  const { t } = useTranslation('common');
  const format = dateFormatOf(useSessionUser()?.settings.dateFormat);
  const hidden = useRef<HTMLInputElement | null>(null);
  const picker = useRef<HTMLInputElement | null>(null);
  const [text, setText] = useState('');
  // The ISO value the visible text stands for: when the form sets another (reset, a conflict's
  // current values), the text follows it.
  const shown = useRef<string | null>(null);

  const attach = useCallback(
    (element: HTMLInputElement | null) => {
      hidden.current = element;
      if (typeof ref === 'function') ref(element);
      else if (ref) ref.current = element;
    },
    [ref],
  );

  // Controlled (`value`, e.g. a list's filter kept in the URL): the days this input sent that have
  // not come back as `value` yet, and the last `value` seen. The parent's answer may come renders
  // later, when more has been typed: only a new value that is not that answer (Back, a link, a
  // reset) replaces the text (issue 34: the URL's older text written over newer keys).
  const echo = useRef(new UrlEcho());
  const lastControlled = useRef<string | null>(null);

  useLayoutEffect(() => {
    if (controlled !== undefined) {
      if (hidden.current) hidden.current.value = controlled;
      if (controlled === lastControlled.current) return;
      lastControlled.current = controlled;
      if (echo.current.isEcho(controlled) || controlled === shown.current) return;
      shown.current = controlled;
      setText(formatTypedDate(controlled, format));
      return;
    }
    const value = hidden.current?.value ?? '';
    if (value !== shown.current) {
      shown.current = value;
      setText(formatTypedDate(value, format));
    }
  });

  const commit = (iso: string) => {
    const element = hidden.current;
    if (!element) return;
    element.value = iso;
    shown.current = iso;
    if (controlled !== undefined) echo.current.sent(iso);
    void onChange({ target: element, type: 'change' });
  };

  const placeholder = format
    .replace('DD', t('dateInput.day'))
    .replace('MM', t('dateInput.month'))
    .replace('YYYY', t('dateInput.year'));

  return (
    <div className="date-input">
      <input ref={attach} type="hidden" name={name} />
      <input
        {...visible}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        className={className}
        disabled={disabled}
        placeholder={placeholder}
        value={text}
        onChange={(event: ChangeEvent<HTMLInputElement>) => {
          setText(event.target.value);
          // An incomplete or impossible date goes to the form as typed: the contract says invalid_date.
          commit(parseTypedDate(event.target.value, format) ?? event.target.value.trim());
        }}
        onBlur={(event: FocusEvent<HTMLInputElement>) => {
          const iso = parseTypedDate(event.target.value, format);
          if (iso) setText(formatTypedDate(iso, format));
          if (hidden.current) void onBlur?.({ target: hidden.current, type: 'blur' });
        }}
      />
      <IconButton
        icon={CalendarDays}
        label={t('dateInput.pick')}
        onClick={() => {
          const element = picker.current;
          if (!element) return;
          element.value = parseTypedDate(text, format) ?? '';
          try {
            element.showPicker();
          } catch {
            element.focus();
          }
        }}
        className="btn date-input-button"
        disabled={disabled}
      />
      <input
        ref={picker}
        type="date"
        className="date-input-picker"
        tabIndex={-1}
        aria-hidden="true"
        max={max === undefined ? undefined : String(max)}
        min={min === undefined ? undefined : String(min)}
        onChange={(event) => {
          const iso = event.target.value;
          if (!iso) return;
          setText(formatTypedDate(iso, format));
          commit(iso);
        }}
      />
    </div>
  );
}

/**
 * A date field bound to a react-hook-form form by name: label, the date typed in the user's
 * format, and the field's message. `<DateField form={form} name="date" label={t('fields.date')} required />`
 */
export function DateField<T extends FieldValues>({
  max,
  min,
  ...field
}: BoundFieldProps<T> & { max?: string; min?: string }) {
  return (
    <BoundField {...field}>
      {(control) => (
        <DateInput
          {...field.form.register(field.name)}
          {...control.props}
          className={inputClass(control.error)}
          max={max}
          min={min}
        />
      )}
    </BoundField>
  );
}
