import type { ConditionSale, Currency, PaymentMethod } from '@odontia/shared/enums';
import { useState } from 'react';
import type { ZodType } from 'zod';
import { apiErrorText } from '../../lib/api-toast';
import { isApiError } from '../../lib/http';
import type { useDocumentForm } from './use-document-form';

/** What a document's form holds besides its party, the same on a sale and on a purchase. */
export interface DocumentDraft<Type extends string, Line> {
  documentType: Type;
  pointOfService: string;
  date: string;
  dueDate: string;
  currency: Currency;
  conditionSale: ConditionSale;
  paymentMethod: PaymentMethod | '';
  notes: string;
  relatedDocumentId: string;
  returnsGoods: boolean;
  lines: Line[];
}

/** The draft's fields, one setter for any of them, and its lines added, changed and removed by key. */
export function useDocumentDraft<Type extends string, Line extends { key: string }>(
  initial: () => DocumentDraft<Type, Line>,
) {
  const [draft, setDraft] = useState(initial);
  const set =
    <K extends keyof DocumentDraft<Type, Line>>(name: K) =>
    (value: DocumentDraft<Type, Line>[K]) =>
      setDraft((current) => ({ ...current, [name]: value }));
  const setLines = (change: (lines: Line[]) => Line[]) =>
    setDraft((current) => ({ ...current, lines: change(current.lines) }));
  return {
    draft,
    set,
    setLines,
    setLine: (key: string, change: Partial<Line>) =>
      setLines((lines) => lines.map((line) => (line.key === key ? { ...line, ...change } : line))),
    addLine: (line: Line) => setLines((lines) => [...lines, line]),
    /** The remove button of a line, none while it is the only one. */
    removerOf: (key: string) =>
      draft.lines.length > 1 ? () => setLines((lines) => lines.filter((line) => line.key !== key)) : undefined,
  };
}

/** A problem shown above the form: the server's words and, where it points at one, a document. */
export interface FormProblem {
  text: string;
  link?: string;
}

/**
 * Saving a document's form: a draft, or the final step (issue, register) at once. The request is
 * checked with the shared schema first; a side's own failures become the problem above the form
 * (`ownProblem` answers one, or null for the common 409: a stale version or a rule).
 */
export function useDocumentSubmit<Request, Saved extends { id: string }>({
  form,
  schema,
  request,
  save,
  savedPath,
  onSaved,
  moreIssues,
  ownProblem,
  problemStatuses = [409],
}: {
  form: ReturnType<typeof useDocumentForm>;
  schema: ZodType;
  request: (finalStep: boolean) => Request;
  save: (request: Request) => Promise<{ code?: string; data: Saved }>;
  savedPath: (id: string) => string;
  onSaved: (path: string) => void;
  /** Issues the schema cannot see (a party that was typed but not picked). */
  moreIssues?: (issues: Record<string, string>) => void;
  ownProblem?: (error: unknown) => FormProblem | null;
  /** The statuses whose message shows above the form (a sale's also 404: its party is gone). */
  problemStatuses?: number[];
}) {
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const [finalising, setFinalising] = useState(false);
  const submit = async (finalStep: boolean) => {
    setProblem(null);
    const body = request(finalStep);
    const issues = form.issuesOf(schema, body);
    if (issues) {
      moreIssues?.(issues);
      form.showErrors(issues);
      return;
    }
    form.setErrors({});
    setFinalising(finalStep);
    await form.send(
      () => save(body),
      (saved) => onSaved(savedPath(saved.id)),
      (error) => {
        const own = ownProblem?.(error);
        if (own) {
          setProblem(own);
          return true;
        }
        if (!isApiError(error) || !problemStatuses.includes(error.status)) return false;
        setProblem({ text: apiErrorText(error) });
        return true;
      },
    );
  };
  return { submit, problem, finalising };
}

/**
 * The document's party as picked and the text its picker shows: typing another name forgets the
 * party, and with it the related document (`onForget`), which was that party's.
 */
export function usePickedParty<Party extends { name: string }>(
  initial: Party | null,
  initialText: string,
  onForget: () => void,
) {
  const [party, setParty] = useState<Party | null>(initial);
  const [text, setText] = useState(initialText);
  return {
    party,
    text,
    pick: (picked: Party) => {
      setParty(picked);
      setText(picked.name);
      onForget();
    },
    onText: (next: string) => {
      setText(next);
      if (party && next !== party.name) {
        setParty(null);
        onForget();
      }
    },
  };
}
