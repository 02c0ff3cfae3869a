import { Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
 * one to the list, with its stock in sight.
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
      <input
        id={id}
        type="search"
        className="form-control"
        placeholder={label}
        value={q}
        autoComplete="off"
        onChange={(event) => {
          setQ(event.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
      />
      {open ? (
        <ul className="item-search-results list-group" aria-label={label}>
          {query.isPending ? (
            <li className="list-group-item text-body-secondary small">{t('common.loading')}</li>
          ) : results.length === 0 ? (
            <li className="list-group-item text-body-secondary small">{t('attendance.noResults')}</li>
          ) : (
            results.map((item) => (
              <li key={item.id} className="list-group-item d-flex align-items-center gap-2">
                <div className="min-w-0 me-auto">
                  <div className="fw-semibold text-truncate">{item.name}</div>
                  <div className="small text-body-secondary text-truncate">
                    {[item.sku, itemDetails(item)].filter(Boolean).join(' · ')}
                  </div>
                </div>
                <span
                  className={`badge ${item.totalStock > 0 ? 'text-bg-light border' : 'text-bg-danger'}`}
                  data-testid="item-stock"
                >
                  {t('attendance.available', { count: item.totalStock, formatted: number(item.totalStock) })}
                </span>
                <button
                  type="button"
                  className="btn btn-sm btn-outline-primary"
                  data-testid="item-add"
                  data-name={item.name}
                  onClick={() => {
                    onPick({ itemId: item.id, name: item.name, quantity: '1', available: item.totalStock });
                    setQ('');
                    setOpen(false);
                  }}
                >
                  <Plus size={14} aria-hidden="true" className="me-1" />
                  {t('attendance.add')}
                </button>
              </li>
            ))
          )}
          <li className="list-group-item p-1 text-end">
            <button type="button" className="btn btn-sm btn-link" onClick={() => setOpen(false)}>
              <X size={14} aria-hidden="true" className="me-1" />
              {t('common.close')}
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
