import type { Purchase } from '@odontia/shared/schemas/commercial-documents';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Combobox, ComboboxOptionText } from '../../components/combobox';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { DocumentLineEditor, type DocumentLineProps, LineOrigin } from '../commercial/document-lines';
import { nextLineKey, trimZeros } from '../commercial/line-amounts';
import { useCatalogueSearch } from './api';

export interface LineState {
  key: string;
  itemId: string;
  itemName: string;
  description: string;
  skuProvider: string;
  quantity: string;
  unitPrice: string;
  discountRate: string;
  vatRate: string;
  /** The order line this line receives (issue 35): kept while the document receives that order. */
  sourceLineId: string;
}

export const newLine = (values: Partial<LineState> = {}): LineState => ({
  key: nextLineKey(),
  itemId: '',
  itemName: '',
  description: '',
  skuProvider: '',
  quantity: '1',
  unitPrice: '',
  discountRate: '0',
  vatRate: '21',
  sourceLineId: '',
  ...values,
});

export const linesOf = (purchase: Purchase, keepSources: boolean): LineState[] =>
  purchase.lines.map((line) =>
    newLine({
      itemId: line.itemId ?? '',
      itemName: line.itemName ?? '',
      description: line.description,
      skuProvider: line.skuProvider ?? '',
      quantity: trimZeros(line.quantity),
      unitPrice: line.unitPrice,
      discountRate: trimZeros(line.discountRate),
      vatRate: trimZeros(line.vatRate),
      sourceLineId: keepSources ? (line.sourceLineId ?? '') : '',
    }),
  );

/** A purchase's line: an item of the catalogue (or free text) and the provider's own code for it. */
export function PurchaseLineEditor({ onSkuBlur, ...props }: DocumentLineProps<LineState> & { onSkuBlur: () => void }) {
  const { line, errors, onChange } = props;
  const { t } = useTranslation('purchases');
  const [open, setOpen] = useState(false);
  const debounced = useDebouncedValue(line.description, 250);
  const search = useCatalogueSearch(debounced.trim(), open && debounced.trim().length > 0);
  return (
    <DocumentLineEditor
      {...props}
      namespace="purchases"
      testId="purchase-line"
      columns={{
        quantity: 'col-6 col-lg-1',
        unitPrice: 'col-6 col-lg-2',
        discountRate: 'col-3 col-lg-1',
        vatRate: 'col-3 col-lg-1',
      }}
      concept={({ id, label, message, path }) => (
        <>
          {label('description', t('fields.item'), true)}
          <Combobox<InventoryItem>
            id={`${id}-description`}
            value={line.description}
            onInputChange={(text) => onChange({ description: text, itemId: '', itemName: '' })}
            open={open}
            onOpenChange={setOpen}
            items={search.data ?? []}
            itemKey={(item) => item.id}
            itemName={(item) => item.name}
            renderItem={(item) => (
              <ComboboxOptionText
                name={item.name}
                detail={[t(`itemKinds.${item.kind}`), item.sku].filter(Boolean).join(' · ')}
              />
            )}
            onPick={(item) =>
              onChange({
                itemId: item.id,
                itemName: item.name,
                description: item.name,
                ...(line.unitPrice.trim() ? {} : { unitPrice: item.lastCost ?? item.costPrice }),
                vatRate: Number(item.taxRate).toString(),
              })
            }
            listLabel={t('form.catalogue')}
            pending={search.isPending || debounced.trim() === ''}
            busy={search.isFetching}
            pendingText={t('form.searching')}
            emptyText={t('form.notInCatalogue')}
            placeholder={t('form.itemPlaceholder')}
            invalid={Boolean(errors[path('description')])}
            describedBy={errors[path('description')] ? `${id}-description-error` : undefined}
            inputTestId="line-item"
            optionTestId="line-item-option"
          />
          {message('description')}
          <LineOrigin
            namespace="purchases"
            listed={Boolean(line.itemId)}
            listedText={t('form.fromCatalogue')}
            listedTestId="line-catalogue"
            typed={Boolean(line.description.trim())}
          />
        </>
      )}
      extra={({ label, control, message }) => (
        <div className="col-6 col-lg-2">
          {label('skuProvider', t('fields.skuProvider'))}
          <input
            {...control('skuProvider')}
            value={line.skuProvider}
            onChange={(event) => onChange({ skuProvider: event.target.value })}
            onBlur={onSkuBlur}
            data-testid="line-sku"
          />
          {message('skuProvider')}
        </div>
      )}
    />
  );
}
