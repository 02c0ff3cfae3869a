import { attendanceGroupOf, attendanceGroups, attendanceTypes } from '@odontia/shared/enums';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { describedField, FieldLabel, FormField } from '../../components/form-field';
import type { AttendanceValues } from './attendance-values';

/** The attendance's type, chosen by its group (dentistry, medicine…), required. */
export function AttendanceTypeField({ id, form }: { id: string; form: UseFormReturn<AttendanceValues> }) {
  const { t } = useTranslation('clinical');
  const message = form.formState.errors.attendanceType?.message;
  return (
    <FormField
      id={id}
      label={<FieldLabel text={t('fields.attendanceType')} required />}
      error={message}
      className="mb-0"
    >
      <select
        {...form.register('attendanceType')}
        {...describedField(id, message)}
        className={`form-select${message ? ' is-invalid' : ''}`}
        aria-required
      >
        <option value="">{t('attendance.choose')}</option>
        {attendanceGroups.map((group) => (
          <optgroup key={group} label={t(`attendanceGroups.${group}`)}>
            {attendanceTypes
              .filter((type) => attendanceGroupOf[type] === group)
              .map((type) => (
                <option key={type} value={type}>
                  {t(`attendanceTypes.${type}`)}
                </option>
              ))}
          </optgroup>
        ))}
      </select>
    </FormField>
  );
}
