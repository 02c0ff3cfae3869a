import type { Billable, Sale } from '@odontia/shared/schemas/sales';
import { useTranslation } from 'react-i18next';
import { ComboboxOptionText } from '../../components/combobox';
import type { DocumentLineProps, LineFieldHelpers } from '../commercial/document-lines';
import { nextLineKey, trimZeros } from '../commercial/line-amounts';
import type { ConceptOptions } from '../commercial/line-concept';
import { useDocumentMoney } from '../commercial/money-format';
import { type LineEditorSide, SideLineEditor } from '../commercial/side-line-editor';
import { useProfessionals } from '../users/professionals';
import { useBillables } from './api';
import { saleSide } from './sale-side';

export interface LineState {
  key: string;
  kind: 'treatment' | 'item' | '';
  refId: string;
  description: string;
  tooth: string;
  quantity: string;
  unitPrice: string;
  discountRate: string;
  vatRate: string;
  /** Kept from the document the line came from (an attendance, a budget line). */
  attendanceId: string | null;
  attendanceLineId: string | null;
  sourceLineId: string | null;
  /** Who did it ('' none): the source's when the line came from one, else chosen here. */
  professionalId: string;
  /** The stored professional's name (shown even when they are no longer active). */
  professionalName: string | null;
}

export const newLine = (values: Partial<LineState> = {}): LineState => ({
  key: nextLineKey(),
  kind: '',
  refId: '',
  description: '',
  tooth: '',
  quantity: '1',
  unitPrice: '',
  discountRate: '0',
  vatRate: '0',
  attendanceId: null,
  attendanceLineId: null,
  sourceLineId: null,
  professionalId: '',
  professionalName: null,
  ...values,
});

export const linesOf = (sale: Sale): LineState[] =>
  sale.lines.map((line) =>
    newLine({
      kind: line.itemId ? 'item' : line.treatmentId ? 'treatment' : '',
      refId: line.itemId ?? line.treatmentId ?? '',
      description: line.description,
      tooth: line.tooth ?? '',
      quantity: trimZeros(line.quantity),
      unitPrice: line.unitPrice,
      discountRate: trimZeros(line.discountRate),
      vatRate: trimZeros(line.vatRate),
      attendanceId: line.attendanceId,
      attendanceLineId: line.attendanceLineId,
      sourceLineId: line.sourceLineId,
      professionalId: line.professionalId ?? '',
      professionalName: line.professionalName,
    }),
  );

/** The price list's treatments and the catalogue's items, searched from the moment the list opens. */
function useBillableOptions(text: string, open: boolean): ConceptOptions<Billable> {
  const search = useBillables(text, open);
  return { items: search.data ?? [], pending: search.isPending, busy: search.isFetching };
}

/** A sale line's concept: a treatment of the price list, an item of the catalogue, or free text. */
const saleLines: LineEditorSide<LineState, Billable> = {
  document: saleSide,
  columns: {
    quantity: 'col-4 col-lg-1',
    unitPrice: 'col-4 col-lg-2',
    discountRate: 'col-6 col-lg-1',
    vatRate: 'col-6 col-lg-2',
  },
  conceptKeys: {
    label: 'fields.concept',
    list: 'form.billables',
    empty: 'form.notBillable',
    placeholder: 'form.conceptPlaceholder',
  },
  unpicked: { kind: '', refId: '' },
  useOptions: useBillableOptions,
  itemKey: (billable) => `${billable.kind}:${billable.id}`,
  minLength: 0,
  testIds: { input: 'line-concept', option: 'line-concept-option' },
};

/** A sale's line: a treatment of the price list or an item of the catalogue (or free text), and its tooth. */
export function SaleLineEditor(props: DocumentLineProps<LineState>) {
  const { line, currency, onChange } = props;
  const { t } = useTranslation('sales');
  const money = useDocumentMoney();
  return (
    <SideLineEditor
      {...props}
      side={saleLines}
      renderItem={(billable) => (
        <ComboboxOptionText
          name={billable.name}
          detail={[
            t(`billableKinds.${billable.kind}`),
            billable.code,
            billable.group,
            money(billable.unitPrice, currency),
            billable.stock !== null ? t('form.inStock', { count: billable.stock }) : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        />
      )}
      onPick={(billable) =>
        onChange({
          kind: billable.kind === 'treatment' ? 'treatment' : 'item',
          refId: billable.id,
          description: billable.name,
          unitPrice: billable.unitPrice,
          vatRate: Number(billable.vatRate).toString(),
        })
      }
      origin={{
        listed: Boolean(line.kind),
        text: line.kind === 'treatment' ? t('form.fromPriceList') : t('form.fromCatalogue'),
        testId: 'line-from-list',
      }}
      extra={({ label, control, message }) => (
        <div className="col-4 col-lg-1">
          {label('tooth', t('fields.tooth'))}
          <input
            {...control('tooth')}
            inputMode="numeric"
            maxLength={2}
            value={line.tooth}
            onChange={(event) => onChange({ tooth: event.target.value })}
            data-testid="line-tooth"
          />
          {message('tooth')}
        </div>
      )}
      after={(fields) => <LineProfessional line={line} fields={fields} onChange={onChange} />}
    />
  );
}

/**
 * Who did what the line bills (issue 35): production by professional counts the line for them.
 * The clinic's active professionals, plus the stored one when they no longer are.
 */
function LineProfessional({
  line,
  fields,
  onChange,
}: {
  line: LineState;
  fields: LineFieldHelpers;
  onChange: (change: Partial<LineState>) => void;
}) {
  const { t } = useTranslation('sales');
  const professionals = useProfessionals();
  const options = professionals.data ?? [];
  const stored =
    line.professionalId && !options.some((option) => option.id === line.professionalId)
      ? { id: line.professionalId, completeName: line.professionalName ?? t('form.professionalUnknown') }
      : null;
  return (
    <div className="col-12 col-lg-4">
      {fields.label('professionalId', t('fields.professional'))}
      <select
        {...fields.control('professionalId')}
        className={fields.control('professionalId').className.replaceAll('form-control', 'form-select')}
        value={line.professionalId}
        onChange={(event) => onChange({ professionalId: event.target.value, professionalName: null })}
        data-testid="line-professional"
      >
        <option value="">{t('form.noProfessional')}</option>
        {stored ? <option value={stored.id}>{stored.completeName}</option> : null}
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.completeName}
          </option>
        ))}
      </select>
      {fields.message('professionalId')}
    </div>
  );
}
