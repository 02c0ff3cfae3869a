import { useTranslation } from 'react-i18next';
import { describedField } from '../../components/form-field';
import { usePayers } from './api';

/** The clinic's payers to choose one (required): the affiliation's and the presentation's picker. */
export function PayerSelect({
  id,
  value,
  onChange,
  error,
  testId,
}: {
  id: string;
  value: string;
  onChange: (payerId: string) => void;
  error?: string | undefined;
  testId: string;
}) {
  const { t } = useTranslation('payers');
  const payers = usePayers();
  return (
    <select
      {...describedField(id, error)}
      className={`form-select${error ? ' is-invalid' : ''}`}
      required
      value={value}
      onChange={(event) => onChange(event.target.value)}
      data-testid={testId}
    >
      <option value="">{t('presentations.choosePayer')}</option>
      {(payers.data?.data ?? []).map((payer) => (
        <option key={payer.id} value={payer.id}>
          {payer.name}
        </option>
      ))}
    </select>
  );
}
