import '../../lib/zod-setup';
import { type PurchaseDocumentType, purchaseDocumentTypes } from '@odontia/shared/commercial';
import { type Currency, type PaymentMethod, paymentMethods } from '@odontia/shared/enums';
import {
  createPurchaseSchema,
  type Purchase,
  updatePurchaseSchema,
} from '@odontia/shared/schemas/commercial-documents';
import type { InventoryItem } from '@odontia/shared/schemas/inventory';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { Combobox, ComboboxOptionText } from '../../components/combobox';
import { DateInput } from '../../components/date-input';
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
import { DocumentLineEditor, type DocumentLineProps, LineOrigin } from '../commercial/document-lines';
import { amountsToSend, nextLineKey, trimZeros, useLinesTotals } from '../commercial/line-amounts';
import { useDocumentForm } from '../commercial/use-document-form';
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
  /** The order line this line receives (issue 35): kept while the document receives that order. */
  sourceLineId: string;
}

const newLine = (values: Partial<LineState> = {}): LineState => ({
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

const linesOf = (purchase: Purchase, keepSources: boolean): LineState[] =>
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

/** How the form opens: a new document, a draft to edit, or a note that corrects `from`. */
export type PurchaseFormMode =
  | { kind: 'create' }
  | { kind: 'edit'; purchase: Purchase }
  | { kind: 'correct'; from: Purchase; documentType: 'credit_note' | 'debit_note' | 'invoice' };

/** `/purchases/create` (and `?edit=`, `?from=&type=`): a purchase typed from the provider's paper. */
export function PurchaseForm({ mode }: { mode: PurchaseFormMode }) {
  const { t } = useTranslation('purchases');
  const navigate = useNavigate();
  const today = useClinicToday();
  const money = useDocumentMoney();
  const user = useSessionUser();
  const form = useDocumentForm();
  const { id, errors, field, message, label } = form;
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
  const [currency, setCurrency] = useState<Currency>(source?.currency ?? user?.account.currency ?? 'euro');
  const [conditionSale, setConditionSale] = useState(source?.conditionSale ?? 'current_account');
  const [paymentMethod, setPaymentMethod] = useState<PaymentMethod | ''>(editing?.paymentMethod ?? '');
  const [notes, setNotes] = useState(editing?.notes ?? '');
  const [relatedDocumentId, setRelatedDocumentId] = useState(
    mode.kind === 'correct' ? mode.from.id : (editing?.relatedDocumentId ?? ''),
  );
  const [returnsGoods, setReturnsGoods] = useState(editing?.returnsGoods ?? false);
  const [deliveryDate, setDeliveryDate] = useState(editing?.deliveryDate ?? '');
  const [lines, setLines] = useState<LineState[]>(source ? linesOf(source, mode.kind === 'edit') : [newLine()]);
  const [problem, setProblem] = useState<{ text: string; link?: string } | null>(null);
  const [registering, setRegistering] = useState(false);
  const save = useSavePurchase(editing?.id);

  const correcting = documentType === 'credit_note' || documentType === 'debit_note';
  // Issue 35: the clinic numbers its purchase orders when they are registered; nothing to type.
  const order = documentType === 'purchase_order';
  const relatedAllowed = correcting || documentType === 'invoice' || documentType === 'delivery_note';
  const candidates = useRelatedCandidates(provider?.id ?? '', relatedAllowed);
  const relatedOptions = (candidates.data?.data ?? []).filter((document) =>
    correcting
      ? document.documentType === 'invoice' || document.documentType === 'debit_note'
      : document.documentType === 'purchase_order' ||
        (documentType === 'invoice' && document.documentType === 'delivery_note'),
  );
  // The lines keep the order lines they receive while the document still receives that order.
  const keepsSources = Boolean(editing?.relatedDocumentId) && relatedDocumentId === editing?.relatedDocumentId;

  const totals = useLinesTotals(lines);

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
    pointOfService: order ? null : pointOfService,
    documentNumber: order ? null : documentNumber,
    date,
    dueDate: dueDate || null,
    deliveryDate: order && deliveryDate ? deliveryDate : null,
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
      ...amountsToSend(line),
      sourceLineId: keepsSources && line.sourceLineId ? line.sourceLineId : null,
    })),
    ...(editing ? { version: editing.version } : {}),
  });

  const submit = async (register: boolean) => {
    setProblem(null);
    const request = body(register);
    const issues = form.issuesOf(editing ? updatePurchaseSchema : createPurchaseSchema, request);
    if (issues) {
      if (!provider) issues.providerId = 'required';
      form.showErrors(issues);
      return;
    }
    form.setErrors({});
    setRegistering(register);
    await form.send(
      () => save.mutateAsync(request),
      (saved) => void navigate(purchasePath(saved.id)),
      (error) => {
        if (isApiError(error) && error.code === 'purchase_number_exists') {
          const existing = (error.details?.document as { id?: string } | null | undefined)?.id;
          setProblem({ text: apiErrorText(error), ...(existing ? { link: purchasePath(existing) } : {}) });
          form.showErrors({ documentNumber: 'purchase_number_exists' });
          return true;
        }
        if (isApiError(error) && error.status === 409) {
          setProblem({ text: apiErrorText(error) });
          return true;
        }
        return false;
      },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(false);
  };

  return (
    <form
      ref={form.formRef}
      className="d-flex flex-column gap-3"
      onSubmit={onSubmit}
      noValidate
      data-testid="purchase-form"
    >
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
          {order ? (
            <div className="col-md-6">
              {label('deliveryDate', t('fields.deliveryDate'))}
              <DateInput
                {...field('deliveryDate')}
                name="deliveryDate"
                value={deliveryDate}
                onChange={(event) => setDeliveryDate(event.target.value)}
                data-testid="purchase-delivery-date"
              />
              {message('deliveryDate') ?? <div className="form-text">{t('form.hints.orderNumber')}</div>}
            </div>
          ) : (
            <>
              <PointOfServiceField
                form={form}
                namespace="purchases"
                value={pointOfService}
                onChange={setPointOfService}
              />
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
            </>
          )}
          <DocumentDateField form={form} namespace="purchases" value={date} onChange={setDate} />
          <div className="col-6 col-md-3">
            <DueDateField form={form} namespace="purchases" value={dueDate} onChange={setDueDate} />
          </div>
          <CurrencyField
            form={form}
            namespace="purchases"
            value={currency}
            onChange={setCurrency}
            className="col-6 col-md-4"
          />
          <ConditionField
            form={form}
            namespace="purchases"
            value={conditionSale}
            onChange={setConditionSale}
            className="col-6 col-md-4"
          />
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
                correcting
                  ? t('fields.relatedDocument')
                  : documentType === 'invoice'
                    ? t('fields.billedOrReceived')
                    : t('fields.receivedOrder'),
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
                <div className="form-text">
                  {correcting
                    ? t('form.hints.related')
                    : documentType === 'invoice'
                      ? t('form.hints.billing')
                      : t('form.hints.receiving')}
                </div>
              )}
            </div>
          ) : null}
          {documentType === 'credit_note' ? (
            <ReturnsGoodsField
              form={form}
              namespace="purchases"
              checked={returnsGoods}
              onChange={setReturnsGoods}
              className="col-md-4"
              testId="returns-goods"
            />
          ) : null}
          <NotesField form={form} namespace="purchases" value={notes} onChange={setNotes} />
        </div>
      </section>

      <DocumentLinesCard
        namespace="purchases"
        onAdd={() => setLines((current) => [...current, newLine()])}
        error={errors.lines}
      >
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
              lines.length > 1 ? () => setLines((current) => current.filter((row) => row.key !== line.key)) : undefined
            }
          />
        ))}
      </DocumentLinesCard>

      <DocumentTotalsCard
        namespace="purchases"
        totals={totals}
        currency={currency}
        testId="purchase-totals"
        className="purchase-totals"
      >
        <DocumentFormActions
          namespace="purchases"
          cancelTo={editing ? purchasePath(editing.id) : '/purchases'}
          pending={save.isPending}
          finalising={registering}
          final={{ text: t('form.register'), testId: 'register', onClick: () => void submit(true) }}
        />
      </DocumentTotalsCard>
    </form>
  );
}

/** A purchase's line: an item of the catalogue (or free text) and the provider's own code for it. */
function LineEditor({ onSkuBlur, ...props }: DocumentLineProps<LineState> & { onSkuBlur: () => void }) {
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
