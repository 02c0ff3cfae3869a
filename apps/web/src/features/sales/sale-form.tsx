import '../auth/zod-setup';
import { type SaleDocumentType, saleDocumentTypes } from '@odontia/shared/commercial';
import { documentTotals, lineAmounts } from '@odontia/shared/document-totals';
import { type Currency, conditionsSale, currencies, type PaymentMethod, paymentMethods } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import type { CustomerLookupItem } from '@odontia/shared/schemas/customers';
import { type Billable, createSaleSchema, type Sale, updateSaleSchema } from '@odontia/shared/schemas/sales';
import { BookCheck, PenLine, Plus, Save, Stamp, Trash2 } from 'lucide-react';
import { type FormEvent, Fragment, useId, useMemo, useRef, useState } from 'react';
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
import { CustomerPicker } from '../customers/customer-picker';
import { DateInput } from '../profile/date-input';
import { useDocumentMoney } from '../purchases/format';
import { salePath, useBillables, useRelatedSales, useSaveSale } from './api';
import { OdontogramLines } from './odontogram-lines';

interface LineState {
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
}

let lineCounter = 0;
const newLine = (values: Partial<LineState> = {}): LineState => {
  lineCounter += 1;
  return {
    key: `line-${lineCounter}`,
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
    ...values,
  };
};

const trimZeros = (value: string) => value.replace(/\.00$/, '');

const linesOf = (sale: Sale): LineState[] =>
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
    }),
  );

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

interface PickedCustomer {
  customerId: string | null;
  patientId: string | null;
  name: string;
  balance?: string;
  onAccount?: string;
}

