import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox, ComboboxOptionText } from '../../components/combobox';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { itemDetails, useNumberFormat } from '../inventory/format';
import { useStockSearch } from './api';

export interface PickedItem {
  itemId: string;
  name: string;
  quantity: string;
  /** Stock when it was picked (unknown for an item already saved on the attendance). */
  available: number | null;
}

/**
 * Search the clinic's supplies (active) or medicines (approved and active) as you type and add
 * one to the list, with its stock in sight. The shared combobox: the list opens on focus, arrows
 * move, Enter (or a click) adds the highlighted item, and Enter never saves the attendance.
 */
export function ItemSearch({
  kind,
  exclude,
  onPick,
}: {
  kind: 'supply' | 'medication';
  exclude: string[];
  onPick: (item: PickedItem) => void;
}) {
  const { t } = useTranslation('clinical');
  const id = useId();
  const number = useNumberFormat();
  const [q, setQ] = useState('');
  const [open, setOpen] = useState(false);
  const debounced = useDebouncedValue(q, 250);
  const query = useStockSearch(kind, debounced, open);
  const results = (query.data?.data ?? []).filter((item) => !exclude.includes(item.id));
  const label = t(kind === 'supply' ? 'attendance.searchSupplies' : 'attendance.searchMedications');
  return (
    <div className="item-search" data-testid={`search-${kind}`}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <Combobox<InventoryItem>
        id={id}
        type="search"
        value={q}
        onInputChange={setQ}
        open={open}
        onOpenChange={setOpen}
        minLength={0}
        items={results}
        itemKey={(item) => item.id}
        itemName={(item) => item.name}
        renderItem={(item) => (
          <ComboboxOptionText
            name={item.name}
            detail={[item.sku, itemDetails(item)].filter(Boolean).join(' · ')}
            aside={
              <span
                className={`badge ${item.totalStock > 0 ? 'text-bg-light border' : 'text-bg-danger'}`}
                data-testid="item-stock"
              >
                {t('attendance.available', { count: item.totalStock, formatted: number(item.totalStock) })}
              </span>
            }
          />
        )}
        onPick={(item) => {
          onPick({ itemId: item.id, name: item.name, quantity: '1', available: item.totalStock });
          setQ('');
        }}
        listLabel={label}
        pending={query.isPending}
        busy={query.isFetching}
        pendingText={t('common.loading')}
        emptyText={t('attendance.noResults')}
        placeholder={label}
        optionTestId="item-add"
      />
    </div>
  );
}
