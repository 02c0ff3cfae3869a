import '../../lib/zod-setup';
import { type PurchaseDocumentType, purchaseDocumentTypes } from '@odontia/shared/commercial';
import {
  createPurchaseSchema,
  type Purchase,
  updatePurchaseSchema,
} from '@odontia/shared/schemas/commercial-documents';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { apiErrorText } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useClinicToday } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { useDocumentDraft, useDocumentSubmit, usePickedParty } from '../commercial/document-draft';
import { DocumentFormFrame } from '../commercial/document-form';
import { RelatedDocumentField } from '../commercial/document-form-fields';
import { amountsToSend } from '../commercial/line-amounts';
import { documentNumberText } from '../commercial/money-format';
import { useDocumentForm } from '../commercial/use-document-form';
import { purchasePath, useRelatedCandidates, useSavePurchase } from './api';
import { PurchaseOwnFields, skuLookUp } from './purchase-form-fields';
import { type LineState, linesOf, newLine, PurchaseLineEditor } from './purchase-line-editor';
import { purchaseSide } from './purchase-side';

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
  const user = useSessionUser();
  const form = useDocumentForm();
  const { errors } = form;
  const source = mode.kind === 'edit' ? mode.purchase : mode.kind === 'correct' ? mode.from : null;
  const editing = mode.kind === 'edit' ? mode.purchase : null;

  const state = useDocumentDraft<PurchaseDocumentType, LineState>(() => ({
    documentType:
      mode.kind === 'correct'
        ? mode.documentType
        : ((editing?.documentType as PurchaseDocumentType | undefined) ?? 'invoice'),
    pointOfService: editing?.pointOfService ?? source?.pointOfService ?? '0001',
    date: editing?.date ?? today,
    dueDate: editing?.dueDate ?? '',
    currency: source?.currency ?? user?.account.currency ?? 'euro',
    conditionSale: source?.conditionSale ?? 'current_account',
    paymentMethod: editing?.paymentMethod ?? '',
    notes: editing?.notes ?? '',
    relatedDocumentId: mode.kind === 'correct' ? mode.from.id : (editing?.relatedDocumentId ?? ''),
    returnsGoods: editing?.returnsGoods ?? false,
    lines: source ? linesOf(source, mode.kind === 'edit') : [newLine()],
  }));
  const { draft, set } = state;
  const { documentType, relatedDocumentId } = draft;
  const picked = usePickedParty<{ id: string; name: string }>(
    source?.providerId ? { id: source.providerId, name: source.providerName ?? '' } : null,
    source?.providerName ?? '',
    () => set('relatedDocumentId')(''),
  );
  const provider = picked.party;
  const [documentNumber, setDocumentNumber] = useState(editing?.documentNumber ?? '');
  const [deliveryDate, setDeliveryDate] = useState(editing?.deliveryDate ?? '');
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

  const lookUpSku = skuLookUp(provider?.id ?? null, state.setLines);

  const request = (register: boolean) => ({
    providerId: provider?.id ?? '',
    documentType,
    pointOfService: order ? null : draft.pointOfService,
    documentNumber: order ? null : documentNumber,
    date: draft.date,
    dueDate: draft.dueDate || null,
    deliveryDate: order && deliveryDate ? deliveryDate : null,
    currency: draft.currency,
    conditionSale: draft.conditionSale,
    paymentMethod: draft.paymentMethod || null,
    notes: draft.notes,
    relatedDocumentId: relatedAllowed && relatedDocumentId ? relatedDocumentId : null,
    returnsGoods: documentType === 'credit_note' && draft.returnsGoods,
    register,
    lines: draft.lines.map((line) => ({
      itemId: line.itemId || null,
      description: line.description,
      skuProvider: line.skuProvider,
      ...amountsToSend(line),
      sourceLineId: keepsSources && line.sourceLineId ? line.sourceLineId : null,
    })),
    ...(editing ? { version: editing.version } : {}),
  });
  const { submit, problem, finalising } = useDocumentSubmit({
    form,
    schema: editing ? updatePurchaseSchema : createPurchaseSchema,
    request,
    save: save.mutateAsync,
    savedPath: purchasePath,
    onSaved: (path) => void navigate(path),
    moreIssues: (issues) => {
      if (!provider) issues.providerId = 'required';
    },
    // The provider's number is already registered: the problem links to that document.
    ownProblem: (error) => {
      if (!isApiError(error) || error.code !== 'purchase_number_exists') return null;
      const existing = (error.details?.document as { id?: string } | null | undefined)?.id;
      form.showErrors({ documentNumber: 'purchase_number_exists' });
      return { text: apiErrorText(error), ...(existing ? { link: purchasePath(existing) } : {}) };
    },
  });

  return (
    <DocumentFormFrame
      side={purchaseSide}
      form={form}
      state={state}
      types={purchaseDocumentTypes}
      problem={problem}
      submit={submit}
      party={{
        name: 'providerId',
        picked,
        onPick: (item) => {
          picked.pick({ id: item.id, name: item.fantasyName });
          set('currency')(item.currency);
        },
      }}
      fields={
        <PurchaseOwnFields
          form={form}
          state={state}
          order={order}
          documentNumber={documentNumber}
          onDocumentNumber={setDocumentNumber}
          deliveryDate={deliveryDate}
          onDeliveryDate={setDeliveryDate}
        />
      }
      related={
        relatedAllowed ? (
          <RelatedDocumentField
            side={purchaseSide}
            form={form}
            className="col-md-8"
            label={
              correcting
                ? t('fields.relatedDocument')
                : documentType === 'invoice'
                  ? t('fields.billedOrReceived')
                  : t('fields.receivedOrder')
            }
            required={correcting}
            value={relatedDocumentId}
            onChange={set('relatedDocumentId')}
            partyPicked={Boolean(provider)}
            pickPartyFirst={t('form.pickProviderFirst')}
            stored={
              mode.kind === 'correct'
                ? { id: mode.from.id, text: `${t(`types.${mode.from.documentType}`)} ${documentNumberText(mode.from)}` }
                : null
            }
            options={relatedOptions.map((option) => ({ ...option, number: documentNumberText(option) }))}
            hint={
              correcting
                ? t('form.hints.related')
                : documentType === 'invoice'
                  ? t('form.hints.billing')
                  : t('form.hints.receiving')
            }
          />
        ) : null
      }
      returnsGoods={{ className: 'col-md-4', testId: 'returns-goods' }}
      lineEditors={draft.lines.map((line, index) => (
        <PurchaseLineEditor
          key={line.key}
          index={index}
          line={line}
          errors={errors}
          currency={draft.currency}
          onChange={(change) => state.setLine(line.key, change)}
          onSkuBlur={() => void lookUpSku(line)}
          onRemove={state.removerOf(line.key)}
        />
      ))}
      newLine={() => newLine()}
      totalsClassName="purchase-totals"
      cancelTo={editing ? purchasePath(editing.id) : '/purchases'}
      pending={save.isPending}
      finalising={finalising}
      final={{ textKey: 'form.register', testId: 'register' }}
    />
  );
}
