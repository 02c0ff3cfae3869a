import { type LucideIcon, Save } from 'lucide-react';
import { type FormEvent, type ReactNode, type RefObject, useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { errorMessage, fieldErrorsOf } from '../lib/api-errors';
import { toastSuccess } from '../lib/api-toast';
import { BusyIcon } from './busy-icon';
import { FieldFeedback } from './form-feedback';
import { fieldCodeText } from './form-field';

/** The confirming button of a dialog or panel: a spinner while busy, else its icon. */
export interface ConfirmAction {
  label: ReactNode;
  onClick: () => void;
  /** Default `btn-primary`. */
  className?: string;
  disabled?: boolean;
  busy: boolean;
  icon?: LucideIcon;
  testId: string;
}

/** Cancel, then the confirming button (a dialog's footer, a panel's last row). */
export function CancelConfirm({
  cancelLabel,
  onCancel,
  confirm,
}: {
  cancelLabel: ReactNode;
  onCancel: () => void;
  confirm: ConfirmAction;
}) {
  return (
    <>
      <button type="button" className="btn btn-outline-secondary" onClick={onCancel}>
        {cancelLabel}
      </button>
      <button
        type="button"
        className={`btn ${confirm.className ?? 'btn-primary'}`}
        disabled={confirm.disabled}
        onClick={confirm.onClick}
        data-testid={confirm.testId}
      >
        <BusyIcon busy={confirm.busy} {...(confirm.icon ? { icon: confirm.icon } : {})} />
        {confirm.label}
      </button>
    </>
  );
}

/** A dialog's header (its title, the close button) and its body. */
function TitledBody({
  titleId,
  title,
  closeLabel,
  bodyClassName,
  children,
}: {
  titleId: string;
  title: ReactNode;
  closeLabel: string;
  bodyClassName: string | undefined;
  children: ReactNode;
}) {
  return (
    <>
      <Modal.Header closeButton closeLabel={closeLabel}>
        <Modal.Title id={titleId} as="h2" className="h5">
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body {...(bodyClassName ? { className: bodyClassName } : {})}>{children}</Modal.Body>
    </>
  );
}
/**
 * A centred modal dialog with a title, a body, and Cancel then a confirming button in its footer.
 * `closeLabel`/`cancelLabel` come from the feature (its namespaces name them differently).
 */
export function DialogFrame({
  show = true,
  onHide,
  testId,
  title,
  closeLabel,
  cancelLabel,
  confirm,
  size,
  titleId: givenTitleId,
  bodyClassName,
  children,
}: {
  show?: boolean;
  onHide: () => void;
  testId: string;
  title: ReactNode;
  closeLabel: string;
  cancelLabel: ReactNode;
  confirm: ConfirmAction;
  size?: 'lg';
  /** The title's id when a page names it (default: a generated one). */
  titleId?: string;
  bodyClassName?: string;
  children: ReactNode;
}) {
  const generatedTitleId = useId();
  const titleId = givenTitleId ?? generatedTitleId;
  return (
    <Modal show={show} onHide={onHide} centered {...(size ? { size } : {})} aria-labelledby={titleId}>
      <div data-testid={testId}>
        <TitledBody titleId={titleId} title={title} closeLabel={closeLabel} bodyClassName={bodyClassName}>
          {children}
        </TitledBody>
        <Modal.Footer>
          <CancelConfirm cancelLabel={cancelLabel} onCancel={onHide} confirm={confirm} />
        </Modal.Footer>
      </div>
    </Modal>
  );
}

/**
 * A danger button that opens a dialog asking for a reason (void, reverse, unsign): the reason is
 * required, the server's refusal shows under the field, a success closes the dialog with a toast.
 * `texts` are already translated; `buttonTestId` names the button, `testIdPrefix` the dialog
 * (`-dialog`), its field (`-reason`) and its confirming button (`-confirm`).
 */
export function ReasonDialogButton({
  icon: Icon,
  texts,
  buttonTestId,
  testIdPrefix,
  maxLength,
  onConfirm,
}: {
  icon: LucideIcon;
  texts: {
    action: string;
    title: string;
    text: string;
    reason: string;
    confirm: string;
    close: string;
    cancel: string;
  };
  buttonTestId: string;
  testIdPrefix: string;
  maxLength: number;
  /** Sends the reason; resolves with the server's message code, throws its refusal. */
  onConfirm: (reason: string) => Promise<{ code?: string | undefined }>;
}) {
  const fieldId = useId();
  const [show, setShow] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setShow(false);
    setReason('');
    setError(null);
  };
  const confirm = async () => {
    if (!reason.trim()) {
      setError(fieldCodeText('required'));
      return;
    }
    setBusy(true);
    try {
      const answer = await onConfirm(reason);
      if (answer.code) toastSuccess(answer.code);
      close();
    } catch (failure) {
      const fields = fieldErrorsOf(failure);
      setError(fields.length ? fieldCodeText(fields[0]?.code) : errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="btn btn-outline-danger" onClick={() => setShow(true)} data-testid={buttonTestId}>
        <Icon size={16} aria-hidden="true" className="me-2" />
        {texts.action}
      </button>
      <DialogFrame
        show={show}
        onHide={close}
        testId={`${testIdPrefix}-dialog`}
        title={texts.title}
        closeLabel={texts.close}
        cancelLabel={texts.cancel}
        confirm={{
          label: texts.confirm,
          onClick: () => void confirm(),
          className: 'btn-danger',
          disabled: busy,
          busy,
          testId: `${testIdPrefix}-confirm`,
        }}
      >
        <p>{texts.text}</p>
        <label htmlFor={fieldId} className="form-label">
          {texts.reason}
          <span className="text-danger ms-1" aria-hidden="true">
            *
          </span>
        </label>
        <textarea
          id={fieldId}
          className={`form-control${error ? ' is-invalid' : ''}`}
          rows={3}
          value={reason}
          maxLength={maxLength}
          aria-describedby={error ? `${fieldId}-error` : undefined}
          onChange={(event) => setReason(event.target.value)}
          data-testid={`${testIdPrefix}-reason`}
        />
        <FieldFeedback id={`${fieldId}-error`} message={error} />
      </DialogFrame>
    </>
  );
}

/**
 * A modal dialog that is a form: the title, the fields, then (after what `footerStart` puts first)
 * Cancel and the submit button with its spinner. `ref` is the form's (its errors scroll into view).
 */
export function FormDialog({
  ref,
  onHide,
  onSubmit,
  testId,
  title,
  closeLabel,
  cancelLabel,
  submit,
  size,
  scrollable = false,
  bodyClassName,
  footerStart,
  afterForm,
  children,
}: {
  ref: RefObject<HTMLFormElement | null>;
  onHide: () => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  testId: string;
  title: ReactNode;
  closeLabel: string;
  cancelLabel: ReactNode;
  submit: { label: ReactNode; busy: boolean; disabled: boolean; testId: string };
  size?: 'lg';
  scrollable?: boolean;
  bodyClassName?: string;
  footerStart?: ReactNode;
  /** Rendered inside the modal after the form (a confirmation dialog it opens). */
  afterForm?: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Modal
      show
      onHide={onHide}
      centered
      {...(size ? { size } : {})}
      aria-labelledby={titleId}
      restoreFocus
      {...(scrollable ? { scrollable } : {})}
    >
      <form ref={ref} noValidate onSubmit={onSubmit} data-testid={testId}>
        <TitledBody titleId={titleId} title={title} closeLabel={closeLabel} bodyClassName={bodyClassName}>
          {children}
        </TitledBody>
        <Modal.Footer>
          {footerStart}
          <button type="button" className="btn btn-outline-secondary" onClick={onHide}>
            {cancelLabel}
          </button>
          <button type="submit" className="btn btn-primary" disabled={submit.disabled} data-testid={submit.testId}>
            <BusyIcon busy={submit.busy} icon={Save} />
            {submit.label}
          </button>
        </Modal.Footer>
      </form>
      {afterForm}
    </Modal>
  );
}
