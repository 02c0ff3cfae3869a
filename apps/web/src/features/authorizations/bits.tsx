import { useTranslation } from 'react-i18next';

export { Fact } from '../medical-history/form-bits';

/** An instant in the interface language, date and time. */
export function useDateTimeFormat(): (iso: string) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.resolvedLanguage ?? i18n.language, {
    dateStyle: 'short',
    timeStyle: 'short',
  });
  return (iso) => (iso ? format.format(new Date(iso)) : '');
}

export { RecordStamps as RecordStampsLine } from '../medical-history/clinical-frame';
