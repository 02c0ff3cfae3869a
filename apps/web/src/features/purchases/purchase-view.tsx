import type { Purchase } from '@odontia/shared/schemas/commercial-documents';
import { Banknote, FileMinus, FilePlus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCalendarDateFormat, useInstantFormat } from '../../session/clinic-time';
import { DocumentActionLink } from '../commercial/document-actions';
import { DocumentView } from '../commercial/document-view';
import { type DocumentViewState, Fact, useDocumentViewState } from '../commercial/document-view-state';
import { documentNumberText } from '../commercial/money-format';
import { itemPath } from '../inventory/api';
import { PurchaseLabCases } from '../lab-cases/lab-cases';
import { OrderActions, OrderReceptionPanel } from './order-panel';
import { purchaseSide } from './purchase-side';

/** `/purchases/view/:purchaseId`: the document as typed and registered, with what it is linked to. */
export function PurchaseView({ purchase }: { purchase: Purchase }) {
  const { t } = useTranslation('purchases');
  const day = useCalendarDateFormat();
  const instant = useInstantFormat();
  const state = useDocumentViewState(purchase);
  const { draft, canWrite, money } = state;
  const moneyMoves = ['invoice', 'debit_note', 'credit_note'].includes(purchase.documentType);
  // Issue 35: a purchase order is the clinic's paper to its provider, not one the provider issued.
  const order = purchase.documentType === 'purchase_order';

  return (
    <DocumentView
      side={purchaseSide}
      document={purchase}
      state={state}
      title={order && draft ? t('order.unnumbered') : documentNumberText(purchase)}
      leading={order ? <OrderActions purchase={purchase} canWrite={canWrite} /> : null}
      trailing={<PurchaseFollowUps purchase={purchase} state={state} moneyMoves={moneyMoves} />}
      facts={
        <>
          <Fact label={t('fields.provider')}>{purchase.providerName ?? '—'}</Fact>
          <Fact label={t('fields.date')}>{day(purchase.date)}</Fact>
          {order ? (
            <Fact label={t('fields.deliveryDate')} testId="delivery-date">
              {purchase.deliveryDate ? day(purchase.deliveryDate) : '—'}
            </Fact>
          ) : (
            <Fact label={t('fields.dueDate')}>{day(purchase.dueDate)}</Fact>
          )}
          <Fact label={t('fields.currency')}>{t(`currencies.${purchase.currency}`)}</Fact>
          <Fact label={t('fields.conditionSale')}>
            {purchase.conditionSale ? t(`conditions.${purchase.conditionSale}`) : '—'}
          </Fact>
          <Fact label={t('fields.paymentMethod')}>
            {purchase.paymentMethod ? t(`methods.${purchase.paymentMethod}`) : '—'}
          </Fact>
          {purchase.documentType === 'credit_note' ? (
            <Fact label={t('fields.returnsGoods')}>{purchase.returnsGoods ? t('view.yes') : t('view.no')}</Fact>
          ) : null}
          {!draft && !order ? (
            <Fact label={t('view.stock')} testId="moved-stock">
              {purchase.movedStock ? t('view.movedStock') : t('view.noStock')}
            </Fact>
          ) : null}
          {!draft ? (
            <Fact label={t('view.registered')}>
              {instant(purchase.registeredAt)} {purchase.registeredByName ? `· ${purchase.registeredByName}` : ''}
            </Fact>
          ) : null}
          {purchase.notes ? (
            <Fact label={t('fields.notes')} wide>
              {purchase.notes}
            </Fact>
          ) : null}
        </>
      }
      panels={
        <>
          <OrderReceptionPanel purchase={purchase} />
          {/* Issue 41: the dental lab cases this invoice covers. */}
          <PurchaseLabCases purchaseId={purchase.id} />
        </>
      }
      parties={{
        issuer: order ? t('order.providerParty') : t('view.issuer'),
        receiver: order ? t('order.clinicParty') : t('view.receiver'),
        pending: t('view.copiedOnRegister'),
        withPhone: true,
      }}
      lines={{
        withSubtotal: true,
        concept: {
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
                {t('view.unitCost', { cost: money((Number(line.subtotal) / Number(line.quantity)).toFixed(2)) })}
              </div>
            </>
          ),
        },
        own: { header: t('fields.skuProvider'), cell: (line) => line.skuProvider ?? '—' },
      }}
      relatedText={
        purchase.relatedDocument?.documentType === 'purchase_order'
          ? t('view.receives')
          : purchase.documentType === 'invoice'
            ? t('view.bills')
            : t('view.corrects')
      }
      moneyMoves={moneyMoves}
      deleteText={t('view.deleteText', { number: documentNumberText(purchase) })}
    />
  );
}

/**
 * What follows a registered purchase: its credit and debit notes (typed from the provider's paper,
 * so they open the form), billing a delivery note, and paying the provider.
 */
function PurchaseFollowUps({
  purchase,
  state,
  moneyMoves,
}: {
  purchase: Purchase;
  state: DocumentViewState;
  moneyMoves: boolean;
}) {
  const { t } = useTranslation('purchases');
  const { draft, canWrite } = state;
  if (draft || !canWrite) return null;
  const correctable = purchase.documentType === 'invoice' || purchase.documentType === 'debit_note';
  const billable =
    purchase.documentType === 'delivery_note' &&
    !purchase.relatedFrom.some((document) => document.documentType === 'invoice');
  const from = `/purchases/create?from=${purchase.id}`;
  return (
    <>
      {correctable ? (
        <>
          <DocumentActionLink to={`${from}&type=credit_note`} icon={FileMinus} testId="view-credit-note">
            {t('view.creditNote')}
          </DocumentActionLink>
          <DocumentActionLink to={`${from}&type=debit_note`} icon={FilePlus}>
            {t('view.debitNote')}
          </DocumentActionLink>
        </>
      ) : null}
      {billable ? (
        <DocumentActionLink to={`${from}&type=invoice`} icon={FilePlus} testId="view-bill">
          {t('view.bill')}
        </DocumentActionLink>
      ) : null}
      {moneyMoves && purchase.providerId ? (
        <DocumentActionLink to={`/payments/create?providerId=${purchase.providerId}`} icon={Banknote}>
          {t('view.pay')}
        </DocumentActionLink>
      ) : null}
    </>
  );
}
