import type { DocumentTotals } from '@odontia/shared/document-totals';
import type { Currency } from '@odontia/shared/enums';
import { Plus, Save, Stamp } from 'lucide-react';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BusyButton } from '../../components/busy-button';
import { BusyIcon } from '../../components/busy-icon';
import { fieldCodeText } from '../../components/form-field';
import type { DocumentNamespace } from './document-lines';
import { useDocumentMoney } from './money-format';

/** The lines' card: its title, "add a line", the lines' own message and the lines (`children`). */
export function DocumentLinesCard({
  namespace,
  onAdd,
  error,
  before,
  children,
}: {
  namespace: DocumentNamespace;
  onAdd: () => void;
  /** The message on the lines as a whole (none, too many). */
  error: string | undefined;
  /** What stands above the message (a sale's budget: the odontogram's treatments). */
  before?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation(namespace);
  return (
    <section className="card">
      <div className="card-header fw-semibold d-flex justify-content-between align-items-center">
        <span>{t('form.sections.lines')}</span>
        <button type="button" className="btn btn-sm btn-outline-primary" onClick={onAdd} data-testid="add-line">
          <Plus size={14} aria-hidden="true" className="me-1" />
          {t('form.addLine')}
        </button>
      </div>
      <div className="card-body d-flex flex-column gap-3">
        {before}
        {error ? (
          <div className="text-danger small" role="alert">
            {fieldCodeText(error)}
          </div>
        ) : null}
        {children}
      </div>
    </section>
  );
}

/** The totals as the lines add up (subtotals, VAT by rate, total) and the form's buttons (`children`). */
export function DocumentTotalsCard({
  namespace,
  totals,
  currency,
  testId,
  className = '',
  children,
}: {
  namespace: DocumentNamespace;
  totals: DocumentTotals;
  currency: Currency;
  testId: string;
  className?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation(namespace);
  const money = useDocumentMoney();
  const row = (text: string, amount: string) => (
    <>
      <dt className="col-7 col-md-9 text-md-end fw-normal">{text}</dt>
      <dd className="col-5 col-md-3 text-end mb-1">{money(amount, currency)}</dd>
    </>
  );
  return (
    <section className="card">
      <div className="card-body">
        <dl className={`row mb-0${className ? ` ${className}` : ''}`} data-testid={testId}>
          {row(t('fields.subtotal1'), totals.subtotal1)}
          {row(t('fields.discountTotal'), totals.discountTotal)}
          {row(t('fields.subtotal2'), totals.subtotal2)}
          {totals.vatBreakdown.map((share) => (
            // A fragment, not a wrapper: the row's gutters apply to direct children only.
            <Fragment key={share.rate}>
              {row(t('form.vatAt', { rate: Number(share.rate).toString() }), share.vat)}
            </Fragment>
          ))}
          {/* Half and half on phones: the total, in a larger font, on one line. */}
          <dt className="col-6 col-md-9 text-md-end">{t('fields.total')}</dt>
          <dd className="col-6 col-md-3 text-end text-nowrap mb-0 fw-bold fs-5" data-testid="form-total">
            {money(totals.total, currency)}
          </dd>
        </dl>
      </div>
      <div className="card-footer d-flex flex-wrap gap-2 justify-content-end">{children}</div>
    </section>
  );
}

/**
 * The form's buttons: back without saving, save as a draft, and the step that makes the document
 * count (`final`: a purchase's "register", a sale's "issue"; none when the user may not take it).
 */
export function DocumentFormActions({
  namespace,
  cancelTo,
  pending,
  finalising,
  final,
}: {
  namespace: DocumentNamespace;
  cancelTo: string;
  pending: boolean;
  /** Whether the save under way is the final step (its button spins, not the draft's). */
  finalising: boolean;
  final: { text: string; testId: string; onClick: () => void } | null;
}) {
  const { t } = useTranslation(namespace);
  return (
    <>
      <Link to={cancelTo} className="btn btn-outline-secondary">
        {t('form.cancel')}
      </Link>
      <button type="submit" className="btn btn-outline-primary" disabled={pending} data-testid="save-draft">
        <BusyIcon busy={pending && !finalising} icon={Save} />
        {t('form.saveDraft')}
      </button>
      {final ? (
        <BusyButton
          className="btn btn-primary"
          icon={Stamp}
          busy={pending && finalising}
          disabled={pending}
          onClick={final.onClick}
          testId={final.testId}
        >
          {final.text}
        </BusyButton>
      ) : null}
    </>
  );
}
