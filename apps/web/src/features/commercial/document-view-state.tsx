import type { DocumentStatus } from '@odontia/shared/commercial';
import type { Currency, DocumentType } from '@odontia/shared/enums';
import { can } from '@odontia/shared/permissions';
import type { PartySnapshot } from '@odontia/shared/schemas/clinic-fiscal';
import type { Purchase } from '@odontia/shared/schemas/commercial-documents';
import { type ReactNode, useState } from 'react';
import { apiErrorText, toastApiError } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import { useSessionUser } from '../../session/session';
import { useDocumentMoney } from './money-format';

/** A fact of the document's heading card: its label and value, half a row wide (or the row's rest). */
export function Fact({
  label,
  children,
  testId,
  wide = false,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
  wide?: boolean;
}) {
  return (
    <>
      <dt className="col-sm-4 col-lg-2">{label}</dt>
      <dd
        className={`col-sm-8 ${wide ? 'col-lg-10' : 'col-lg-4'}`}
        data-testid={testId}
        style={wide ? { whiteSpace: 'pre-wrap' } : undefined}
      >
        {children}
      </dd>
    </>
  );
}

/** What the view reads of any document, a sale or a purchase. */
export type ViewDocument = Pick<
  Purchase,
  | 'id'
  | 'version'
  | 'currency'
  | 'vatBreakdown'
  | 'subtotal1'
  | 'discountTotal'
  | 'subtotal2'
  | 'vatTotal'
  | 'total'
  | 'openAmount'
  | 'relatedDocument'
  | 'relatedFrom'
  | 'allocations'
> & {
  status: DocumentStatus;
  documentType: DocumentType;
  issuerSnapshot: PartySnapshot | null;
  counterpartySnapshot: PartySnapshot | null;
};

/**
 * What a document's view shares with its side's own actions: who may write or delete, the
 * document's money format and the conflict shown above the view (a stale version, a rule).
 */
export function useDocumentViewState(document: ViewDocument) {
  const format = useDocumentMoney();
  const user = useSessionUser();
  const [problem, setProblem] = useState<string | null>(null);
  return {
    draft: document.status === 'draft',
    canWrite: user ? can(user.level, 'commercial.write') : false,
    canDelete: user ? can(user.level, 'commercial.delete') : false,
    money: (amount: string | null | undefined) => format(amount, document.currency as Currency),
    problem,
    setProblem,
    /** A 409 shows above the view; anything else is a toast. */
    conflict: (error: unknown) => {
      if (isApiError(error) && error.status === 409) setProblem(apiErrorText(error));
      else toastApiError(error);
    },
  };
}

export type DocumentViewState = ReturnType<typeof useDocumentViewState>;
