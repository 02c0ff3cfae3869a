import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../components/form-field';
import { lastRegister, useOpenSessions } from './api';

/**
 * The register a collection or payment is taken at (issue 40): the registers open now; by default
 * the one this browser last worked at on the Caja screen, when it is open. A register is a drawer
 * at a desk: the browser at that desk remembers it, not the user (who may take money elsewhere).
 * `value` undefined: not chosen yet (the default is applied once the open registers load); '' none.
 * Shown only while some register is open.
 */
export function RegisterField({
  id,
  value,
  onChange,
  error,
  className = 'col-md-6',
}: {
  id: string;
  value: string | undefined;
  onChange: (registerId: string) => void;
  error?: string | undefined;
  className?: string;
}) {
  const { t } = useTranslation('cash');
  const open = useOpenSessions();
  const sessions = open.data?.data ?? [];
  useEffect(() => {
    if (value !== undefined || !open.data) return;
    const remembered = lastRegister.get();
    const preferred = open.data.data.find((session) => session.registerId === remembered);
    onChange(preferred?.registerId ?? '');
  }, [value, open.data, onChange]);
  if (sessions.length === 0) return null;
  return (
    <FormField
      id={id}
      label={t('registerField.label')}
      error={error}
      hint={t('registerField.hint')}
      className={className}
    >
      <select
        id={id}
        className={`form-select${error ? ' is-invalid' : ''}`}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        data-testid="register-field"
      >
        <option value="">{t('registerField.none')}</option>
        {sessions.map((session) => (
          <option key={session.registerId} value={session.registerId}>
            {session.registerName}
          </option>
        ))}
      </select>
    </FormField>
  );
}
