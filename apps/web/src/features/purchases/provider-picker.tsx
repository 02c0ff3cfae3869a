import type { Provider } from '@odontia/shared/schemas/providers';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox, ComboboxOptionText } from '../../components/combobox';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useProviderSearch } from './api';

/** A provider of the clinic, searched as you type (GET /api/providers?q=, active ones). */
export function ProviderPicker({
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
  onPick: (provider: Provider) => void;
  invalid?: boolean;
  describedBy?: string | undefined;
  ariaLabel?: string;
  placeholder?: string;
}) {
  const { t } = useTranslation('purchases');
  const [open, setOpen] = useState(false);
  const debounced = useDebouncedValue(value, 250);
  const query = useProviderSearch(debounced.trim(), open);
  return (
    <Combobox<Provider>
      id={id}
      value={value}
      onInputChange={onText}
      open={open}
      onOpenChange={setOpen}
      items={query.data?.data ?? []}
      itemKey={(provider) => provider.id}
      itemName={(provider) => provider.fantasyName}
      renderItem={(provider) => (
        <ComboboxOptionText
          name={provider.fantasyName}
          detail={[provider.bussinesName, provider.nif].filter(Boolean).join(' · ')}
        />
      )}
      onPick={onPick}
      listLabel={t('form.providers')}
      pending={query.isPending}
      busy={query.isFetching}
      pendingText={t('form.searching')}
      emptyText={query.isError ? t('form.providersUnavailable') : t('form.noProviders')}
      minLength={0}
      placeholder={placeholder ?? t('form.providerPlaceholder')}
      invalid={invalid}
      describedBy={describedBy}
      {...(ariaLabel ? { ariaLabel } : {})}
      inputTestId="provider-input"
      optionTestId="provider-option"
    />
  );
}
