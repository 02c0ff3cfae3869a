import { Eye, EyeOff } from 'lucide-react';
import { type ComponentPropsWithRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

type PasswordInputProps = Omit<ComponentPropsWithRef<'input'>, 'type'> & { invalid?: boolean };

/** A password field with a show/hide button (Bootstrap input group); `invalid` adds `is-invalid`. */
export function PasswordInput({ invalid, className, ...props }: PasswordInputProps) {
  const { t } = useTranslation('auth');
  const [visible, setVisible] = useState(false);
  const label = visible ? t('common.hidePassword') : t('common.showPassword');
  return (
    <div className="input-group password-input">
      <input
        {...props}
        type={visible ? 'text' : 'password'}
        className={`form-control${invalid ? ' is-invalid' : ''}${className ? ` ${className}` : ''}`}
        aria-invalid={invalid || undefined}
      />
      <button
        type="button"
        className={`btn btn-outline-secondary password-toggle${invalid ? ' border-danger' : ''}`}
        aria-label={label}
        title={label}
        aria-pressed={visible}
        onClick={() => setVisible((current) => !current)}
      >
        {visible ? <EyeOff size={18} aria-hidden="true" /> : <Eye size={18} aria-hidden="true" />}
      </button>
    </div>
  );
}
