import '../../lib/zod-setup';
import { type SaleDocumentType, saleDocumentTypes } from '@odontia/shared/commercial';
import { type Currency, type PaymentMethod, paymentMethods } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import type { CustomerLookupItem } from '@odontia/shared/schemas/customers';
import { type Billable, createSaleSchema, type Sale, updateSaleSchema } from '@odontia/shared/schemas/sales';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Combobox, ComboboxOptionText } from '../../components/combobox';
import { FormAlert } from '../../components/form-feedback';
import { apiErrorText } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useClinicToday } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import {
  ConditionField,
  CurrencyField,
  DocumentDateField,
  DocumentFormActions,
  DocumentLinesCard,
  DocumentTotalsCard,
  DueDateField,
  NotesField,
  PointOfServiceField,
  ReturnsGoodsField,
} from '../commercial/document-form-parts';
import {
  DocumentLineEditor,
  type DocumentLineProps,
  type LineFieldHelpers,
  LineOrigin,
} from '../commercial/document-lines';
import { amountsToSend, nextLineKey, trimZeros, useLinesTotals } from '../commercial/line-amounts';
import { useDocumentForm } from '../commercial/use-document-form';
import { CustomerPicker } from '../customers/customer-picker';
import { useProfessionals } from '../medical-history/api';
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
  /** Who did it ('' none): the source's when the line came from one, else chosen here. */
  professionalId: string;
  /** The stored professional's name (shown even when they are no longer active). */
  professionalName: string | null;
}

