import type { MessagingChannel } from '@odontia/shared/schemas/messages';
import { Check, Copy } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** A value to paste elsewhere: read-only, with a button that copies it (and says so). */
export function CopyField({
  label,
  value,
  hint,
  testId,
}: {
  label: string;
  value: string;
  hint?: string;
  testId: string;
}) {
  const { t } = useTranslation('messaging');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // No clipboard (an insecure origin): select the text, the person copies it.
      input.current?.select();
      document.execCommand?.('copy');
    }
    setCopied(true);
    window.setTimeout(() => setCopied(false), 2000);
  };
  return (
    <div>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <div className="input-group">
        <input
          ref={input}
          id={id}
          className="form-control font-monospace small"
          value={value}
          readOnly
          aria-describedby={hint ? `${id}-hint` : undefined}
          onFocus={(event) => event.target.select()}
          data-testid={testId}
        />
        <button
          type="button"
          className="btn btn-outline-secondary"
          onClick={() => void copy()}
          aria-label={t('settings.account.copy', { what: label })}
          title={t('settings.account.copy', { what: label })}
          data-testid={`${testId}-copy`}
        >
          {copied ? <Check size={16} aria-hidden="true" /> : <Copy size={16} aria-hidden="true" />}
        </button>
      </div>
      {hint ? (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      ) : null}
      <span className="visually-hidden" role="status">
        {copied ? t('settings.account.copied') : ''}
      </span>
    </div>
  );
}

/**
 * Where the provider posts delivery reports and replies, to paste in its console. WhatsApp posts
 * both to one address, and checks it with the verify token, its last segment.
 */
export function WebhookUrls({ channel }: { channel: MessagingChannel | null }) {
  const { t } = useTranslation('messaging');
  if (!channel) return <p className="small text-body-secondary mb-0">{t('settings.account.webhooksAfterSave')}</p>;
  if (channel.channel === 'whatsapp') {
    const token = channel.inboundWebhookUrl.split('/').filter(Boolean).at(-1) ?? '';
    return (
      <div className="row g-3">
        <div className="col-md-8">
          <CopyField
            label={t('settings.account.whatsappWebhook')}
            value={channel.inboundWebhookUrl}
            hint={t('settings.account.whatsappWebhookHint')}
            testId="whatsapp-webhook-url"
          />
        </div>
        <div className="col-md-4">
          <CopyField label={t('settings.account.verifyToken')} value={token} testId="whatsapp-verify-token" />
        </div>
      </div>
    );
  }
  return (
    <div className="row g-3">
      <div className="col-md-6">
        <CopyField
          label={t('settings.account.statusWebhook')}
          value={channel.statusWebhookUrl}
          hint={t('settings.account.statusWebhookHint')}
          testId="sms-status-webhook-url"
        />
      </div>
      <div className="col-md-6">
        <CopyField
          label={t('settings.account.inboundWebhook')}
          value={channel.inboundWebhookUrl}
          hint={t('settings.account.inboundWebhookHint')}
          testId="sms-inbound-webhook-url"
        />
      </div>
    </div>
  );
}