/** `/sales/create` (and `?edit=<draft>`): a sale to a patient, a company or an insurer. */
export function SaleForm({ sale, initialCustomer }: { sale?: Sale; initialCustomer?: PickedCustomer }) {
  const { t } = useTranslation('sales');
  const id = useId();
  const navigate = useNavigate();
  const today = useClinicToday();
  const money = useDocumentMoney();
  const user = useSessionUser();
  const canIssueCredit = user ? can(user.level, 'commercial.delete') : false;
  const formRef = useRef<HTMLFormElement>(null);

  const [customer, setCustomer] = useState<PickedCustomer | null>(
    sale ? { customerId: sale.customerId, patientId: null, name: sale.customerName ?? '' } : (initialCustomer ?? null),
  );
  const [customerText, setCustomerText] = useState(sale?.customerName ?? initialCustomer?.name ?? '');
  const [documentType, setDocumentType] = useState<SaleDocumentType>(sale?.documentType ?? 'invoice');
  const [pointOfService, setPointOfService] = useState(sale?.pointOfService ?? '0001');
  const [date, setDate] = useState(sale?.date ?? today);
  const [dueDate, setDueDate] = useState(sale?.dueDate && sale.conditionSale === 'current_account' ? sale.dueDate : '');
  const [currency, setCurrency] = useState<Currency>(sale?.currency ?? user?.settings.systemCurrency ?? 'euro');
  const [conditionSale, setConditionSale] = useState(sale?.conditionSale ?? 'current_account');
  const [paymentMethod, setPaymentMethod] = useState<PaymentMethod | ''>(sale?.paymentMethod ?? '');
  const [notes, setNotes] = useState(sale?.notes ?? '');
  const [relatedDocumentId, setRelatedDocumentId] = useState(sale?.relatedDocumentId ?? '');
  const [returnsGoods, setReturnsGoods] = useState(sale?.returnsGoods ?? false);
  const [lines, setLines] = useState<LineState[]>(sale ? linesOf(sale) : [newLine()]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [issuing, setIssuing] = useState(false);
  const save = useSaveSale(sale?.id);

  const correcting = documentType === 'credit_note' || documentType === 'debit_note';
  const relatedAllowed = correcting || documentType === 'invoice';
  const related = useRelatedSales(customer?.customerId ?? '', customer?.patientId ?? '', relatedAllowed);
  const relatedOptions = (related.data?.data ?? []).filter((document) =>
    correcting
      ? ['invoice', 'debit_note', 'receipt'].includes(document.documentType)
      : ['delivery_note', 'budget', 'proforma_invoice'].includes(document.documentType),
  );

  const totals = useMemo(() => documentTotals(lines.map(amountsOf).filter((line) => line !== null)), [lines]);
  const setLine = (key: string, change: Partial<LineState>) =>
    setLines((current) => current.map((line) => (line.key === key ? { ...line, ...change } : line)));

  const body = (issue: boolean) => ({
    documentType,
    customerId: customer?.customerId ?? null,
    patientId: customer?.customerId ? null : (customer?.patientId ?? null),
    pointOfService,
    date,
    dueDate: conditionSale === 'current_account' && dueDate ? dueDate : null,
    currency,
    conditionSale,
    paymentMethod: conditionSale === 'cash' ? 'cash_payment' : paymentMethod || null,
    notes,
    relatedDocumentId: relatedAllowed && relatedDocumentId ? relatedDocumentId : null,
    returnsGoods: documentType === 'credit_note' && returnsGoods,
    issue,
    lines: lines.map((line) => ({
      itemId: line.kind === 'item' ? line.refId : null,
      treatmentId: line.kind === 'treatment' ? line.refId : null,
      tooth: line.tooth.trim() || null,
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unitPrice.replace(',', '.'),
      discountRate: (line.discountRate || '0').replace(',', '.'),
      vatRate: line.vatRate.replace(',', '.'),
      attendanceId: line.attendanceId,
      attendanceLineId: line.attendanceLineId,
      sourceLineId: line.sourceLineId,
    })),
    ...(sale ? { version: sale.version } : {}),
  });

  const showErrors = (next: Record<string, string>) => {
    setErrors(next);
    requestAnimationFrame(() => {
      if (formRef.current) revealFirstError(formRef.current);
    });
  };

  const submit = async (issue: boolean) => {
    setProblem(null);
    const request = body(issue);
    const parsed = (sale ? updateSaleSchema : createSaleSchema).safeParse(request);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issueFound of parsed.error.issues) {
        next[issueFound.path.map(String).join('.')] ??= issueFound.message;
      }
      showErrors(next);
      return;
    }
    setErrors({});
    setIssuing(issue);
    try {
      const answer = await save.mutateAsync(request);
      if (answer.code) toastSuccess(answer.code);
      void navigate(salePath(answer.data.id));
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.length > 0) {
        showErrors(Object.fromEntries(fields.map((field) => [field.path, field.code])));
        return;
      }
      if (isApiError(error) && (error.status === 409 || error.status === 404)) {
        setProblem(error.message);
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
  const pick = (picked: CustomerLookupItem) => {
    setCustomer({
      customerId: picked.customerId,
      patientId: picked.patientId,
      name: picked.name,
      balance: picked.balance,
      onAccount: picked.onAccount,
    });
    setCustomerText(picked.name);
    setRelatedDocumentId('');
  };
  const issueBlocked = documentType === 'credit_note' && !canIssueCredit;

  return (
    <form ref={formRef} className="d-flex flex-column gap-3" onSubmit={onSubmit} noValidate data-testid="sale-form">
      {problem ? <FormAlert testId="sale-problem">{problem}</FormAlert> : null}
      <section className="card">
        <div className="card-header fw-semibold">{t('form.sections.document')}</div>
        <div className="card-body row g-3">
          <div className="col-md-6">
            {label('customerId', t('fields.customer'), true)}
            <CustomerPicker
              id={`${id}-customerId`}
              value={customerText}
              onText={(text) => {
                setCustomerText(text);
                if (customer && text !== customer.name) {
                  setCustomer(null);
                  setRelatedDocumentId('');
                }
              }}
              onPick={pick}
              invalid={Boolean(errors.customerId)}
              describedBy={errors.customerId ? `${id}-customerId-error` : undefined}
            />
            {message('customerId')}
            {customer?.balance !== undefined ? (
              <div className="form-text" data-testid="customer-balance">
                {t('form.customerBalance', {
                  balance: money(customer.balance, currency),
                  onAccount: money(customer.onAccount ?? '0', currency),
                })}
              </div>
            ) : null}
          </div>
          <div className="col-md-6">
            {label('documentType', t('fields.documentType'), true)}
            <select
              {...field('documentType')}
              className="form-select"
              value={documentType}
              onChange={(event) => setDocumentType(event.target.value as SaleDocumentType)}
              data-testid="sale-type-select"
            >
              {saleDocumentTypes.map((type) => (
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
            {message('pointOfService') ?? <div className="form-text">{t('form.hints.pointOfService')}</div>}
          </div>
          <div className="col-6 col-md-3">
            {label('date', t('fields.date'), true)}
            <DateInput {...field('date')} name="date" value={date} onChange={(event) => setDate(event.target.value)} />
            {message('date')}
          </div>
          <div className="col-6 col-md-3">
            {label('conditionSale', t('fields.conditionSale'))}
            <select
              {...field('conditionSale')}
              className="form-select"
              value={conditionSale}
              onChange={(event) => setConditionSale(event.target.value as typeof conditionSale)}
              data-testid="sale-condition"
            >
              {conditionsSale.map((value) => (
                <option key={value} value={value}>
                  {t(`conditions.${value}`)}
                </option>
              ))}
            </select>
          </div>
          <div className="col-6 col-md-3">
            {conditionSale === 'current_account' ? (
              <>
                {label('dueDate', t('fields.dueDate'))}
                <DateInput
                  {...field('dueDate')}
                  name="dueDate"
                  value={dueDate}
                  onChange={(event) => setDueDate(event.target.value)}
                />
                {message('dueDate') ?? <div className="form-text">{t('form.hints.dueDate')}</div>}
              </>
            ) : (
              <>
                {label('paymentMethod', t('fields.paymentMethod'), conditionSale === 'cards')}
                <select
                  {...field('paymentMethod')}
                  className={`form-select${errors.paymentMethod ? ' is-invalid' : ''}`}
                  value={conditionSale === 'cash' ? 'cash_payment' : paymentMethod}
                  disabled={conditionSale === 'cash'}
                  onChange={(event) => setPaymentMethod(event.target.value as PaymentMethod | '')}
                  data-testid="sale-method"
                >
                  <option value="">{t('form.noMethod')}</option>
                  {paymentMethods
                    .filter((value) =>
                      conditionSale === 'cash'
                        ? value === 'cash_payment'
                        : ['credit_card', 'debit_card'].includes(value),
                    )
                    .map((value) => (
                      <option key={value} value={value}>
                        {t(`methods.${value}`)}
                      </option>
                    ))}
                </select>
                {message('paymentMethod') ?? <div className="form-text">{t('form.hints.collected')}</div>}
              </>
            )}
          </div>
          <div className="col-6 col-md-3">
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
          {relatedAllowed ? (
            <div className="col-md-6">
              {label(
                'relatedDocumentId',
                correcting ? t('fields.relatedDocument') : t('fields.fromDocument'),
                correcting,
              )}
              <select
                {...field('relatedDocumentId')}
                className={`form-select${errors.relatedDocumentId ? ' is-invalid' : ''}`}
                value={relatedDocumentId}
                onChange={(event) => setRelatedDocumentId(event.target.value)}
                disabled={!customer}
                data-testid="related-select"
              >
                <option value="">{customer ? t('form.noRelated') : t('form.pickCustomerFirst')}</option>
                {sale?.relatedDocument && !relatedOptions.some((option) => option.id === sale.relatedDocumentId) ? (
                  <option value={sale.relatedDocument.id}>
                    {t(`types.${sale.relatedDocument.documentType}`)} {sale.relatedDocument.pointOfService}-
                    {sale.relatedDocument.documentNumber}
                  </option>
                ) : null}
                {relatedOptions.map((option) => (
                  <option key={option.id} value={option.id}>
                    {t(`types.${option.documentType}`)} {option.number} · {option.date} ·{' '}
                    {money(option.total, option.currency)}
                  </option>
                ))}
              </select>
              {message('relatedDocumentId')}
            </div>
          ) : null}
          {documentType === 'credit_note' ? (
            <div className="col-md-6 d-flex align-items-end">
              <div className="form-check mb-2">
                <input
                  className="form-check-input"
                  type="checkbox"
                  id={`${id}-returnsGoods`}
                  checked={returnsGoods}
                  onChange={(event) => setReturnsGoods(event.target.checked)}
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
          {documentType === 'budget' && customer?.patientId ? (
            <OdontogramLines
              patientId={customer.patientId}
              onAdd={({ tooth, billable }) =>
                setLines((current) => [
                  ...current.filter((line) => line.description.trim() || line.unitPrice.trim()),
                  newLine({
                    kind: 'treatment',
                    refId: billable.id,
                    description: billable.name,
                    tooth,
                    unitPrice: billable.unitPrice,
                    vatRate: Number(billable.vatRate).toString(),
                  }),
                ])
              }
            />
          ) : null}
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
          <dl className="row mb-0" data-testid="sale-totals">
            <dt className="col-7 col-md-9 text-md-end fw-normal">{t('fields.subtotal1')}</dt>
            <dd className="col-5 col-md-3 text-end mb-1">{money(totals.subtotal1, currency)}</dd>
            <dt className="col-7 col-md-9 text-md-end fw-normal">{t('fields.discountTotal')}</dt>
            <dd className="col-5 col-md-3 text-end mb-1">{money(totals.discountTotal, currency)}</dd>
            <dt className="col-7 col-md-9 text-md-end fw-normal">{t('fields.subtotal2')}</dt>
            <dd className="col-5 col-md-3 text-end mb-1">{money(totals.subtotal2, currency)}</dd>
            {totals.vatBreakdown.map((share) => (
              // A fragment, not a wrapper: the row's gutters apply to direct children only.
              <Fragment key={share.rate}>
                <dt className="col-7 col-md-9 text-md-end fw-normal">
                  {t('form.vatAt', { rate: Number(share.rate).toString() })}
                </dt>
                <dd className="col-5 col-md-3 text-end mb-1">{money(share.vat, currency)}</dd>
              </Fragment>
            ))}
            {/* Half and half on phones: the total, in a larger font, on one line. */}
            <dt className="col-6 col-md-9 text-md-end">{t('fields.total')}</dt>
            <dd className="col-6 col-md-3 text-end text-nowrap mb-0 fw-bold fs-5" data-testid="form-total">
              {money(totals.total, currency)}
            </dd>
          </dl>
        </div>
        <div className="card-footer d-flex flex-wrap gap-2 justify-content-end">
          <Link to={sale ? salePath(sale.id) : '/sales'} className="btn btn-outline-secondary">
            {t('form.cancel')}
          </Link>
          <button type="submit" className="btn btn-outline-primary" disabled={save.isPending} data-testid="save-draft">
            <BusyIcon busy={save.isPending && !issuing} icon={Save} />
            {t('form.saveDraft')}
          </button>
          {issueBlocked ? null : (
            <button
              type="button"
              className="btn btn-primary"
              disabled={save.isPending}
              onClick={() => void submit(true)}
              data-testid="issue"
            >
              <BusyIcon busy={save.isPending && issuing} icon={Stamp} />
              {t('form.issue')}
            </button>
          )}
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
  onRemove,
}: {
  index: number;
  line: LineState;
  errors: Record<string, string>;
  currency: Currency;
  onChange: (change: Partial<LineState>) => void;
  onRemove: (() => void) | undefined;
}) {
  const { t } = useTranslation('sales');
  const id = useId();
  const money = useDocumentMoney();
  const [open, setOpen] = useState(false);
  const debounced = useDebouncedValue(line.description, 250);
  const search = useBillables(debounced.trim(), open);
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
    <fieldset className="border rounded p-2 row g-2 mx-0" data-testid="sale-line">
      <legend className="visually-hidden">{t('form.lineNumber', { n: index + 1 })}</legend>
      <div className="col-12 col-lg-5">
        {small('description', t('fields.concept'), true)}
        <Combobox<Billable>
          id={`${id}-description`}
          value={line.description}
          onInputChange={(text) => onChange({ description: text, kind: '', refId: '' })}
          open={open}
          onOpenChange={setOpen}
          items={search.data ?? []}
          itemKey={(billable) => `${billable.kind}:${billable.id}`}
          itemName={(billable) => billable.name}
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
          listLabel={t('form.billables')}
          pending={search.isPending}
          busy={search.isFetching}
          pendingText={t('form.searching')}
          emptyText={t('form.notBillable')}
          minLength={0}
          placeholder={t('form.conceptPlaceholder')}
          invalid={Boolean(errors[path('description')])}
          describedBy={errors[path('description')] ? `${id}-description-error` : undefined}
          inputTestId="line-concept"
          optionTestId="line-concept-option"
        />
        {message('description')}
        <div className="mt-1 small">
          {line.kind ? (
            <span className="badge text-bg-success" data-testid="line-from-list">
              <BookCheck size={12} aria-hidden="true" className="me-1" />
              {line.kind === 'treatment' ? t('form.fromPriceList') : t('form.fromCatalogue')}
            </span>
          ) : line.description.trim() ? (
            <span className="badge text-bg-warning" data-testid="line-free-text">
              <PenLine size={12} aria-hidden="true" className="me-1" />
              {t('form.freeText')}
            </span>
          ) : null}
        </div>
      </div>
      <div className="col-4 col-lg-1">
        {small('tooth', t('fields.tooth'))}
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
      <div className="col-4 col-lg-1">
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
      <div className="col-4 col-lg-2">
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
      <div className="col-6 col-lg-1">
        {small('discountRate', t('fields.discountRate'))}
        <input
          {...control('discountRate')}
          inputMode="decimal"
          value={line.discountRate}
          onChange={(event) => onChange({ discountRate: event.target.value })}
        />
        {message('discountRate')}
      </div>
      <div className="col-6 col-lg-2">
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
