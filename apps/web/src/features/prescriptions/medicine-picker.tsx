import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { BookCheck, PenLine } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox, ComboboxOptionText } from '../../components/combobox';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { itemDetails } from '../inventory/format';
import { useStockSearch } from '../medical-history/api';

/**
 * The medicine of a prescription line: typing searches the clinic's catalogue (only approved and
 * active medicines are offered); choosing one links it, and anything else typed is free text,
 * marked as such. The shared combobox: arrows and Enter pick, Enter never saves the prescription.
 */
export function MedicinePicker({
  id,
  value,
  medicationId,
  invalid,
  describedBy,
  onChange,
}: {
  id: string;
  value: string;
  medicationId: string;
  invalid: boolean;
  describedBy?: string;
  onChange: (next: { medicine: string; medicationId: string }) => void;
}) {
  const { t } = useTranslation('prescriptions');
  const [open, setOpen] = useState(false);
  const debounced = useDebouncedValue(value, 250);
  const query = useStockSearch('medication', debounced, open && debounced.trim().length > 0);
  const results = query.data?.data ?? [];
  return (
    <div className="item-search" data-testid="medicine-picker">
      <Combobox<InventoryItem>
        id={id}
        value={value}
        onInputChange={(text) => onChange({ medicine: text, medicationId: '' })}
        open={open}
        onOpenChange={setOpen}
        items={results}
        itemKey={(item) => item.id}
        itemName={(item) => item.name}
        renderItem={(item) => (
          <ComboboxOptionText
            name={item.name}
            detail={[itemDetails(item), item.presentation].filter(Boolean).join(' · ') || t('form.catalogueItem')}
          />
        )}
        onPick={(item) => onChange({ medicine: item.name, medicationId: item.id })}
        listLabel={t('form.catalogue')}
        pending={query.isPending || debounced.trim() === ''}
        busy={query.isFetching}
        pendingText={t('form.searching')}
        emptyText={t('form.notInCatalogue')}
        emptyTestId="medicine-no-results"
        placeholder={t('form.medicinePlaceholder')}
        invalid={invalid}
        describedBy={describedBy}
        inputTestId="line-medicine"
        optionTestId="medicine-option"
      />
      <div className="mt-1 small" data-testid="line-source">
        {medicationId ? (
          <span className="badge text-bg-success" data-testid="line-catalogue">
            <BookCheck size={12} aria-hidden="true" className="me-1" />
            {t('form.fromCatalogue')}
          </span>
        ) : value.trim() ? (
          <span className="badge text-bg-warning" data-testid="line-free-text">
            <PenLine size={12} aria-hidden="true" className="me-1" />
            {t('form.freeText')}
          </span>
        ) : null}
      </div>
    </div>
  );
}
