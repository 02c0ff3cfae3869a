import { can } from '@odontia/shared/permissions';
import type { DocumentRef, Purchase } from '@odontia/shared/schemas/commercial-documents';
import { Banknote, FileMinus, FilePlus, Pencil, Stamp, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { ConfirmDelete } from '../../components/confirm-delete';
import { FormAlert } from '../../components/form-feedback';
import { apiErrorText, toastApiError, toastSuccess } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useCalendarDateFormat, useInstantFormat } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import {
  DocumentAmountsView,
  DocumentLinesTable,
  DocumentLinks,
  PartySnapshotCard,
} from '../commercial/document-view-parts';
import { itemPath } from '../inventory/api';
import { purchasePath, useDeletePurchase, useRegisterPurchase } from './api';
import { StatusBadge, TypeBadge } from './badges';
import { documentNumberText, useDocumentMoney } from './format';
import { OrderActions, OrderReceptionPanel } from './order-panel';

function RefLink({ document }: { document: DocumentRef }) {
  const { t } = useTranslation('purchases');
  const day = useCalendarDateFormat();
  return (
    <Link to={purchasePath(document.id)}>
      {t(`types.${document.documentType}`)} {documentNumberText(document)} · {day(document.date)}
    </Link>
  );
}

/** `/purchases/view/:purchaseId`: the document as typed and registered, with what it is linked to. */
export function PurchaseView({ purchase }: { purchase: Purchase }) {
  const { t } = useTranslation('purchases');
  const navigate = useNavigate();
  const format = useDocumentMoney();
  const money = (amount: string | null | undefined) => format(amount, purchase.currency);
  const day = useCalendarDateFormat();
  const instant = useInstantFormat();
  const user = useSessionUser();
  const canWrite = user ? can(user.level, 'commercial.write') : false;
  const canDelete = user ? can(user.level, 'commercial.delete') : false;
  const register = useRegisterPurchase(purchase.id);
  const remove = useDeletePurchase(purchase.id);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const draft = purchase.status === 'draft';
  const correctable = !draft && (purchase.documentType === 'invoice' || purchase.documentType === 'debit_note');
  const billable =
    !draft &&
    purchase.documentType === 'delivery_note' &&
    !purchase.relatedFrom.some((document) => document.documentType === 'invoice');
  const moneyMoves = ['invoice', 'debit_note', 'credit_note'].includes(purchase.documentType);
  // Issue 35: a purchase order is the clinic's paper to its provider, not one the provider issued.
  const order = purchase.documentType === 'purchase_order';

  const onRegister = async () => {
    setProblem(null);
    try {
      const answer = await register.mutateAsync(purchase.version);
      if (answer.code) toastSuccess(answer.code);
    } catch (error) {
      if (isApiError(error) && error.status === 409) setProblem(apiErrorText(error));
      else toastApiError(error);
    }
  };
  const onDelete = async () => {
    try {
      const answer = await remove.mutateAsync();
      toastSuccess(answer.code);
      void navigate('/purchases');
    } catch (error) {
      setConfirming(false);
      toastApiError(error);
    }
  };

  return (
    <div className="d-flex flex-column gap-3" data-testid="purchase-view" data-status={purchase.status}>
      {problem ? <FormAlert testId="purchase-problem">{problem}</FormAlert> : null}
      <section className="card">
        <div className="card-header d-flex flex-wrap gap-2 align-items-center justify-content-between">
          <div className="d-flex flex-wrap gap-2 align-items-center">
            <h2 className="h5 mb-0" data-testid="purchase-number-view">
              {order && draft ? t('order.unnumbered') : documentNumberText(purchase)}
            </h2>
            <TypeBadge type={purchase.documentType} />
            <StatusBadge status={purchase.status} />
          </div>
          <div className="d-flex flex-wrap gap-2">
            {order ? <OrderActions purchase={purchase} canWrite={canWrite} /> : null}
            {draft && canWrite ? (
              <>
                <Link to={`/purchases/create?edit=${purchase.id}`} className="btn btn-outline-secondary btn-sm">
                  <Pencil size={14} aria-hidden="true" className="me-1" />
                  {t('view.edit')}
                </Link>
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  onClick={() => void onRegister()}
                  disabled={register.isPending}
                  data-testid="view-register"
                >
                  <BusyIcon busy={register.isPending} icon={Stamp} />
                  {t('form.register')}
                </button>
              </>
            ) : null}
            {draft && canDelete ? (
              <button
                type="button"
                className="btn btn-outline-danger btn-sm"
                onClick={() => setConfirming(true)}
                data-testid="view-delete"
              >
                <Trash2 size={14} aria-hidden="true" className="me-1" />
                {t('view.delete')}
              </button>
            ) : null}
            {correctable && canWrite ? (
              <>
                <Link
                  to={`/purchases/create?from=${purchase.id}&type=credit_note`}
                  className="btn btn-outline-secondary btn-sm"
                  data-testid="view-credit-note"
                >
                  <FileMinus size={14} aria-hidden="true" className="me-1" />
                  {t('view.creditNote')}
                </Link>
                <Link
                  to={`/purchases/create?from=${purchase.id}&type=debit_note`}
                  className="btn btn-outline-secondary btn-sm"
                >
                  <FilePlus size={14} aria-hidden="true" className="me-1" />
                  {t('view.debitNote')}
                </Link>
              </>
            ) : null}
            {billable && canWrite ? (
              <Link
                to={`/purchases/create?from=${purchase.id}&type=invoice`}
                className="btn btn-outline-secondary btn-sm"
                data-testid="view-bill"
              >
                <FilePlus size={14} aria-hidden="true" className="me-1" />
                {t('view.bill')}
              </Link>
            ) : null}
            {!draft && moneyMoves && purchase.providerId && canWrite ? (
              <Link
                to={`/payments/create?providerId=${purchase.providerId}`}
                className="btn btn-outline-secondary btn-sm"
              >
                <Banknote size={14} aria-hidden="true" className="me-1" />
                {t('view.pay')}
              </Link>
            ) : null}
          </div>
        </div>
        <div className="card-body">
          <dl className="row mb-0">
            <dt className="col-sm-4 col-lg-2">{t('fields.provider')}</dt>
            <dd className="col-sm-8 col-lg-4">{purchase.providerName ?? '—'}</dd>
            <dt className="col-sm-4 col-lg-2">{t('fields.date')}</dt>
            <dd className="col-sm-8 col-lg-4">{day(purchase.date)}</dd>
            {order ? (
              <>
                <dt className="col-sm-4 col-lg-2">{t('fields.deliveryDate')}</dt>
                <dd className="col-sm-8 col-lg-4" data-testid="delivery-date">
                  {purchase.deliveryDate ? day(purchase.deliveryDate) : '—'}
                </dd>
              </>
            ) : (
              <>
                <dt className="col-sm-4 col-lg-2">{t('fields.dueDate')}</dt>
                <dd className="col-sm-8 col-lg-4">{day(purchase.dueDate)}</dd>
              </>
            )}
            <dt className="col-sm-4 col-lg-2">{t('fields.currency')}</dt>
            <dd className="col-sm-8 col-lg-4">{t(`currencies.${purchase.currency}`)}</dd>
            <dt className="col-sm-4 col-lg-2">{t('fields.conditionSale')}</dt>
            <dd className="col-sm-8 col-lg-4">
              {purchase.conditionSale ? t(`conditions.${purchase.conditionSale}`) : '—'}
            </dd>
            <dt className="col-sm-4 col-lg-2">{t('fields.paymentMethod')}</dt>
            <dd className="col-sm-8 col-lg-4">
              {purchase.paymentMethod ? t(`methods.${purchase.paymentMethod}`) : '—'}
            </dd>
            {purchase.documentType === 'credit_note' ? (
              <>
                <dt className="col-sm-4 col-lg-2">{t('fields.returnsGoods')}</dt>
                <dd className="col-sm-8 col-lg-4">{purchase.returnsGoods ? t('view.yes') : t('view.no')}</dd>
              </>
            ) : null}
            {!draft && !order ? (
              <>
                <dt className="col-sm-4 col-lg-2">{t('view.stock')}</dt>
                <dd className="col-sm-8 col-lg-4" data-testid="moved-stock">
                  {purchase.movedStock ? t('view.movedStock') : t('view.noStock')}
                </dd>
              </>
            ) : null}
            {!draft ? (
              <>
                <dt className="col-sm-4 col-lg-2">{t('view.registered')}</dt>
                <dd className="col-sm-8 col-lg-4">
                  {instant(purchase.registeredAt)} {purchase.registeredByName ? `· ${purchase.registeredByName}` : ''}
                </dd>
              </>
            ) : null}
            {purchase.notes ? (
              <>
                <dt className="col-sm-4 col-lg-2">{t('fields.notes')}</dt>
                <dd className="col-sm-8 col-lg-10" style={{ whiteSpace: 'pre-wrap' }}>
                  {purchase.notes}
                </dd>
              </>
            ) : null}
          </dl>
        </div>
      </section>

      <OrderReceptionPanel purchase={purchase} />

      <section className="card">
        <div className="card-header fw-semibold">{t('view.parties')}</div>
        <div className="card-body row g-3">
          <PartySnapshotCard
            title={order ? t('order.providerParty') : t('view.issuer')}
            party={draft ? null : purchase.issuerSnapshot}
            testId="issuer"
            pendingText={t('view.copiedOnRegister')}
            withPhone
          />
          <PartySnapshotCard
            title={order ? t('order.clinicParty') : t('view.receiver')}
            party={draft ? null : purchase.counterpartySnapshot}
            testId="receiver"
            pendingText={t('view.copiedOnRegister')}
            withPhone
          />
        </div>
      </section>

      <section className="card">
        <div className="card-header fw-semibold">{t('form.sections.lines')}</div>
        <DocumentLinesTable
          namespace="purchases"
          testId="purchase-lines"
          lines={purchase.lines}
          money={money}
          withSubtotal
          concept={{
            header: t('fields.item'),
            cell: (line) => (
              <>
                {line.itemId && line.itemKind ? (
                  <Link to={itemPath(line.itemKind, line.itemId)}>{line.itemName ?? line.description}</Link>
                ) : (
                  line.description
                )}
                {line.itemId && line.itemName && line.itemName !== line.description ? (
                  <div className="small text-body-secondary">{line.description}</div>
                ) : null}
                <div className="small text-body-secondary">
                  {t('view.unitCost', {
                    cost: money((Number(line.subtotal) / Number(line.quantity)).toFixed(2)),
                  })}
                </div>
              </>
            ),
          }}
          own={{ header: t('fields.skuProvider'), cell: (line) => line.skuProvider ?? '—' }}
        />
        <DocumentAmountsView namespace="purchases" document={purchase} money={money} showOpen={!draft && moneyMoves} />
      </section>

      <DocumentLinks
        namespace="purchases"
        document={purchase}
        relatedText={
          purchase.relatedDocument?.documentType === 'purchase_order'
            ? t('view.receives')
            : purchase.documentType === 'invoice'
              ? t('view.bills')
              : t('view.corrects')
        }
        refLink={(document) => <RefLink document={document} />}
        money={money}
        movement={(allocation) => ({
          to: `/payments/view/${allocation.paymentId}`,
          text: t('view.payment', { number: allocation.paymentNumber ?? '' }),
        })}
        creditPath={purchasePath}
      />

      <ConfirmDelete
        show={confirming}
        title={t('view.deleteTitle')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void onDelete()}
        pending={remove.isPending}
      >
        {t('view.deleteText', { number: documentNumberText(purchase) })}
      </ConfirmDelete>
    </div>
  );
}
