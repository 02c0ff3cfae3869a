import { type PatientFileType, patientFileTypes } from '@odontia/shared/schemas/files';
import type { SelectHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { ValueOptions } from '../../components/value-options';

/** The select of a file's type (editing one file, or each file of an upload). */
export function FileTypeSelect({
  value,
  onChange,
  ...select
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> & {
  value: PatientFileType;
  onChange: (type: PatientFileType) => void;
}) {
  const { t } = useTranslation('files');
  return (
    <select {...select} value={value} onChange={(event) => onChange(event.target.value as PatientFileType)}>
      <ValueOptions values={patientFileTypes} label={(type) => t(`types.${type}`)} />
    </select>
  );
}
