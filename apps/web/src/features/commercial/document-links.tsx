import type { DocumentRef, Purchase } from '@odontia/shared/schemas/commercial-documents';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCalendarDateFormat } from '../../session/clinic-time';
import type { DocumentNamespace } from './document-lines';

export type Allocation = Purchase['allocations'][number];

/**
 * What the document is linked to: the document it bills or corrects (`relatedText`), the documents
 * made from it, and the payments or collections and credit notes applied to it.
 */
export function DocumentLinks({
  namespace,
  document,
  relatedText,
  refLink,
  money,
  movement,
  creditPath,
}: {
  namespace: DocumentNamespace;
  document: Pick<Purchase, 'relatedDocument' | 'relatedFrom' | 'allocations'>;
  relatedText: string;
  refLink: (document: DocumentRef) => ReactNode;
  money: (amount: string) => string;
  /** The payment's or collection's link: its view and its name. */
  movement: (allocation: Allocation & { paymentId: string }) => { to: string; text: string };
  creditPath: (id: string) => string;
}) {
  const { t } = useTranslation(namespace);
  const day = useCalendarDateFormat();
  if (!document.relatedDocument && document.relatedFrom.length === 0 && document.allocations.length === 0) return null;
  return (
    <section className="card">
      <div className="card-header fw-semibold">{t('view.links')}</div>
      <div className="card-body">
        {document.relatedDocument ? (
          <p className="mb-2" data-testid="related-document">
            {relatedText} {refLink(document.relatedDocument)}
          </p>
        ) : null}
        {document.relatedFrom.length > 0 ? (
          <>
            <h3 className="h6">{t('view.relatedFrom')}</h3>
            <ul data-testid="related-from">
              {document.relatedFrom.map((related) => (
                <li key={related.id}>
                  {refLink(related)} · {money(related.total)}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {document.allocations.length > 0 ? (
          <>
            <h3 className="h6">{t('view.allocations')}</h3>
            <ul className="mb-0" data-testid="allocations">
              {document.allocations.map((allocation) => {
                const link = allocation.paymentId ? movement({ ...allocation, paymentId: allocation.paymentId }) : null;
                return (
                  <li key={allocation.id} className={allocation.reversed ? 'text-decoration-line-through' : ''}>
                    {day(allocation.date)} ·{' '}
                    {link ? (
                      <Link to={link.to}>{link.text}</Link>
                    ) : allocation.creditDocumentId ? (
                      <Link to={creditPath(allocation.creditDocumentId)}>{t('types.credit_note')}</Link>
                    ) : null}{' '}
                    · {money(allocation.amount)}
                    {allocation.reversed ? ` (${t('view.reversed')})` : ''}
                  </li>
                );
              })}
            </ul>
          </>
        ) : null}
      </div>
    </section>
  );
}
