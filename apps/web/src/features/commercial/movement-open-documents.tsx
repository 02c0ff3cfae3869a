import type { OpenDocument } from '@odontia/shared/schemas/payments';
import { Wand2, X } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IconTextButton } from '../../components/icon-button';
import { AllocationTable } from './allocation-table';
import { fromCents, useCurrencyFormat } from './money-format';
import { type MovementDraft, type MovementFormTexts, useAllocationSums } from './movement-draft';

/**
 * The open documents' card: propose and clear (when there are documents), what the form shows of
 * them (`children`), what is allocated and what is left on account.
 */
export function OpenDocumentsSection({
  texts,
  canPropose,
  onPropose,
  onClear,
  allocatedCents,
  remainderCents,
  currency,
  overAllocated,
  summaryClassName = '',
  children,
}: {
  texts: MovementFormTexts;
  canPropose: boolean;
  onPropose: () => void;
  onClear: () => void;
  allocatedCents: number;
  remainderCents: number;
  currency: string;
  overAllocated: boolean;
  summaryClassName?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation(texts.namespaces);
  const money = useCurrencyFormat();
  const prefix = texts.testIdPrefix;
  return (
    <div className="card-body border-top" data-testid={`${prefix}-open-documents`}>
      <div className="d-flex flex-wrap gap-2 align-items-center justify-content-between mb-2">
        <h2 className="h5 mb-0">{t('form.openDocuments')}</h2>
        {canPropose ? (
          <div className="d-flex gap-2">
            <IconTextButton
              icon={Wand2}
              className="btn btn-outline-primary btn-sm"
              onClick={onPropose}
              testId={`${prefix}-propose`}
            >
              {t('form.propose')}
            </IconTextButton>
            <button type="button" className="btn btn-outline-secondary btn-sm" onClick={onClear}>
              <X size={16} aria-hidden="true" className="me-2" />
              {t('form.clear')}
            </button>
          </div>
        ) : null}
      </div>
      {children}
      <dl
        className={`row mt-3 mb-0${summaryClassName ? ` ${summaryClassName}` : ''}`}
        data-testid={`${prefix}-summary`}
      >
        <dt className="col-7 col-md-9 text-md-end">{t('form.allocatedTotal')}</dt>
        <dd className="col-5 col-md-3 text-end mb-1" data-testid={`${prefix}-allocated`}>
          {money(fromCents(allocatedCents), currency)}
        </dd>
        <dt className="col-7 col-md-9 text-md-end">{t('form.remainder')}</dt>
        <dd
          className={`col-5 col-md-3 text-end mb-0 fw-semibold${remainderCents < 0 ? ' text-danger-emphasis' : ''}`}
          data-testid={`${prefix}-remainder`}
        >
          {money(fromCents(remainderCents), currency)}
        </dd>
      </dl>
      {overAllocated ? (
        <div className="text-danger-emphasis small mt-1" role="alert">
          {t('form.overAllocated')}
        </div>
      ) : null}
    </div>
  );
}

/**
 * The open documents to allocate to: why there are none to show yet (`waiting`: no party picked, a
 * patient never billed), a word while they load, that there are none, or the table.
 */
export function OpenDocumentsList<D extends MovementDraft>({
  texts,
  waiting,
  pending,
  documents,
  draft,
  set,
}: {
  texts: MovementFormTexts;
  waiting: string | null;
  pending: boolean;
  documents: OpenDocument[];
  draft: D;
  set: (name: 'allocations', value: Record<string, string>) => void;
}) {
  const { t } = useTranslation(texts.namespaces);
  if (waiting) return <p className="text-body-secondary mb-0">{waiting}</p>;
  if (pending) return <p className="text-body-secondary mb-0">{t('form.searching')}</p>;
  if (documents.length === 0)
    return (
      <p className="text-body-secondary mb-0" data-testid={`${texts.testIdPrefix}-no-documents`}>
        {t('form.noOpenDocuments')}
      </p>
    );
  return (
    <AllocationTable
      documents={documents}
      currency={draft.currency}
      allocations={draft.allocations}
      onChange={(documentId, value) => set('allocations', { ...draft.allocations, [documentId]: value })}
    />
  );
}

/**
 * A new movement's open documents: the card (propose oldest due first, clear, the sums) around
 * what the side shows of its party's account (`children`) and the documents to allocate to.
 */
export function MovementOpenDocuments<D extends MovementDraft>({
  texts,
  draft,
  set,
  documents,
  onPropose,
  overAllocated,
  waiting,
  pending,
  summaryClassName,
  children,
}: {
  texts: MovementFormTexts;
  draft: D;
  set: (name: 'allocations', value: Record<string, string>) => void;
  documents: OpenDocument[];
  onPropose: () => void;
  /** The server or the form refused the allocations. */
  overAllocated: boolean;
  waiting: string | null;
  pending: boolean;
  summaryClassName?: string;
  children?: ReactNode;
}) {
  const { allocatedCents, remainderCents } = useAllocationSums(draft);
  return (
    <OpenDocumentsSection
      texts={texts}
      canPropose={documents.length > 0}
      onPropose={onPropose}
      onClear={() => set('allocations', {})}
      allocatedCents={allocatedCents}
      remainderCents={remainderCents}
      currency={draft.currency}
      overAllocated={remainderCents < 0 || overAllocated}
      {...(summaryClassName ? { summaryClassName } : {})}
    >
      {children}
      <OpenDocumentsList
        texts={texts}
        waiting={waiting}
        pending={pending}
        documents={documents}
        draft={draft}
        set={set}
      />
    </OpenDocumentsSection>
  );
}
