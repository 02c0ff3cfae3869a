import type { DocumentRef, Purchase } from '@odontia/shared/schemas/commercial-documents';
import { Pencil, Stamp, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { BusyButton } from '../../components/busy-button';
import { ConfirmDelete } from '../../components/confirm-delete';
import { FormAlert } from '../../components/form-feedback';
import { toastApiError, toastSuccess } from '../../lib/api-toast';
import { useCalendarDateFormat } from '../../session/clinic-time';
import { DocumentActionButton, DocumentActionLink } from './document-actions';
import { DocumentStatusBadge, DocumentTypeBadge } from './document-badges';
import { DocumentLinks } from './document-links';
import type { DocumentViewSide } from './document-side';
import { DocumentAmountsView, DocumentLinesTable, PartySnapshotCard } from './document-view-parts';
import type { DocumentViewState, ViewDocument } from './document-view-state';
import type { FinaliseInput } from './side-queries';

type ViewLine = Purchase['lines'][number];

function RefLink({ side, document }: { side: DocumentViewSide; document: DocumentRef }) {
  const { t } = useTranslation(side.namespace);
  const day = useCalendarDateFormat();
  return (
    <Link to={side.pathOf(document.id)}>
      {t(`types.${document.documentType}`)} {side.view.refNumber(document) ?? t('list.noNumber')} · {day(document.date)}
    </Link>
  );
}

/**
 * A document's view, written once for sales and purchases: its heading (number, badges, actions and
 * facts), the side's panels, the parties as copied, the lines and amounts, its links and what only
 * one side shows after them. Editing, the final step (issue, register) and deleting a draft are the
 * same on both sides; the rest of the actions are the side's (`leading`, `trailing`).
 */
export function DocumentView<D extends ViewDocument, Line extends ViewLine>({
  side,
  document,
  state,
  title,
  leading,
  trailing,
  finalAllowed = true,
  finalExtra,
  facts,
  panels,
  parties,
  lines,
  relatedText,
  moneyMoves,
  after,
  deleteText,
}: {
  side: DocumentViewSide;
  document: D & { lines: Line[] };
  state: DocumentViewState;
  title: string;
  leading?: ReactNode;
  trailing?: ReactNode;
  /** Whether this user may take the final step of this draft here. */
  finalAllowed?: boolean;
  /** What the final step asks besides the version (a sale paid at once: its register), and its fields. */
  finalExtra?: { fields: ReactNode; input: Omit<FinaliseInput, 'version'> };
  facts: ReactNode;
  panels?: ReactNode;
  parties: { issuer: string; receiver: string; pending: string; withPhone?: boolean };
  lines: Pick<Parameters<typeof DocumentLinesTable<Line>>[0], 'concept' | 'own' | 'withSubtotal'>;
  relatedText: string;
  /** Whether the document moves money (then what is still open shows once it counts). */
  moneyMoves: boolean;
  after?: ReactNode;
  deleteText: string;
}) {
  const { t } = useTranslation(side.namespace);
  const navigate = useNavigate();
  const { draft, canWrite, canDelete, money, problem, setProblem, conflict } = state;
  const finalise = side.view.useFinalise(document.id);
  const remove = side.view.useDelete(document.id);
  const [confirming, setConfirming] = useState(false);
  const prefix = side.testIdPrefix;

  const onFinalise = async () => {
    setProblem(null);
    try {
      const answer = await finalise.mutateAsync({ ...finalExtra?.input, version: document.version });
      if (answer.code) toastSuccess(answer.code);
    } catch (error) {
      conflict(error);
    }
  };
  const onDelete = async () => {
    try {
      const answer = await remove.mutateAsync();
      toastSuccess(answer.code);
      void navigate(side.listPath);
    } catch (error) {
      setConfirming(false);
      toastApiError(error);
    }
  };

  return (
    <div className="d-flex flex-column gap-3" data-testid={`${prefix}-view`} data-status={document.status}>
      {problem ? <FormAlert testId={`${prefix}-problem`}>{problem}</FormAlert> : null}
      <section className="card">
        <div className="card-header d-flex flex-wrap gap-2 align-items-center justify-content-between">
          <div className="d-flex flex-wrap gap-2 align-items-center">
            <h2 className="h5 mb-0" data-testid={side.view.numberTestId}>
              {title}
            </h2>
            <DocumentTypeBadge side={side} type={document.documentType} />
            <DocumentStatusBadge side={side} status={document.status} />
          </div>
          <div className="d-flex flex-wrap gap-2">
            {leading}
            {draft && canWrite ? (
              <>
                <DocumentActionLink to={`${side.listPath}/create?edit=${document.id}`} icon={Pencil}>
                  {t('view.edit')}
                </DocumentActionLink>
                {finalAllowed ? (
                  <BusyButton
                    className="btn btn-primary btn-sm"
                    icon={Stamp}
                    busy={finalise.isPending}
                    onClick={() => void onFinalise()}
                    testId={side.view.final.testId}
                  >
                    {t(side.view.final.textKey)}
                  </BusyButton>
                ) : null}
              </>
            ) : null}
            {/* Deleting a draft is a commercial delete on both sides (docs/permissions.md). */}
            {draft && canDelete ? (
              <DocumentActionButton
                icon={Trash2}
                tone="outline-danger"
                onClick={() => setConfirming(true)}
                testId="view-delete"
              >
                {t('view.delete')}
              </DocumentActionButton>
            ) : null}
            {trailing}
          </div>
        </div>
        {draft && canWrite && finalAllowed && finalExtra ? (
          <div className="card-body border-bottom row g-2">{finalExtra.fields}</div>
        ) : null}
        <div className="card-body">
          <dl className="row mb-0">{facts}</dl>
        </div>
      </section>

      {panels}

      <section className="card">
        <div className="card-header fw-semibold">{t('view.parties')}</div>
        <div className="card-body row g-3">
          {(
            [
              ['issuer', parties.issuer, document.issuerSnapshot],
              ['receiver', parties.receiver, document.counterpartySnapshot],
            ] as const
          ).map(([testId, title, party]) => (
            <PartySnapshotCard
              key={testId}
              title={title}
              party={draft ? null : party}
              testId={testId}
              pendingText={parties.pending}
              withPhone={parties.withPhone}
            />
          ))}
        </div>
      </section>

      <section className="card">
        <div className="card-header fw-semibold">{t('form.sections.lines')}</div>
        <DocumentLinesTable<Line>
          namespace={side.namespace}
          testId={`${prefix}-lines`}
          lines={document.lines}
          money={money}
          {...lines}
        />
        <DocumentAmountsView
          namespace={side.namespace}
          document={document}
          money={money}
          showOpen={!draft && moneyMoves}
        />
      </section>

      <DocumentLinks
        namespace={side.namespace}
        document={document}
        relatedText={relatedText}
        refLink={(ref) => <RefLink side={side} document={ref} />}
        money={money}
        movement={(allocation) => ({
          to: `${side.view.movement.path}${allocation.paymentId}`,
          text: t(side.view.movement.textKey, { number: allocation.paymentNumber ?? '' }),
        })}
        creditPath={side.pathOf}
      />

      {after}

      <ConfirmDelete
        show={confirming}
        title={t('view.deleteTitle')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void onDelete()}
        pending={remove.isPending}
      >
        {deleteText}
      </ConfirmDelete>
    </div>
  );
}
