import type { Provider } from '@odontia/shared/schemas/providers';
import { useTranslation } from 'react-i18next';
import { ComboboxOptionText } from '../../components/combobox';
import { PartyPicker, type PartyPickerProps } from '../commercial/party-picker';
import { useProviderSearch } from './api';

/** A provider of the clinic, searched as you type (GET /api/providers?q=, active ones). */
export function ProviderPicker(props: PartyPickerProps<Provider>) {
  const { t } = useTranslation('purchases');
  return (
    <PartyPicker<Provider>
      {...props}
      useSearch={useProviderSearch}
      itemKey={(provider) => provider.id}
      itemName={(provider) => provider.fantasyName}
      renderItem={(provider) => (
        <ComboboxOptionText
          name={provider.fantasyName}
          detail={[provider.bussinesName, provider.nif].filter(Boolean).join(' · ')}
        />
      )}
      texts={{
        list: t('form.providers'),
        searching: t('form.searching'),
        unavailable: t('form.providersUnavailable'),
        none: t('form.noProviders'),
        placeholder: t('form.providerPlaceholder'),
      }}
      testIdPrefix="provider"
    />
  );
}
