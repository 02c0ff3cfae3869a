import '../../lib/zod-setup';
import { type SaleDocumentType, saleDocumentTypes } from '@odontia/shared/commercial';
import { can } from '@odontia/shared/permissions';
import { createSaleSchema, type Sale, updateSaleSchema } from '@odontia/shared/schemas/sales';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useClinicToday } from '../../session/clinic-time';
import { useSessionUser } from '../../session/session';
import { useDocumentDraft, useDocumentSubmit, usePickedParty } from '../commercial/document-draft';
import { DocumentFormFrame } from '../commercial/document-form';
import { RelatedDocumentField } from '../commercial/document-form-fields';
import { amountsToSend } from '../commercial/line-amounts';
import { useDocumentMoney } from '../commercial/money-format';
import { useDocumentForm } from '../commercial/use-document-form';
import { salePath, useRelatedSales, useSaveSale } from './api';
import { OdontogramLines } from './odontogram-lines';
import { SaleOwnFields } from './sale-form-fields';
import { type LineState, linesOf, newLine, SaleLineEditor } from './sale-line-editor';
import { saleSide } from './sale-side';

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
  const { errors } = form;

  const state = useDocumentDraft<SaleDocumentType, LineState>(() => ({
    documentType: sale?.documentType ?? 'invoice',
    pointOfService: sale?.pointOfService ?? '0001',
    date: sale?.date ?? today,
    dueDate: sale?.dueDate && sale.conditionSale === 'current_account' ? sale.dueDate : '',
    currency: sale?.currency ?? user?.account.currency ?? 'euro',
    conditionSale: sale?.conditionSale ?? 'current_account',
    paymentMethod: sale?.paymentMethod ?? '',
    notes: sale?.notes ?? '',
    relatedDocumentId: sale?.relatedDocumentId ?? '',
    returnsGoods: sale?.returnsGoods ?? false,
    lines: sale ? linesOf(sale) : [newLine()],
  }));
  const { draft, set } = state;
  const picked = usePickedParty<PickedCustomer>(
    sale ? { customerId: sale.customerId, patientId: null, name: sale.customerName ?? '' } : (initialCustomer ?? null),
    sale?.customerName ?? initialCustomer?.name ?? '',
    () => set('relatedDocumentId')(''),
  );
  const customer = picked.party;
  const { documentType, conditionSale, currency } = draft;
  const save = useSaveSale(sale?.id);
  // The register whose open session takes the cash or cards collected on issue (issue 40);
  // undefined until RegisterField applies its default, '' none.
  const [registerId, setRegisterId] = useState<string | undefined>(undefined);

  const correcting = documentType === 'credit_note' || documentType === 'debit_note';
  const relatedAllowed = correcting || documentType === 'invoice';
  const related = useRelatedSales(customer?.customerId ?? '', customer?.patientId ?? '', relatedAllowed);
  const relatedOptions = (related.data?.data ?? []).filter((document) =>
    correcting
      ? ['invoice', 'debit_note', 'receipt'].includes(document.documentType)
      : ['delivery_note', 'budget', 'proforma_invoice'].includes(document.documentType),
  );

  const request = (issue: boolean) => ({
    documentType,
    customerId: customer?.customerId ?? null,
    patientId: customer?.customerId ? null : (customer?.patientId ?? null),
    pointOfService: draft.pointOfService,
    date: draft.date,
    dueDate: conditionSale === 'current_account' && draft.dueDate ? draft.dueDate : null,
    currency,
    conditionSale,
    paymentMethod: conditionSale === 'cash' ? 'cash_payment' : draft.paymentMethod || null,
    notes: draft.notes,
    relatedDocumentId: relatedAllowed && draft.relatedDocumentId ? draft.relatedDocumentId : null,
    returnsGoods: documentType === 'credit_note' && draft.returnsGoods,
    issue,
    ...(issue && conditionSale !== 'current_account' && registerId ? { registerId } : {}),
    lines: draft.lines.map((line) => ({
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
  const { submit, problem, finalising } = useDocumentSubmit({
    form,
    schema: sale ? updateSaleSchema : createSaleSchema,
    request,
    save: save.mutateAsync,
    savedPath: salePath,
    onSaved: (path) => void navigate(path),
    problemStatuses: [409, 404],
  });

  return (
    <DocumentFormFrame
      side={saleSide}
      form={form}
      state={state}
      types={saleDocumentTypes}
      problem={problem}
      submit={submit}
      party={{
        name: 'customerId',
        picked,
        onPick: (item) =>
          picked.pick({
            customerId: item.customerId,
            patientId: item.patientId,
            name: item.name,
            balance: item.balance,
            onAccount: item.onAccount,
          }),
        after:
          customer?.balance !== undefined ? (
            <div className="form-text" data-testid="customer-balance">
              {t('form.customerBalance', {
                balance: money(customer.balance, currency),
                onAccount: money(customer.onAccount ?? '0', currency),
              })}
            </div>
          ) : null,
      }}
      fields={<SaleOwnFields form={form} state={state} register={{ value: registerId, onChange: setRegisterId }} />}
      related={
        relatedAllowed ? (
          <RelatedDocumentField
            side={saleSide}
            form={form}
            className="col-md-6"
            label={correcting ? t('fields.relatedDocument') : t('fields.fromDocument')}
            required={correcting}
            value={draft.relatedDocumentId}
            onChange={set('relatedDocumentId')}
            partyPicked={Boolean(customer)}
            pickPartyFirst={t('form.pickCustomerFirst')}
            stored={
              sale?.relatedDocument
                ? {
                    id: sale.relatedDocument.id,
                    text: `${t(`types.${sale.relatedDocument.documentType}`)} ${sale.relatedDocument.pointOfService}-${sale.relatedDocument.documentNumber}`,
                  }
                : null
            }
            options={relatedOptions.map((option) => ({ ...option, number: option.number ?? '' }))}
          />
        ) : null
      }
      returnsGoods={{ className: 'col-md-6' }}
      linesBefore={
        documentType === 'budget' && customer?.patientId ? (
          <OdontogramLines
            patientId={customer.patientId}
            onAdd={({ tooth, billable }) =>
              state.setLines((current) => [
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
      lineEditors={draft.lines.map((line, index) => (
        <SaleLineEditor
          key={line.key}
          index={index}
          line={line}
          errors={errors}
          currency={currency}
          onChange={(change) => state.setLine(line.key, change)}
          onRemove={state.removerOf(line.key)}
        />
      ))}
      newLine={() => newLine()}
      cancelTo={sale ? salePath(sale.id) : '/sales'}
      pending={save.isPending}
      finalising={finalising}
      final={documentType === 'credit_note' && !canIssueCredit ? null : { textKey: 'form.issue', testId: 'issue' }}
    />
  );
}
