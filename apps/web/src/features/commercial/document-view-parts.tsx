import type { PartySnapshot } from '@odontia/shared/schemas/clinic-fiscal';
import { formatTaxId, type TaxIdKind } from '@odontia/shared/tax-ids';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TableHead } from '../../components/captioned-table';
import type { DocumentNamespace } from './document-lines';

/** A party as the document copied it (issuer, receiver); before that, a word on when it is copied. */
export function PartySnapshotCard({
  title,
  party,
  testId,
  pendingText,
  withPhone = false,
}: {
  title: string;
  party: PartySnapshot | null;
  testId: string;
  /** What shows while the document is a draft (nothing copied yet). */
  pendingText: string;
  withPhone?: boolean;
}) {
  return (
    <div className="col-md-6" data-testid={testId}>
      <h3 className="h6 text-body-secondary">{title}</h3>
      {party ? (
        <address className="mb-0">
          <strong>{party.name}</strong>
          {party.legalName && party.legalName !== party.name ? <div>{party.legalName}</div> : null}
          {party.taxId ? (
            <div>
              {[party.taxIdKind?.toUpperCase(), formatTaxId(party.taxIdKind as TaxIdKind | null, party.taxId)]
                .filter(Boolean)
                .join(' ')}
            </div>
          ) : null}
          {party.address ? <div>{[party.address, party.city].filter(Boolean).join(', ')}</div> : null}
          {withPhone && party.phone ? <div>{party.phone}</div> : null}
          {party.email ? <div>{party.email}</div> : null}
        </address>
      ) : (
        <p className="text-body-secondary mb-0">{pendingText}</p>
      )}
    </div>
  );
}

interface ViewLine {
  id: string;
  quantity: string;
  unitPrice: string;
  discountRate: string;
  subtotal: string;
  vatRate: string;
  total: string;
}

/** A column of the lines' table that a domain adds: its header and its cell. */
interface LineColumn<Line> {
  header: string;
  cell: (line: Line) => ReactNode;
}

/**
 * The document's lines as saved: the domain's concept and own column, then quantity, unit price,
 * discount, (the subtotal where the domain shows it), VAT rate and total.
 */
export function DocumentLinesTable<Line extends ViewLine>({
  namespace,
  testId,
  lines,
  money,
  concept,
  own,
  withSubtotal = false,
}: {
  namespace: DocumentNamespace;
  testId: string;
  lines: Line[];
  money: (amount: string) => string;
  concept: LineColumn<Line>;
  own: LineColumn<Line>;
  withSubtotal?: boolean;
}) {
  const { t, i18n } = useTranslation(namespace);
  const amountHeaders = ['quantity', 'unitPrice', 'discountRate', ...(withSubtotal ? ['subtotal'] : []), 'vatRate'];
  return (
    <div className="table-responsive">
      <table className="table mb-0 align-middle table-stack-phone" data-testid={testId}>
        <caption className="visually-hidden">{t('form.sections.lines')}</caption>
        <TableHead
          cells={[
            { label: concept.header },
            { label: own.header },
            ...[...amountHeaders, 'total'].map((name) => ({ label: t(`fields.${name}`), className: 'text-end' })),
          ]}
        />
        <tbody>
          {lines.map((line) => (
            <tr key={line.id} data-testid="view-line">
              <td>{concept.cell(line)}</td>
              <td data-label={own.header}>{own.cell(line)}</td>
              <td className="text-end" data-label={t('fields.quantity')}>
                {Number(line.quantity).toLocaleString(i18n.language)}
              </td>
              <td className="text-end" data-label={t('fields.unitPrice')}>
                {money(line.unitPrice)}
              </td>
              <td className="text-end" data-label={t('fields.discountRate')}>
                {Number(line.discountRate)} %
              </td>
              {withSubtotal ? (
                <td className="text-end" data-label={t('fields.subtotal')}>
                  {money(line.subtotal)}
                </td>
              ) : null}
              <td className="text-end" data-label={t('fields.vatRate')}>
                {Number(line.vatRate)} %
              </td>
              <td className="text-end fw-semibold" data-label={t('fields.total')}>
                {money(line.total)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface DocumentAmounts {
  vatBreakdown: { rate: string; base: string; vat: string }[];
  subtotal1: string;
  discountTotal: string;
  subtotal2: string;
  vatTotal: string;
  total: string;
  openAmount: string;
}

/** The VAT by rate beside the totals; what is still open once the document moves money. */
export function DocumentAmountsView({
  namespace,
  document,
  money,
  showOpen,
}: {
  namespace: DocumentNamespace;
  document: DocumentAmounts;
  money: (amount: string) => string;
  showOpen: boolean;
}) {
  const { t } = useTranslation(namespace);
  const row = (text: string, amount: string) => (
    <>
      <dt className="col-7 fw-normal">{text}</dt>
      <dd className="col-5 text-end mb-1">{money(amount)}</dd>
    </>
  );
  return (
    // The row inside the body: its negative top margin would pull the body over the last line.
    <div className="card-body border-top">
      <div className="row g-3">
        <div className="col-md-6">
          <h3 className="h6">{t('view.vatBreakdown')}</h3>
          <table className="table table-sm mb-0" data-testid="vat-breakdown">
            <TableHead
              cells={[
                { label: t('fields.vatRate') },
                { label: t('view.base'), className: 'text-end' },
                { label: t('view.vat'), className: 'text-end' },
              ]}
            />
            <tbody>
              {document.vatBreakdown.map((share) => (
                <tr key={share.rate}>
                  <td>{Number(share.rate)} %</td>
                  <td className="text-end">{money(share.base)}</td>
                  <td className="text-end">{money(share.vat)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="col-md-6">
          <dl className="row mb-0" data-testid="view-totals">
            {row(t('fields.subtotal1'), document.subtotal1)}
            {row(t('fields.discountTotal'), document.discountTotal)}
            {row(t('fields.subtotal2'), document.subtotal2)}
            {row(t('view.vat'), document.vatTotal)}
            {/* Half and half: the total, in a larger font, on one line on phones. */}
            <dt className="col-6">{t('fields.total')}</dt>
            <dd className="col-6 text-end text-nowrap mb-1 fw-bold fs-5" data-testid="view-total">
              {money(document.total)}
            </dd>
            {showOpen ? (
              <>
                <dt className="col-7">{t('fields.openAmount')}</dt>
                <dd className="col-5 text-end mb-0 fw-semibold" data-testid="view-open">
                  {money(document.openAmount)}
                </dd>
              </>
            ) : null}
          </dl>
        </div>
      </div>
    </div>
  );
}
