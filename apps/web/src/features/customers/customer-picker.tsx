import type { CustomerLookupItem } from '@odontia/shared/schemas/customers';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox, ComboboxOptionText } from '../../components/combobox';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useCurrencyFormat } from '../payments/format';
import { useCustomerLookup } from './api';

/**
 * Who a sale or a collection bills (issue 18): a patient, a company or an insurer, searched as you
 * type (GET /api/customers/lookup). Each option says what kind it is and what the customer owes
 * or has on account, so the front desk sees it before billing. `onPick` gets the item: send its
 * `customerId`, or its `patientId` when the patient was never billed (`customerId` null).
 */
export function CustomerPicker({
  id,
  value,
  onText,
  onPick,
  invalid = false,
  describedBy,
  ariaLabel,
  placeholder,
}: {
  id: string;
  value: string;
  onText: (text: string) => void;
  onPick: (customer: CustomerLookupItem) => void;
  invalid?: boolean;
  describedBy?: string | undefined;
  ariaLabel?: string;
  placeholder?: string;
}) {
  const { t } = useTranslation('customerPicker');
  const money = useCurrencyFormat();
  const [open, setOpen] = useState(false);
  const debounced = useDebouncedValue(value, 250);
  const query = useCustomerLookup(debounced.trim(), open);
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
    <Combobox<CustomerLookupItem>
      id={id}
      value={value}
      onInputChange={onText}
      open={open}
      onOpenChange={setOpen}
      items={query.data?.data ?? []}
      itemKey={(customer) => customer.customerId ?? `patient:${customer.patientId}`}
      itemName={(customer) => customer.name}
      renderItem={(customer) => <ComboboxOptionText name={customer.name} detail={detailOf(customer)} />}
      onPick={onPick}
      listLabel={t('list')}
      pending={query.isPending}
      busy={query.isFetching}
      pendingText={t('searching')}
      emptyText={query.isError ? t('unavailable') : t('none')}
      minLength={0}
      placeholder={placeholder ?? t('placeholder')}
      invalid={invalid}
      describedBy={describedBy}
      {...(ariaLabel ? { ariaLabel } : {})}
      inputTestId="customer-input"
      optionTestId="customer-option"
    />
  );
}
