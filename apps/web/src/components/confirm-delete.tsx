import { Trash2 } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../lib/api-errors';
import { toastSuccess } from '../lib/api-toast';
import { BusyIcon } from './busy-icon';
import { FormAlert } from './form-feedback';

/*
 * The confirmation before deleting something: a modal dialog (Escape or Cancel closes it, the
 * focus starts inside it and returns to the button that opened it), the problem of a failed
 * attempt, and a danger button that shows a spinner while the deletion runs.
 */
export function ConfirmDelete({
  show,
  title,
  onCancel,
  onConfirm,
  pending = false,
  problem,
  confirmLabel,
  testId = 'confirm-delete',
  children,
}: {
  show: boolean;
  title: ReactNode;
  onCancel: () => void;
  onConfirm: () => void;
  pending?: boolean;
  /** Why the last attempt failed (shown above the text). */
  problem?: string | null;
  /** Default: common:confirmDelete.confirm ("Eliminar"). */
  confirmLabel?: ReactNode;
  /** `data-testid` of the dialog (its error is `delete-error`, its button `delete-confirm`). */
  testId?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('common');
  const titleId = useId();
  return (
    <Modal show={show} onHide={onCancel} centered aria-labelledby={titleId} restoreFocus>
      <div data-testid={testId}>
        <Modal.Header closeButton closeLabel={t('close')}>
          <Modal.Title id={titleId} as="h2" className="h5">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {problem ? <FormAlert testId="delete-error">{problem}</FormAlert> : null}
          {children}
        </Modal.Body>
        <Modal.Footer>
          <button type="button" className="btn btn-outline-secondary" onClick={onCancel}>
            {t('confirmDelete.cancel')}
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={pending}
            onClick={onConfirm}
            data-testid="delete-confirm"
          >
            <BusyIcon busy={pending} icon={Trash2} />
            {confirmLabel ?? t('confirmDelete.confirm')}
          </button>
        </Modal.Footer>
      </div>
    </Modal>
  );
}

/**
 * A deletion behind ConfirmDelete: `open` shows the dialog, `dialog` is its state for
 * `<ConfirmDelete {...dialog}>`. A success toasts and then runs `after` (or closes the dialog); a
 * failure stays in the dialog as its problem.
 */
export function useConfirmDelete(
  remove: { mutateAsync: () => Promise<{ code: string }>; isPending: boolean },
  after?: () => Promise<void>,
) {
  const [show, setShow] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const confirm = async () => {
    try {
      const answer = await remove.mutateAsync();
      toastSuccess(answer.code);
      if (after) await after();
      else setShow(false);
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };
  return {
    open: () => setShow(true),
    dialog: {
      show,
      onCancel: () => setShow(false),
      onConfirm: () => void confirm(),
      pending: remove.isPending,
      problem,
    },
  };
}

/**
 * A table row's small trash button and its confirmation (`useConfirmDelete`): `label` names the
 * button for screen readers (e.g. "Eliminar: Sillón 1"), `title` and `children` are the dialog's.
 */
export function DeleteRowButton({
  remove,
  label,
  title,
  testId,
  children,
}: {
  remove: Parameters<typeof useConfirmDelete>[0];
  label: string;
  title: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  const deletion = useConfirmDelete(remove);
  return (
    <>
      <button
        type="button"
        className="btn btn-sm btn-outline-danger"
        onClick={deletion.open}
        aria-label={label}
        data-testid={testId}
      >
        <Trash2 size={14} aria-hidden="true" />
      </button>
      <ConfirmDelete {...deletion.dialog} title={title}>
        {children}
      </ConfirmDelete>
    </>
  );
}
