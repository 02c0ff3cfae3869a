import { currencies, currencyIsoCodes, languages } from '@odontia/shared/enums';
import type { Profile, UpdateProfileRequest } from '@odontia/shared/schemas/auth';
import { Save } from 'lucide-react';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { BusyIcon } from '../../components/busy-icon';
import { FormField } from '../../components/form-field';
import { ValueOptions } from '../../components/value-options';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useFormErrors } from '../../lib/form-errors';
import { languageNames } from '../../lib/i18n';
import { useUpdateProfile } from './api';
import { dateFormats, formatExample } from './forms';

type Preferences = Required<Pick<UpdateProfileRequest, 'systemLanguage' | 'dateFormat' | 'systemCurrency'>>;

/** Language (the interface switches at once), date format and currency. */
export function PreferencesForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const id = useId();
  const update = useUpdateProfile();
  const current = profile.settings;
  const formErrors = useFormErrors();
  const {
    register,
    handleSubmit,
    reset,
    formState: { isSubmitting, isDirty },
  } = useForm<Preferences>({
    defaultValues: {
      systemLanguage: current.systemLanguage,
      dateFormat: (dateFormats as readonly string[]).includes(current.dateFormat)
        ? (current.dateFormat as Preferences['dateFormat'])
        : 'DD/MM/YYYY',
      systemCurrency: current.systemCurrency,
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await update.mutateAsync(values);
      reset(values);
      toastSuccess(answer.code);
    } catch (error) {
      toastApiError(error);
    }
  }, formErrors.onInvalid);

  return (
    <form ref={formErrors.ref} noValidate onSubmit={(event) => void onSubmit(event)} data-testid="profile-preferences">
      <FormField id={`${id}-language`} label={t('preferences.language')} hint={t('preferences.languageHint')}>
        <select
          {...register('systemLanguage')}
          id={`${id}-language`}
          className="form-select"
          aria-describedby={`${id}-language-hint`}
        >
          {languages.map((language) => (
            <option key={language} value={language} lang={language}>
              {languageNames[language]}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id={`${id}-date-format`} label={t('preferences.dateFormat')}>
        <select {...register('dateFormat')} id={`${id}-date-format`} className="form-select">
          {dateFormats.map((format) => (
            <option key={format} value={format}>
              {t('preferences.dateFormatOption', {
                format: t(`dateFormats.${format}`),
                example: formatExample(format),
              })}
            </option>
          ))}
        </select>
      </FormField>
      <FormField id={`${id}-currency`} label={t('preferences.currency')}>
        <select {...register('systemCurrency')} id={`${id}-currency`} className="form-select">
          <ValueOptions
            values={currencies}
            label={(currency) =>
              t('preferences.currencyOption', { name: t(`currencies.${currency}`), code: currencyIsoCodes[currency] })
            }
          />
        </select>
      </FormField>
      <div className="d-flex justify-content-end">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting || !isDirty}>
          <BusyIcon busy={isSubmitting} icon={Save} />
          {t('preferences.save')}
        </button>
      </div>
    </form>
  );
}
