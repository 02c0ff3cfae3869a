import '../auth/zod-setup';
import { type PurchaseDocumentType, purchaseDocumentTypes } from '@odontia/shared/commercial';
import { documentTotals, lineAmounts } from '@odontia/shared/document-totals';
import { type Currency, conditionsSale, currencies, type PaymentMethod, paymentMethods } from '@odontia/shared/enums';
import {
  createPurchaseSchema,
  type Purchase,
  updatePurchaseSchema,
} from '@odontia/shared/schemas/commercial-documents';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { BookCheck, PenLine, Plus, Save, Stamp, Trash2 } from 'lucide-react';
import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BusyIcon } from '../../components/busy-icon';
import { Combobox, ComboboxOptionText } from '../../components/combobox';
import { FormAlert } from '../../components/form-feedback';
import { FieldLabel, fieldCodeText, inputClass } from '../../components/form-field';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { fieldErrorsOf } from '../../lib/field-message';
import { revealFirstError } from '../../lib/form-errors';
import { isApiError } from '../../lib/http';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useClinicToday } from '../auth/clinic-time';
import { useSessionUser } from '../auth/session';
import { DateInput } from '../profile/date-input';
import { purchasePath, purchasesApi, useCatalogueSearch, useRelatedCandidates, useSavePurchase } from './api';
import { documentNumberText, useDocumentMoney } from './format';
import { ProviderPicker } from './provider-picker';

interface LineState {
  key: string;
  itemId: string;
  itemName: string;
  description: string;
  skuProvider: string;
  quantity: string;
  unitPrice: string;
  discountRate: string;
  vatRate: string;
}

let lineCounter = 0;
const newLine = (values: Partial<LineState> = {}): LineState => {
  lineCounter += 1;
  return {
    key: `line-${lineCounter}`,
    itemId: '',
    itemName: '',
    description: '',
    skuProvider: '',
    quantity: '1',
    unitPrice: '',
    discountRate: '0',
    vatRate: '21',
    ...values,
  };
};

const linesOf = (purchase: Purchase): LineState[] =>
  purchase.lines.map((line) =>
    newLine({
      itemId: line.itemId ?? '',
      itemName: line.itemName ?? '',
      description: line.description,
      skuProvider: line.skuProvider ?? '',
      quantity: line.quantity.replace(/\.00$/, ''),
      unitPrice: line.unitPrice,
      discountRate: line.discountRate.replace(/\.00$/, ''),
      vatRate: line.vatRate.replace(/\.00$/, ''),
    }),
  );

/** "1,5" → "1.5": what the arithmetic reads; null when it is not a number yet. */
const decimal = (text: string): string | null => {
  const value = text.trim().replace(',', '.');
  return /^\d+(\.\d+)?$/.test(value) ? value : null;
};

function amountsOf(line: LineState) {
  const quantity = decimal(line.quantity);
  const unitPrice = decimal(line.unitPrice);
  const vatRate = decimal(line.vatRate);
  const discountRate = decimal(line.discountRate || '0');
  if (!quantity || !unitPrice || !vatRate || discountRate === null) return null;
  return { quantity, unitPrice, vatRate, discountRate };
}

/** How the form opens: a new document, a draft to edit, or a note that corrects `from`. */
export type PurchaseFormMode =
  | { kind: 'create' }
  | { kind: 'edit'; purchase: Purchase }
  | { kind: 'correct'; from: Purchase; documentType: 'credit_note' | 'debit_note' | 'invoice' };

