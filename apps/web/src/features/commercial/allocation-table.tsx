import type { OpenDocument } from '@odontia/shared/schemas/payments';
import { useTranslation } from 'react-i18next';
import { CaptionedTable } from '../../components/captioned-table';
import { useCalendarDateFormat, useClinicToday } from '../../session/clinic-time';
import { useCurrencyFormat, useDocumentName } from './money-format';

/** The open documents with an editable amount each (also used to allocate a payment's remainder). */
export function AllocationTable({
  documents,
  currency,
  allocations,
  onChange,
}: {
  documents: OpenDocument[];
  currency: string;
  allocations: Record<string, string>;
  onChange: (documentId: string, value: string) => void;
}) {
  const { t } = useTranslation('payments');
  const today = useClinicToday();
  const documentName = useDocumentName();
  const money = useCurrencyFormat();
  const day = useCalendarDateFormat();
  return (
    <CaptionedTable
      className="table table-sm align-middle mb-0"
      testId="allocation-table"
      caption={t('form.openDocuments')}
      head={[
        { label: t('form.document') },
        { label: t('fields.date') },
        { label: t('form.dueDate') },
        { label: t('form.openAmount'), className: 'text-end' },
        { label: t('form.allocate'), className: 'text-end' },
      ]}
    >
      <tbody>
        {documents.map((document) => {
          const name = documentName(document);
          const other = document.currency !== currency;
          const overdue = document.dueDate !== null && document.dueDate < today;
          return (
            <tr key={document.id} data-testid="allocation-row" data-document={name}>
              <th scope="row" className="fw-normal">
                {name}
              </th>
              <td className="text-nowrap">{day(document.date)}</td>
              <td className={`text-nowrap${overdue ? ' text-danger-emphasis' : ''}`}>{day(document.dueDate)}</td>
              <td className="text-end text-nowrap">{money(document.openAmount, document.currency)}</td>
              <td className="text-end" style={{ minWidth: '8rem' }}>
                {other ? (
                  <span className="badge text-bg-secondary">{t('form.otherCurrency')}</span>
                ) : (
                  <input
                    className="form-control form-control-sm text-end"
                    inputMode="decimal"
                    autoComplete="off"
                    aria-label={t('form.allocateTo', { document: name })}
                    value={allocations[document.id] ?? ''}
                    data-testid="allocation-amount"
                    onChange={(event) => onChange(document.id, event.target.value)}
                  />
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </CaptionedTable>
  );
}