const newLine = (values: Partial<LineState> = {}): LineState => ({
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
      professionalId: line.professionalId ?? '',
      professionalName: line.professionalName,
    }),
  );

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
  const navigate = useNavigate();
  const today = useClinicToday();
  const money = useDocumentMoney();
  const user = useSessionUser();
  const canIssueCredit = user ? can(user.level, 'commercial.delete') : false;
  const form = useDocumentForm();
  const { id, errors, field, message, label } = form;

  const [customer, setCustomer] = useState<PickedCustomer | null>(
    sale ? { customerId: sale.customerId, patientId: null, name: sale.customerName ?? '' } : (initialCustomer ?? null),
  );
  const [customerText, setCustomerText] = useState(sale?.customerName ?? initialCustomer?.name ?? '');
  const [documentType, setDocumentType] = useState<SaleDocumentType>(sale?.documentType ?? 'invoice');
  const [pointOfService, setPointOfService] = useState(sale?.pointOfService ?? '0001');
  const [date, setDate] = useState(sale?.date ?? today);
  const [dueDate, setDueDate] = useState(sale?.dueDate && sale.conditionSale === 'current_account' ? sale.dueDate : '');
  const [currency, setCurrency] = useState<Currency>(sale?.currency ?? user?.account.currency ?? 'euro');
  const [conditionSale, setConditionSale] = useState(sale?.conditionSale ?? 'current_account');
  const [paymentMethod, setPaymentMethod] = useState<PaymentMethod | ''>(sale?.paymentMethod ?? '');
  const [notes, setNotes] = useState(sale?.notes ?? '');
  const [relatedDocumentId, setRelatedDocumentId] = useState(sale?.relatedDocumentId ?? '');
  const [returnsGoods, setReturnsGoods] = useState(sale?.returnsGoods ?? false);
  const [lines, setLines] = useState<LineState[]>(sale ? linesOf(sale) : [newLine()]);
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

  const totals = useLinesTotals(lines);
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
      ...amountsToSend(line),
      attendanceId: line.attendanceId,
      attendanceLineId: line.attendanceLineId,
      sourceLineId: line.sourceLineId,
      professionalId: line.professionalId || null,
    })),
    ...(sale ? { version: sale.version } : {}),
  });

  const submit = async (issue: boolean) => {
    setProblem(null);
    const request = body(issue);
    const issues = form.issuesOf(sale ? updateSaleSchema : createSaleSchema, request);
    if (issues) {
      form.showErrors(issues);
      return;
    }
    form.setErrors({});
    setIssuing(issue);
    await form.send(
      () => save.mutateAsync(request),
      (saved) => void navigate(salePath(saved.id)),
      (error) => {
        if (!isApiError(error) || (error.status !== 409 && error.status !== 404)) return false;
        setProblem(apiErrorText(error));
        return true;
      },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(false);
  };

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
    <form
      ref={form.formRef}
      className="d-flex flex-column gap-3"
      onSubmit={onSubmit}
      noValidate
      data-testid="sale-form"
    >
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
          <PointOfServiceField
            form={form}
            namespace="sales"
            value={pointOfService}
            onChange={setPointOfService}
            hint={t('form.hints.pointOfService')}
          />
          <DocumentDateField form={form} namespace="sales" value={date} onChange={setDate} />
          <ConditionField
            form={form}
            namespace="sales"
            value={conditionSale}
            onChange={setConditionSale}
            className="col-6 col-md-3"
            testId="sale-condition"
          />
          <div className="col-6 col-md-3">
            {conditionSale === 'current_account' ? (
              <DueDateField form={form} namespace="sales" value={dueDate} onChange={setDueDate} />
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
          <CurrencyField
            form={form}
            namespace="sales"
            value={currency}
            onChange={setCurrency}
            className="col-6 col-md-3"
          />
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
            <ReturnsGoodsField
              form={form}
              namespace="sales"
              checked={returnsGoods}
              onChange={setReturnsGoods}
              className="col-md-6"
            />
          ) : null}
          <NotesField form={form} namespace="sales" value={notes} onChange={setNotes} />
        </div>
      </section>

      <DocumentLinesCard
        namespace="sales"
        onAdd={() => setLines((current) => [...current, newLine()])}
        error={errors.lines}
        before={
          documentType === 'budget' && customer?.patientId ? (
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
          ) : null
        }
      >
        {lines.map((line, index) => (
          <LineEditor
            key={line.key}
            index={index}
            line={line}
            errors={errors}
            currency={currency}
            onChange={(change) => setLine(line.key, change)}
            onRemove={
              lines.length > 1 ? () => setLines((current) => current.filter((row) => row.key !== line.key)) : undefined
            }
          />
        ))}
      </DocumentLinesCard>

      <DocumentTotalsCard namespace="sales" totals={totals} currency={currency} testId="sale-totals">
        <DocumentFormActions
          namespace="sales"
          cancelTo={sale ? salePath(sale.id) : '/sales'}
          pending={save.isPending}
          finalising={issuing}
          final={issueBlocked ? null : { text: t('form.issue'), testId: 'issue', onClick: () => void submit(true) }}
        />
      </DocumentTotalsCard>
    </form>
  );
}

/** A sale's line: a treatment of the price list or an item of the catalogue (or free text), and its tooth. */
function LineEditor(props: DocumentLineProps<LineState>) {
  const { line, errors, currency, onChange } = props;
  const { t } = useTranslation('sales');
  const money = useDocumentMoney();
  const [open, setOpen] = useState(false);
  const debounced = useDebouncedValue(line.description, 250);
  const search = useBillables(debounced.trim(), open);
  return (
    <DocumentLineEditor
      {...props}
      namespace="sales"
      testId="sale-line"
      columns={{
        quantity: 'col-4 col-lg-1',
        unitPrice: 'col-4 col-lg-2',
        discountRate: 'col-6 col-lg-1',
        vatRate: 'col-6 col-lg-2',
      }}
      concept={({ id, label, message, path }) => (
        <>
          {label('description', t('fields.concept'), true)}
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
          <LineOrigin
            namespace="sales"
            listed={Boolean(line.kind)}
            listedText={line.kind === 'treatment' ? t('form.fromPriceList') : t('form.fromCatalogue')}
            listedTestId="line-from-list"
            typed={Boolean(line.description.trim())}
          />
        </>
      )}
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
