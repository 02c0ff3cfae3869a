import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../components/form-feedback';
import type { FormProblem, useDocumentDraft } from './document-draft';
import { DocumentFormActions, DocumentLinesCard, DocumentTotalsCard } from './document-form-cards';
import { DocumentPartyField } from './document-form-fields';
import { draftFieldBinder, NotesField, ReturnsGoodsField } from './document-form-parts';
import type { DocumentPartySide, DocumentSideBase } from './document-side';
import type { TypedAmounts } from './line-amounts';
import { useLinesTotals } from './line-amounts';
import type { useDocumentForm } from './use-document-form';

type DocumentForm = ReturnType<typeof useDocumentForm>;

type DraftState<Type extends string, Line extends { key: string }> = ReturnType<typeof useDocumentDraft<Type, Line>>;

/**
 * A document's form, written once for sales and purchases: the problem above it, the document's
 * card (the party, the type, the side's own fields, the related document, returned goods, notes),
 * the lines and the totals with the buttons. The side brings its party picker, its fields and its
 * lines' editors.
 */
export function DocumentFormFrame<Type extends string, Line extends TypedAmounts & { key: string }, Item>({
  side,
  form,
  state,
  types,
  problem,
  submit,
  party,
  fields,
  related,
  returnsGoods,
  linesBefore,
  lineEditors,
  newLine,
  totalsClassName,
  cancelTo,
  pending,
  finalising,
  final,
}: {
  side: DocumentSideBase & { party: Pick<DocumentPartySide<Item, never>, 'Picker' | 'labelKey'> };
  form: DocumentForm;
  state: DraftState<Type, Line>;
  types: readonly Type[];
  problem: FormProblem | null;
  submit: (finalStep: boolean) => Promise<void>;
  /**
   * The party's field, picked with the side's picker: `name` is the request's field its errors
   * come back on (`customerId`, `providerId`), `picked` the text typed so far, `after` a line under it.
   */
  party: {
    name: string;
    picked: { text: string; onText: (text: string) => void };
    onPick: (item: Item) => void;
    after?: ReactNode;
  };
  /** The side's own fields between the type and the related document. */
  fields: ReactNode;
  related: ReactNode;
  returnsGoods: { className: string; testId?: string };
  linesBefore?: ReactNode;
  lineEditors: ReactNode;
  newLine: () => Line;
  totalsClassName?: string;
  cancelTo: string;
  pending: boolean;
  finalising: boolean;
  /** The final step's button (issue, register); none when the user may not take it. */
  final: { textKey: string; testId: string } | null;
}) {
  const { t } = useTranslation(side.namespace);
  const { draft, set } = state;
  const bind = draftFieldBinder(form, side.namespace, state);
  const totals = useLinesTotals(draft.lines);
  const prefix = side.testIdPrefix;
  return (
    <form
      ref={form.formRef}
      className="d-flex flex-column gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        void submit(false);
      }}
      noValidate
      data-testid={`${prefix}-form`}
    >
      {problem ? (
        <FormAlert testId={`${prefix}-problem`}>
          {problem.text}{' '}
          {problem.link ? (
            <Link to={problem.link} data-testid={`${prefix}-existing`}>
              {t('form.openExisting')}
            </Link>
          ) : null}
        </FormAlert>
      ) : null}
      <section className="card">
        <div className="card-header fw-semibold">{t('form.sections.document')}</div>
        <div className="card-body row g-3">
          <div className="col-md-6">
            <DocumentPartyField
              form={form}
              name={party.name}
              label={t(side.party.labelKey)}
              picker={(field) => (
                <side.party.Picker
                  {...field}
                  value={party.picked.text}
                  onText={party.picked.onText}
                  onPick={party.onPick}
                />
              )}
              after={party.after}
            />
          </div>
          <div className="col-md-6">
            {form.label('documentType', t('fields.documentType'), true)}
            <select
              {...form.field('documentType')}
              className={`form-select${form.errors.documentType ? ' is-invalid' : ''}`}
              value={draft.documentType}
              onChange={(event) => set('documentType')(event.target.value as Type)}
              data-testid={`${prefix}-type-select`}
            >
              {types.map((type) => (
                <option key={type} value={type}>
                  {t(`types.${type}`)}
                </option>
              ))}
            </select>
          </div>
          {fields}
          {related}
          {draft.documentType === 'credit_note' ? (
            <ReturnsGoodsField {...bind('returnsGoods')} {...returnsGoods} />
          ) : null}
          <NotesField {...bind('notes')} />
        </div>
      </section>

      <DocumentLinesCard
        namespace={side.namespace}
        onAdd={() => state.addLine(newLine())}
        error={form.errors.lines}
        before={linesBefore}
      >
        {lineEditors}
      </DocumentLinesCard>

      <DocumentTotalsCard
        namespace={side.namespace}
        totals={totals}
        currency={draft.currency}
        testId={`${prefix}-totals`}
        className={totalsClassName}
      >
        <DocumentFormActions
          namespace={side.namespace}
          cancelTo={cancelTo}
          pending={pending}
          finalising={finalising}
          final={final ? { text: t(final.textKey), testId: final.testId, onClick: () => void submit(true) } : null}
        />
      </DocumentTotalsCard>
    </form>
  );
}
