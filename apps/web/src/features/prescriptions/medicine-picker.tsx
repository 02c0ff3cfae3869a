import { BookCheck, PenLine } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { itemDetails } from '../inventory/format';
import { useStockSearch } from '../medical-history/api';

/**
 * The medicine of a prescription line: typing searches the clinic's catalogue (only approved and
 * active medicines are offered); choosing one links it, and anything else typed is free text,
 * marked as such.
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
  const listId = useId();
  const [open, setOpen] = useState(false);
  const debounced = useDebouncedValue(value, 250);
  const query = useStockSearch('medication', debounced, open && debounced.trim().length > 0);
  const results = query.data?.data ?? [];
  const showList = open && value.trim().length > 0;
  return (
    <div className="item-search" data-testid="medicine-picker">
      <input
        id={id}
        type="text"
        role="combobox"
        aria-expanded={showList}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        className={`form-control${invalid ? ' is-invalid' : ''}`}
        value={value}
        autoComplete="off"
        placeholder={t('form.medicinePlaceholder')}
        data-testid="line-medicine"
        onChange={(event) => {
          onChange({ medicine: event.target.value, medicationId: '' });
          setOpen(true);
        }}
        onBlur={() => window.setTimeout(() => setOpen(false), 150)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
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
      {showList ? (
        <ul id={listId} className="item-search-results list-group" aria-label={t('form.catalogue')}>
          {query.isPending ? (
            <li className="list-group-item text-body-secondary small">{t('form.searching')}</li>
          ) : results.length === 0 ? (
            <li className="list-group-item text-body-secondary small" data-testid="medicine-no-results">
              {t('form.notInCatalogue')}
            </li>
          ) : (
            results.map((item) => (
              <li key={item.id} className="list-group-item p-0">
                <button
                  type="button"
                  className="btn btn-link text-start text-body w-100 px-3 py-2 text-decoration-none"
                  data-testid="medicine-option"
                  data-name={item.name}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => {
                    onChange({ medicine: item.name, medicationId: item.id });
                    setOpen(false);
                  }}
                >
                  <span className="d-block fw-semibold text-truncate">{item.name}</span>
                  <span className="d-block small text-body-secondary text-truncate">
                    {[itemDetails(item), item.presentation].filter(Boolean).join(' · ') || t('form.catalogueItem')}
                  </span>
                </button>
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}
