import type { Purchase } from '@odontia/shared/schemas/commercial-documents';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { useTranslation } from 'react-i18next';
import { ComboboxOptionText } from '../../components/combobox';
import type { DocumentLineProps } from '../commercial/document-lines';
import { nextLineKey, trimZeros } from '../commercial/line-amounts';
import type { ConceptOptions } from '../commercial/line-concept';
import { type LineEditorSide, SideLineEditor } from '../commercial/side-line-editor';
import { useCatalogueSearch } from './api';
import { purchaseSide } from './purchase-side';

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

/** The catalogue's items, searched once something is typed. */
function useCatalogueOptions(text: string, open: boolean): ConceptOptions<InventoryItem> {
  const search = useCatalogueSearch(text, open && text.length > 0);
  return { items: search.data ?? [], pending: search.isPending || text === '', busy: search.isFetching };
}

/** A purchase line's concept: an item of the catalogue, or free text. */
const purchaseLines: LineEditorSide<LineState, InventoryItem> = {
  document: purchaseSide,
  columns: {
    quantity: 'col-6 col-lg-1',
    unitPrice: 'col-6 col-lg-2',
    discountRate: 'col-3 col-lg-1',
    vatRate: 'col-3 col-lg-1',
  },
  conceptKeys: {
    label: 'fields.item',
    list: 'form.catalogue',
    empty: 'form.notInCatalogue',
    placeholder: 'form.itemPlaceholder',
  },
  unpicked: { itemId: '', itemName: '' },
  useOptions: useCatalogueOptions,
  itemKey: (item) => item.id,
  testIds: { input: 'line-item', option: 'line-item-option' },
};

/** A purchase's line: an item of the catalogue (or free text) and the provider's own code for it. */
export function PurchaseLineEditor({ onSkuBlur, ...props }: DocumentLineProps<LineState> & { onSkuBlur: () => void }) {
  const { line, onChange } = props;
  const { t } = useTranslation('purchases');
  return (
    <SideLineEditor
      {...props}
      side={purchaseLines}
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
      origin={{ listed: Boolean(line.itemId), text: t('form.fromCatalogue'), testId: 'line-catalogue' }}
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
