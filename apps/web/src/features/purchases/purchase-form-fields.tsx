import type { PurchaseDocumentType } from '@odontia/shared/commercial';
import { type PaymentMethod, paymentMethods } from '@odontia/shared/enums';
import { useTranslation } from 'react-i18next';
import { DateInput } from '../../components/date-input';
import type { useDocumentDraft } from '../commercial/document-draft';
import {
  ConditionField,
  CurrencyField,
  DocumentDateField,
  DueDateField,
  draftFieldBinder,
  PointOfServiceField,
} from '../commercial/document-form-parts';
import type { useDocumentForm } from '../commercial/use-document-form';
import { purchasesApi } from './api';
import type { LineState } from './purchase-line-editor';

type PurchaseDraftState = ReturnType<typeof useDocumentDraft<PurchaseDocumentType, LineState>>;

/**
 * A purchase's own fields: the provider's point of sale and number (an order's delivery date
 * instead: the clinic numbers its orders), date, due date, currency, condition and method.
 */
export function PurchaseOwnFields({
  form,
  state,
  order,
  documentNumber,
  onDocumentNumber,
  deliveryDate,
  onDeliveryDate,
}: {
  form: ReturnType<typeof useDocumentForm>;
  state: PurchaseDraftState;
  order: boolean;
  documentNumber: string;
  onDocumentNumber: (value: string) => void;
  deliveryDate: string;
  onDeliveryDate: (value: string) => void;
}) {
  const { t } = useTranslation('purchases');
  const { field, label, message } = form;
  const { draft, set } = state;
  const bind = draftFieldBinder(form, 'purchases', state);
  return (
    <>
      {order ? (
        <div className="col-md-6">
          {label('deliveryDate', t('fields.deliveryDate'))}
          <DateInput
            {...field('deliveryDate')}
            name="deliveryDate"
            value={deliveryDate}
            onChange={(event) => onDeliveryDate(event.target.value)}
            data-testid="purchase-delivery-date"
          />
          {message('deliveryDate') ?? <div className="form-text">{t('form.hints.orderNumber')}</div>}
        </div>
      ) : (
        <>
          <PointOfServiceField {...bind('pointOfService')} />
          <div className="col-6 col-md-3">
            {label('documentNumber', t('fields.documentNumber'), true)}
            <input
              {...field('documentNumber')}
              value={documentNumber}
              onChange={(event) => onDocumentNumber(event.target.value)}
              data-testid="purchase-number"
            />
            {message('documentNumber')}
          </div>
        </>
      )}
      <DocumentDateField {...bind('date')} />
      <div className="col-6 col-md-3">
        <DueDateField {...bind('dueDate')} />
      </div>
      <CurrencyField {...bind('currency')} className="col-6 col-md-4" />
      <ConditionField {...bind('conditionSale')} className="col-6 col-md-4" />
      <div className="col-md-4">
        {label('paymentMethod', t('fields.paymentMethod'))}
        <select
          {...field('paymentMethod')}
          className="form-select"
          value={draft.paymentMethod}
          onChange={(event) => set('paymentMethod')(event.target.value as PaymentMethod | '')}
        >
          <option value="">{t('form.noMethod')}</option>
          {paymentMethods.map((value) => (
            <option key={value} value={value}>
              {t(`methods.${value}`)}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

/** A known provider SKU fills the line's catalogue item (and its last cost when no price is typed). */
export function skuLookUp(providerId: string | null, setLines: PurchaseDraftState['setLines']) {
  return async (line: LineState) => {
    const sku = line.skuProvider.trim();
    if (!providerId || !sku || line.itemId) return;
    try {
      const answer = await purchasesApi.providerSku({ query: { providerId, sku } });
      if (!answer.data) return;
      const match = answer.data;
      setLines((current) =>
        current.map((row) =>
          row.key === line.key && !row.itemId
            ? {
                ...row,
                itemId: match.itemId,
                itemName: match.itemName,
                description: row.description.trim() ? row.description : match.itemName,
                unitPrice: row.unitPrice.trim() ? row.unitPrice : (match.lastUnitCost ?? ''),
              }
            : row,
        ),
      );
    } catch {
      // The SKU memory is a convenience: a failed look-up leaves the line as typed.
    }
  };
}