/** `/purchases/create` (and `?edit=`, `?from=&type=`): a purchase typed from the provider's paper. */
export function PurchaseForm({ mode }: { mode: PurchaseFormMode }) {
  const { t } = useTranslation('purchases');
  const id = useId();
  const navigate = useNavigate();
  const today = useClinicToday();
  const money = useDocumentMoney();
  const user = useSessionUser();
  const formRef = useRef<HTMLFormElement>(null);
  const source = mode.kind === 'edit' ? mode.purchase : mode.kind === 'correct' ? mode.from : null;
  const editing = mode.kind === 'edit' ? mode.purchase : null;

  const [provider, setProvider] = useState<{ id: string; name: string } | null>(
    source?.providerId ? { id: source.providerId, name: source.providerName ?? '' } : null,
  );
  const [providerText, setProviderText] = useState(source?.providerName ?? '');
  const [documentType, setDocumentType] = useState<PurchaseDocumentType>(
    mode.kind === 'correct'
      ? mode.documentType
      : ((editing?.documentType as PurchaseDocumentType | undefined) ?? 'invoice'),
  );
  const [pointOfService, setPointOfService] = useState(editing?.pointOfService ?? source?.pointOfService ?? '0001');
  const [documentNumber, setDocumentNumber] = useState(editing?.documentNumber ?? '');
  const [date, setDate] = useState(editing?.date ?? today);
  const [dueDate, setDueDate] = useState(editing?.dueDate ?? '');
  const [currency, setCurrency] = useState<Currency>(source?.currency ?? user?.settings.systemCurrency ?? 'euro');
  const [conditionSale, setConditionSale] = useState(source?.conditionSale ?? 'current_account');
  const [paymentMethod, setPaymentMethod] = useState<PaymentMethod | ''>(editing?.paymentMethod ?? '');
  const [notes, setNotes] = useState(editing?.notes ?? '');
  const [relatedDocumentId, setRelatedDocumentId] = useState(
    mode.kind === 'correct' ? mode.from.id : (editing?.relatedDocumentId ?? ''),
  );
  const [returnsGoods, setReturnsGoods] = useState(editing?.returnsGoods ?? false);
  const [lines, setLines] = useState<LineState[]>(source ? linesOf(source) : [newLine()]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<{ text: string; link?: string } | null>(null);
  const [registering, setRegistering] = useState(false);
  const save = useSavePurchase(editing?.id);

  const correcting = documentType === 'credit_note' || documentType === 'debit_note';
  const relatedAllowed = correcting || documentType === 'invoice';
  const candidates = useRelatedCandidates(provider?.id ?? '', relatedAllowed);
  const relatedOptions = (candidates.data?.data ?? []).filter((document) =>
    correcting
      ? document.documentType === 'invoice' || document.documentType === 'debit_note'
      : document.documentType === 'delivery_note',
  );

  const totals = useMemo(() => {
    const valid = lines.map(amountsOf).filter((line) => line !== null);
    return documentTotals(valid);
  }, [lines]);

  const setLine = (key: string, change: Partial<LineState>) =>
    setLines((current) => current.map((line) => (line.key === key ? { ...line, ...change } : line)));

  /** A known provider SKU fills the line's catalogue item (and its last cost when no price is typed). */
  const lookUpSku = async (line: LineState) => {
    const sku = line.skuProvider.trim();
    if (!provider || !sku || line.itemId) return;
    try {
      const answer = await purchasesApi.providerSku(provider.id, sku);
      if (!answer.data) return;
      const match = answer.data;
      setLines((current) =>
        current.map((row) =>
          row.key === line.key && !row.itemId
            ? {
                ...row,
                itemId: match.itemId,
                itemName: match.itemName,
                description: row.description.trim() ? row.description : match.itemName,
                unitPrice: row.unitPrice.trim() ? row.unitPrice : (match.lastUnitCost ?? ''),
              }
            : row,
        ),
      );
    } catch {
      // The SKU memory is a convenience: a failed look-up leaves the line as typed.
    }
  };

  const body = (register: boolean) => ({
    providerId: provider?.id ?? '',
    documentType,
    pointOfService,
    documentNumber,
    date,
    dueDate: dueDate || null,
    currency,
    conditionSale,
    paymentMethod: paymentMethod || null,
    notes,
    relatedDocumentId: relatedAllowed && relatedDocumentId ? relatedDocumentId : null,
    returnsGoods: documentType === 'credit_note' && returnsGoods,
    register,
    lines: lines.map((line) => ({
      itemId: line.itemId || null,
      description: line.description,
      skuProvider: line.skuProvider,
      quantity: line.quantity,
      unitPrice: line.unitPrice.replace(',', '.'),
      discountRate: (line.discountRate || '0').replace(',', '.'),
      vatRate: line.vatRate.replace(',', '.'),
    })),
    ...(editing ? { version: editing.version } : {}),
  });

  const showErrors = (next: Record<string, string>) => {
    setErrors(next);
    requestAnimationFrame(() => {
      if (formRef.current) revealFirstError(formRef.current);
    });
  };

  const submit = async (register: boolean) => {
    setProblem(null);
    const request = body(register);
    const parsed = (editing ? updatePurchaseSchema : createPurchaseSchema).safeParse(request);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const path = issue.path.map(String).join('.');
        next[path] ??= issue.message;
      }
      if (!provider) next.providerId = 'required';
      showErrors(next);
      return;
    }
    setErrors({});
    setRegistering(register);
    try {
      const answer = await save.mutateAsync(request);
      if (answer.code) toastSuccess(answer.code);
      void navigate(purchasePath(answer.data.id));
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) {
        showErrors(Object.fromEntries(fields.map((field) => [field.path, field.code])));
        return;
      }
      if (isApiError(error) && error.code === 'purchase_number_exists') {
        const existing = (error.details?.document as { id?: string } | null | undefined)?.id;
        setProblem({ text: error.message, ...(existing ? { link: purchasePath(existing) } : {}) });
        showErrors({ documentNumber: 'purchase_number_exists' });
        return;
      }
      if (isApiError(error) && error.status === 409) {
        setProblem({ text: error.message });
        return;
      }
      toastApiError(error);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(false);
  };

  const field = (name: string) => ({
    id: `${id}-${name}`,
    className: inputClass(errors[name]),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
  });
  const message = (name: string) =>
    errors[name] ? (
      <div id={`${id}-${name}-error`} className="invalid-feedback d-block">
        {fieldCodeText(errors[name])}
      </div>
    ) : null;
  const label = (name: string, text: string, required = false) => (
    <label htmlFor={`${id}-${name}`} className="form-label">
      <FieldLabel text={text} required={required} />
    </label>
  );

  return (
    <form ref={formRef} className="d-flex flex-column gap-3" onSubmit={onSubmit} noValidate data-testid="purchase-form">
      {problem ? (
        <FormAlert testId="purchase-problem">
          {problem.text}{' '}
          {problem.link ? (
            <Link to={problem.link} data-testid="purchase-existing">
              {t('form.openExisting')}
            </Link>
          ) : null}
        </FormAlert>
      ) : null}
      <section className="card">
        <div className="card-header fw-semibold">{t('form.sections.document')}</div>
        <div className="card-body row g-3">
          <div className="col-md-6">
            {label('providerId', t('fields.provider'), true)}
            <ProviderPicker
              id={`${id}-providerId`}
              value={providerText}
              onText={(text) => {
                setProviderText(text);
                if (provider && text !== provider.name) {
                  setProvider(null);
                  setRelatedDocumentId('');
                }
              }}
              onPick={(picked) => {
                setProvider({ id: picked.id, name: picked.fantasyName });
                setProviderText(picked.fantasyName);
                setCurrency(picked.currency);
                setRelatedDocumentId('');
              }}
              invalid={Boolean(errors.providerId)}
              describedBy={errors.providerId ? `${id}-providerId-error` : undefined}
            />
            {message('providerId')}
          </div>
          <div className="col-md-6">
            {label('documentType', t('fields.documentType'), true)}
            <select
              {...field('documentType')}
              className={`form-select${errors.documentType ? ' is-invalid' : ''}`}
              value={documentType}
              onChange={(event) => setDocumentType(event.target.value as PurchaseDocumentType)}
              data-testid="purchase-type-select"
            >
              {purchaseDocumentTypes.map((type) => (
                <option key={type} value={type}>
                  {t(`types.${type}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="col-6 col-md-3">
            {label('pointOfService', t('fields.pointOfService'), true)}
            <input
              {...field('pointOfService')}
              value={pointOfService}
              inputMode="numeric"
              onChange={(event) => setPointOfService(event.target.value)}
            />
            {message('pointOfService')}
          </div>
          <div className="col-6 col-md-3">
            {label('documentNumber', t('fields.documentNumber'), true)}
            <input
              {...field('documentNumber')}
              value={documentNumber}
              onChange={(event) => setDocumentNumber(event.target.value)}
              data-testid="purchase-number"
            />
            {message('documentNumber')}
          </div>
          <div className="col-6 col-md-3">
            {label('date', t('fields.date'), true)}
            <DateInput {...field('date')} name="date" value={date} onChange={(event) => setDate(event.target.value)} />
            {message('date')}
          </div>
          <div className="col-6 col-md-3">
            {label('dueDate', t('fields.dueDate'))}
            <DateInput
              {...field('dueDate')}
              name="dueDate"
              value={dueDate}
              onChange={(event) => setDueDate(event.target.value)}
            />
            {message('dueDate') ?? <div className="form-text">{t('form.hints.dueDate')}</div>}
          </div>
          <div className="col-6 col-md-4">
            {label('currency', t('fields.currency'), true)}
            <select
              {...field('currency')}
              className="form-select"
              value={currency}
              onChange={(event) => setCurrency(event.target.value as Currency)}
            >
              {currencies.map((value) => (
                <option key={value} value={value}>
                  {t(`currencies.${value}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="col-6 col-md-4">
            {label('conditionSale', t('fields.conditionSale'))}
            <select
              {...field('conditionSale')}
              className="form-select"
              value={conditionSale}
              onChange={(event) => setConditionSale(event.target.value as typeof conditionSale)}
            >
              {conditionsSale.map((value) => (
                <option key={value} value={value}>
                  {t(`conditions.${value}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="col-md-4">
            {label('paymentMethod', t('fields.paymentMethod'))}
            <select
              {...field('paymentMethod')}
              className="form-select"
              value={paymentMethod}
              onChange={(event) => setPaymentMethod(event.target.value as PaymentMethod | '')}
            >
              <option value="">{t('form.noMethod')}</option>
              {paymentMethods.map((value) => (
                <option key={value} value={value}>
                  {t(`methods.${value}`)}
                </option>
              ))}
            </select>
          </div>
          {relatedAllowed ? (
            <div className="col-md-8">
              {label(
                'relatedDocumentId',
                correcting ? t('fields.relatedDocument') : t('fields.billedDeliveryNote'),
                correcting,
              )}
              <select
                {...field('relatedDocumentId')}
                className={`form-select${errors.relatedDocumentId ? ' is-invalid' : ''}`}
                value={relatedDocumentId}
                onChange={(event) => setRelatedDocumentId(event.target.value)}
                disabled={!provider}
                data-testid="related-select"
              >
                <option value="">{provider ? t('form.noRelated') : t('form.pickProviderFirst')}</option>
                {mode.kind === 'correct' && !relatedOptions.some((option) => option.id === mode.from.id) ? (
                  <option value={mode.from.id}>
                    {t(`types.${mode.from.documentType}`)} {documentNumberText(mode.from)}
                  </option>
                ) : null}
                {relatedOptions.map((option) => (
                  <option key={option.id} value={option.id}>
                    {t(`types.${option.documentType}`)} {documentNumberText(option)} · {option.date} ·{' '}
                    {money(option.total, option.currency)}
                  </option>
                ))}
              </select>
              {message('relatedDocumentId') ?? (
                <div className="form-text">{correcting ? t('form.hints.related') : t('form.hints.billing')}</div>
              )}
            </div>
          ) : null}
          {documentType === 'credit_note' ? (
            <div className="col-md-4 d-flex align-items-end">
              <div className="form-check mb-2">
                <input
                  className="form-check-input"
                  type="checkbox"
                  id={`${id}-returnsGoods`}
                  checked={returnsGoods}
                  onChange={(event) => setReturnsGoods(event.target.checked)}
                  data-testid="returns-goods"
                />
                <label className="form-check-label" htmlFor={`${id}-returnsGoods`}>
                  {t('fields.returnsGoods')}
                </label>
              </div>
            </div>
          ) : null}
          <div className="col-12">
            {label('notes', t('fields.notes'))}
            <textarea {...field('notes')} rows={2} value={notes} onChange={(event) => setNotes(event.target.value)} />
            {message('notes')}
          </div>
        </div>
      </section>

      <section className="card">
        <div className="card-header fw-semibold d-flex justify-content-between align-items-center">
          <span>{t('form.sections.lines')}</span>
          <button
            type="button"
            className="btn btn-sm btn-outline-primary"
            onClick={() => setLines((current) => [...current, newLine()])}
            data-testid="add-line"
          >
            <Plus size={14} aria-hidden="true" className="me-1" />
            {t('form.addLine')}
          </button>
        </div>
        <div className="card-body d-flex flex-column gap-3">
          {errors.lines ? (
            <div className="text-danger small" role="alert">
              {fieldCodeText(errors.lines)}
            </div>
          ) : null}
          {lines.map((line, index) => (
            <LineEditor
              key={line.key}
              index={index}
              line={line}
              errors={errors}
              currency={currency}
              onChange={(change) => setLine(line.key, change)}
              onSkuBlur={() => void lookUpSku(line)}
              onRemove={
                lines.length > 1
                  ? () => setLines((current) => current.filter((row) => row.key !== line.key))
                  : undefined
              }
            />
          ))}
        </div>
      </section>

      <section className="card">
        <div className="card-body">
          <dl className="row mb-0 purchase-totals" data-testid="purchase-totals">
            <dt className="col-7 col-md-9 text-md-end fw-normal">{t('fields.subtotal1')}</dt>
            <dd className="col-5 col-md-3 text-end mb-1">{money(totals.subtotal1, currency)}</dd>
            <dt className="col-7 col-md-9 text-md-end fw-normal">{t('fields.discountTotal')}</dt>
            <dd className="col-5 col-md-3 text-end mb-1">{money(totals.discountTotal, currency)}</dd>
            <dt className="col-7 col-md-9 text-md-end fw-normal">{t('fields.subtotal2')}</dt>
            <dd className="col-5 col-md-3 text-end mb-1">{money(totals.subtotal2, currency)}</dd>
            {totals.vatBreakdown.map((share) => (
              <div key={share.rate} style={{ display: 'contents' }}>
                <dt className="col-7 col-md-9 text-md-end fw-normal">
                  {t('form.vatAt', { rate: Number(share.rate).toString() })}
                </dt>
                <dd className="col-5 col-md-3 text-end mb-1">{money(share.vat, currency)}</dd>
              </div>
            ))}
            <dt className="col-7 col-md-9 text-md-end">{t('fields.total')}</dt>
            <dd className="col-5 col-md-3 text-end mb-0 fw-bold fs-5" data-testid="form-total">
              {money(totals.total, currency)}
            </dd>
          </dl>
        </div>
        <div className="card-footer d-flex flex-wrap gap-2 justify-content-end">
          <Link to={editing ? purchasePath(editing.id) : '/purchases'} className="btn btn-outline-secondary">
            {t('form.cancel')}
          </Link>
          <button type="submit" className="btn btn-outline-primary" disabled={save.isPending} data-testid="save-draft">
            <BusyIcon busy={save.isPending && !registering} icon={Save} />
            {t('form.saveDraft')}
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={save.isPending}
            onClick={() => void submit(true)}
            data-testid="register"
          >
            <BusyIcon busy={save.isPending && registering} icon={Stamp} />
            {t('form.register')}
          </button>
        </div>
      </section>
    </form>
  );
}

function LineEditor({
  index,
  line,
  errors,
  currency,
  onChange,
  onSkuBlur,
  onRemove,
}: {
  index: number;
  line: LineState;
  errors: Record<string, string>;
  currency: Currency;
  onChange: (change: Partial<LineState>) => void;
  onSkuBlur: () => void;
  onRemove: (() => void) | undefined;
}) {
  const { t } = useTranslation('purchases');
  const id = useId();
  const money = useDocumentMoney();
  const [open, setOpen] = useState(false);
  const debounced = useDebouncedValue(line.description, 250);
  const search = useCatalogueSearch(debounced.trim(), open && debounced.trim().length > 0);
  const path = (name: string) => `lines.${index}.${name}`;
  const amounts = amountsOf(line);
  const computed = amounts ? lineAmounts(amounts) : null;
  const control = (name: string) => ({
    id: `${id}-${name}`,
    className: `${inputClass(errors[path(name)])} form-control-sm`,
    'aria-invalid': errors[path(name)] ? true : undefined,
    'aria-describedby': errors[path(name)] ? `${id}-${name}-error` : undefined,
  });
  const message = (name: string) =>
    errors[path(name)] ? (
      <div id={`${id}-${name}-error`} className="invalid-feedback d-block">
        {fieldCodeText(errors[path(name)])}
      </div>
    ) : null;
  const small = (name: string, text: string, required = false) => (
    <label htmlFor={`${id}-${name}`} className="form-label small mb-1">
      <FieldLabel text={text} required={required} />
    </label>
  );
  return (
    <fieldset className="border rounded p-2 row g-2 mx-0" data-testid="purchase-line">
      <legend className="visually-hidden">{t('form.lineNumber', { n: index + 1 })}</legend>
      <div className="col-12 col-lg-5">
        {small('description', t('fields.item'), true)}
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
        <div className="mt-1 small">
          {line.itemId ? (
            <span className="badge text-bg-success" data-testid="line-catalogue">
              <BookCheck size={12} aria-hidden="true" className="me-1" />
              {t('form.fromCatalogue')}
            </span>
          ) : line.description.trim() ? (
            <span className="badge text-bg-warning" data-testid="line-free-text">
              <PenLine size={12} aria-hidden="true" className="me-1" />
              {t('form.freeText')}
            </span>
          ) : null}
        </div>
      </div>
      <div className="col-6 col-lg-2">
        {small('skuProvider', t('fields.skuProvider'))}
        <input
          {...control('skuProvider')}
          value={line.skuProvider}
          onChange={(event) => onChange({ skuProvider: event.target.value })}
          onBlur={onSkuBlur}
          data-testid="line-sku"
        />
        {message('skuProvider')}
      </div>
      <div className="col-6 col-lg-1">
        {small('quantity', t('fields.quantity'), true)}
        <input
          {...control('quantity')}
          inputMode="decimal"
          value={line.quantity}
          onChange={(event) => onChange({ quantity: event.target.value })}
          data-testid="line-quantity"
        />
        {message('quantity')}
      </div>
      <div className="col-6 col-lg-2">
        {small('unitPrice', t('fields.unitPrice'), true)}
        <input
          {...control('unitPrice')}
          inputMode="decimal"
          value={line.unitPrice}
          onChange={(event) => onChange({ unitPrice: event.target.value })}
          data-testid="line-price"
        />
        {message('unitPrice')}
      </div>
      <div className="col-3 col-lg-1">
        {small('discountRate', t('fields.discountRate'))}
        <input
          {...control('discountRate')}
          inputMode="decimal"
          value={line.discountRate}
          onChange={(event) => onChange({ discountRate: event.target.value })}
        />
        {message('discountRate')}
      </div>
      <div className="col-3 col-lg-1">
        {small('vatRate', t('fields.vatRate'), true)}
        <input
          {...control('vatRate')}
          inputMode="decimal"
          value={line.vatRate}
          onChange={(event) => onChange({ vatRate: event.target.value })}
          data-testid="line-vat"
        />
        {message('vatRate')}
      </div>
      <div className="col-12 d-flex flex-wrap justify-content-between align-items-center gap-2 small">
        <span className="text-body-secondary" data-testid="line-totals">
          {computed
            ? t('form.lineTotals', {
                subtotal: money(computed.subtotal, currency),
                vat: money(computed.vat, currency),
                total: money(computed.total, currency),
              })
            : t('form.lineIncomplete')}
        </span>
        {onRemove ? (
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={onRemove}>
            <Trash2 size={14} aria-hidden="true" className="me-1" />
            {t('form.removeLine', { n: index + 1 })}
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}
