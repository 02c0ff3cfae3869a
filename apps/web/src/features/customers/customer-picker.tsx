import type { CustomerLookupItem } from '@odontia/shared/schemas/customers';
import { useTranslation } from 'react-i18next';
import { ComboboxOptionText } from '../../components/combobox';
import { useCurrencyFormat } from '../commercial/money-format';
import { PartyPicker, type PartyPickerProps } from '../commercial/party-picker';
import { useCustomerLookup } from './api';

/**
 * Who a sale or a collection bills (issue 18): a patient, a company or an insurer, searched as you
 * type (GET /api/customers/lookup). Each option says what kind it is and what the customer owes
 * or has on account, so the front desk sees it before billing. `onPick` gets the item: send its
 * `customerId`, or its `patientId` when the patient was never billed (`customerId` null).
 */
export function CustomerPicker(props: PartyPickerProps<CustomerLookupItem>) {
  const { t } = useTranslation('customerPicker');
  const money = useCurrencyFormat();
  const detailOf = (customer: CustomerLookupItem) =>
    [
      t(`kinds.${customer.kind}`),
      customer.detail,
      customer.active ? null : t('inactive'),
      Number(customer.balance) > 0 ? t('owes', { amount: money(customer.balance) }) : null,
      Number(customer.onAccount) > 0 ? t('onAccount', { amount: money(customer.onAccount) }) : null,
    ]
      .filter(Boolean)
      .join(' · ');
  return (
    <PartyPicker<CustomerLookupItem>
      {...props}
      useSearch={useCustomerLookup}
      itemKey={(customer) => customer.customerId ?? `patient:${customer.patientId}`}
      itemName={(customer) => customer.name}
      renderItem={(customer) => <ComboboxOptionText name={customer.name} detail={detailOf(customer)} />}
      texts={{
        list: t('list'),
        searching: t('searching'),
        unavailable: t('unavailable'),
        none: t('none'),
        placeholder: t('placeholder'),
      }}
      testIdPrefix="customer"
    />
  );
}
