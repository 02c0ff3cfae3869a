import type { SaleDocumentType } from '@odontia/shared/commercial';
import { type PaymentMethod, paymentMethods } from '@odontia/shared/enums';
import { useTranslation } from 'react-i18next';
import { RegisterField } from '../cash-registers/register-field';
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
import type { LineState } from './sale-line-editor';

type SaleForm = ReturnType<typeof useDocumentForm>;
type SaleDraftState = ReturnType<typeof useDocumentDraft<SaleDocumentType, LineState>>;

/**
 * A sale's own fields: point of sale, date, condition, then its due date or how it was collected,
 * currency; paid at once, the cash register that takes the money (issue 40, shown while one is open).
 */
export function SaleOwnFields({
  form,
  state,
  register,
}: {
  form: SaleForm;
  state: SaleDraftState;
  register: { value: string | undefined; onChange: (registerId: string) => void };
}) {
  const { t } = useTranslation('sales');
  const bind = draftFieldBinder(form, 'sales', state);
  return (
    <>
      <PointOfServiceField {...bind('pointOfService')} hint={t('form.hints.pointOfService')} />
      <DocumentDateField {...bind('date')} />
      <ConditionField {...bind('conditionSale')} className="col-6 col-md-3" testId="sale-condition" />
      <div className="col-6 col-md-3">
        {state.draft.conditionSale === 'current_account' ? (
          <DueDateField {...bind('dueDate')} />
        ) : (
          <SalePaymentMethod form={form} state={state} />
        )}
      </div>
      <CurrencyField {...bind('currency')} className="col-6 col-md-3" />
      {state.draft.conditionSale === 'current_account' ? null : (
        <RegisterField
          id="sale-registerId"
          value={register.value}
          onChange={register.onChange}
          error={form.errors.registerId}
        />
      )}
    </>
  );
}

/** Paid at once: cash, or a card (which one is asked); the method is what the sale collected. */
function SalePaymentMethod({ form, state }: { form: SaleForm; state: SaleDraftState }) {
  const { t } = useTranslation('sales');
  const { conditionSale } = state.draft;
  const cash = conditionSale === 'cash';
  return (
    <>
      {form.label('paymentMethod', t('fields.paymentMethod'), conditionSale === 'cards')}
      <select
        {...form.field('paymentMethod')}
        className={`form-select${form.errors.paymentMethod ? ' is-invalid' : ''}`}
        value={cash ? 'cash_payment' : state.draft.paymentMethod}
        disabled={cash}
        onChange={(event) => state.set('paymentMethod')(event.target.value as PaymentMethod | '')}
        data-testid="sale-method"
      >
        <option value="">{t('form.noMethod')}</option>
        {paymentMethods
          .filter((value) => (cash ? value === 'cash_payment' : ['credit_card', 'debit_card'].includes(value)))
          .map((value) => (
            <option key={value} value={value}>
              {t(`methods.${value}`)}
            </option>
          ))}
      </select>
      {form.message('paymentMethod') ?? <div className="form-text">{t('form.hints.collected')}</div>}
    </>
  );
}
