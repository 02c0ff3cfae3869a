import { Send } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogFrame } from '../../components/dialog-frame';
import { FieldFeedback, FormAlert } from '../../components/form-feedback';
import { fieldCodeText } from '../../components/form-field';
import { apiErrorText, toastSuccess } from '../../lib/api-toast';
import { type InboxRow, useInboxStep } from './api';

/**
 * Answering a reply on its channel (POST /api/inbox/:id/answer), which files it. WhatsApp takes
 * free text only within 24 hours of the patient's last message: past that the dialog says so and
 * sends nothing (the front desk calls instead).
 */
export function InboxAnswerDialog({ reply, onDone }: { reply: InboxRow; onDone: () => void }) {
  const { t } = useTranslation('messaging');
  const id = useId();
  const step = useInboxStep(reply.id);
  const sending = useRef(false);
  const [body, setBody] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const who = reply.patientName ?? reply.fromAddress;
  const send = async () => {
    if (sending.current || !reply.canAnswer) return;
    if (!body.trim()) {
      setFieldError(fieldCodeText('required'));
      return;
    }
    sending.current = true;
    setFieldError(null);
    setRefusal(null);
    try {
      const answer = await step.mutateAsync({ kind: 'answer', body, version: reply.version });
      toastSuccess(answer.code);
      onDone();
    } catch (error) {
      setRefusal(apiErrorText(error));
    } finally {
      sending.current = false;
    }
  };
  return (
    <DialogFrame
      onHide={onDone}
      testId="inbox-answer-dialog"
      title={t('inbox.answerTitle', { who, channel: t(`channels.${reply.channel}`) })}
      closeLabel={t('close')}
      cancelLabel={t('cancel')}
      confirm={{
        label: t('inbox.send'),
        icon: Send,
        onClick: () => void send(),
        busy: step.isPending,
        disabled: step.isPending || !reply.canAnswer,
        testId: 'inbox-answer-send',
      }}
    >
      <blockquote className="border-start border-3 ps-3 mb-3">
        <p className="inbox-text mb-0">{reply.body}</p>
      </blockquote>
      {reply.canAnswer ? null : (
        <FormAlert variant="warning" testId="inbox-answer-closed">
          {t('inbox.cannotAnswer')}
        </FormAlert>
      )}
      {refusal ? <FormAlert testId="inbox-answer-refused">{refusal}</FormAlert> : null}
      <label htmlFor={`${id}-body`} className="form-label">
        {t('inbox.answer')}
        <span className="text-danger ms-1" aria-hidden="true">
          *
        </span>
      </label>
      <textarea
        id={`${id}-body`}
        className={`form-control${fieldError ? ' is-invalid' : ''}`}
        rows={4}
        maxLength={1000}
        value={body}
        disabled={!reply.canAnswer}
        aria-required
        aria-invalid={fieldError ? true : undefined}
        aria-describedby={`${id}-hint${fieldError ? ` ${id}-error` : ''}`}
        onChange={(event) => setBody(event.target.value)}
        data-testid="inbox-answer-body"
      />
      <FieldFeedback id={`${id}-error`} message={fieldError} />
      <div id={`${id}-hint`} className="form-text">
        {t('inbox.answerHint', { to: reply.fromAddress })}
      </div>
    </DialogFrame>
  );
}
