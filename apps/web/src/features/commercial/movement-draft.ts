import '../../lib/zod-setup';
import { normalizeDecimal } from '@odontia/shared/decimal-input';
import type { OpenDocument } from '@odontia/shared/schemas/payments';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ZodType, z } from 'zod';
import { toastApiError, toastErrorText, toastSuccess } from '../../lib/api-toast';
import { fieldErrorsOf } from '../../lib/field-message';
import { isApiError } from '../../lib/http';
import { fromCents, toCents } from './money-format';

/**
 * What the form of a payment to a provider and of a collection from a customer keep alike: the
 * draft in sessionStorage with its Idempotency-Key, the amount and its allocation to open documents.
 */
export interface MovementDraft {
  /** The Idempotency-Key: made once per form, kept with the values it went out with. */
  key: string;
  date: string;
  amount: string;
  currency: string;
  method: string;
  transactionNumber: string;
  status: string;
  notes: string;
  allocations: Record<string, string>;
}

/**
 * A new form's values before its party is picked: today, nothing typed yet, paid, the side's usual
 * method, and the Idempotency-Key of this one form (`<prefix>-<uuid>`).
 */
export function newMovementDraft(prefix: string, today: string, currency: string, method: string): MovementDraft {
  return {
    key: newMovementKey(prefix),
    date: today,
    amount: '',
    currency,
    method,
    transactionNumber: '',
    status: 'paid',
    notes: '',
    allocations: {},
  };
}

/** Another form's Idempotency-Key, once the previous movement is recorded. */
export const newMovementKey = (prefix: string) => `${prefix}-${crypto.randomUUID()}`;

/** Where a kind of movement's form reads its texts and names its test ids. */
export interface MovementFormTexts {
  /** Its own namespace first (`form.*`, `fields.*`); methods and currencies come from `payments`. */
  namespaces: string[];
  /** `payment`, `collection`: `payment-amount`, `collection-save`. */
  testIdPrefix: string;
}

/** The draft, saved to sessionStorage on every change, and a setter of one of its fields. */
export function useStoredDraft<D extends MovementDraft>(storageKey: string, load: () => D) {
  const [draft, setDraft] = useState<D>(load);
  useEffect(() => {
    sessionStorage.setItem(storageKey, JSON.stringify(draft));
  }, [storageKey, draft]);
  const set = <K extends keyof D>(name: K, value: D[K]) => setDraft((current) => ({ ...current, [name]: value }));
  return { draft, setDraft, set };
}

/** The stored draft when there is one (for this party, when a party is asked for), else null. */
export function storedDraft<D extends MovementDraft>(storageKey: string, matches: (stored: D) => boolean): D | null {
  try {
    const stored = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null') as D | null;
    if (stored?.key && matches(stored)) return stored;
  } catch {
    // A broken value: start again.
  }
  return null;
}

/** Cents allocated, and what is left of the amount (negative: allocated more than the amount). */
export function useAllocationSums(draft: MovementDraft) {
  const allocatedCents = useMemo(
    () =>
      Object.values(draft.allocations).reduce((total, value) => {
        const cents = toCents(value || '0');
        return total + (Number.isNaN(cents) ? 0 : cents);
      }, 0),
    [draft.allocations],
  );
  const amountCents = toCents(draft.amount || '0');
  return {
    allocatedCents,
    amountCents,
    remainderCents: (Number.isNaN(amountCents) ? 0 : amountCents) - allocatedCents,
  };
}

/** `cents` spread over the documents in `currency`, oldest due first (the order they come in). */
export function proposeAllocations(documents: OpenDocument[], currency: string, cents: number): Record<string, string> {
  let left = cents;
  const allocations: Record<string, string> = {};
  for (const document of documents) {
    if (left <= 0) break;
    if (document.currency !== currency) continue;
    const take = Math.min(left, toCents(document.openAmount));
    if (take > 0) allocations[document.id] = fromCents(take);
    left -= take;
  }
  return allocations;
}

/** The fields every movement sends, amounts as plain decimals ("12.500,50" → "12500.50"); allocations of zero left out. */
export const movementBody = (draft: MovementDraft) => ({
  date: draft.date,
  amount: normalizeDecimal(draft.amount) ?? draft.amount.trim(),
  currency: draft.currency,
  method: draft.method,
  transactionNumber: draft.transactionNumber.trim() || undefined,
  notes: draft.notes.trim() || undefined,
  status: draft.status,
  allocations: Object.entries(draft.allocations)
    .filter(([, value]) => value.trim() && toCents(value) !== 0)
    .map(([documentId, value]) => ({ documentId, amount: normalizeDecimal(value) ?? value.trim() })),
});

/** The body's issues by top-level field (an allocation's are the allocations'), and over-allocation. */
export function movementIssues(schema: ZodType, candidate: unknown, remainderCents: number): Record<string, string> {
  const parsed = schema.safeParse(candidate);
  const found: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = issue.path[0] === 'allocations' ? 'allocations' : String(issue.path[0] ?? '');
      found[path] ??= issue.message;
    }
  }
  if (remainderCents < 0) found.allocations = 'payment_over_allocation';
  return found;
}

/**
 * Creates the movement with the draft's key. Done: the draft is forgotten and the view opens. A
 * key already used with other values (their answer never came): a new key for these values.
 */
export async function createMovement({
  create,
  storageKey,
  successCode,
  invalidate,
  onCreated,
  setErrors,
  renewKey,
  keyReusedText,
}: {
  create: () => Promise<{ data: { id: string } }>;
  storageKey: string;
  successCode: string;
  invalidate: () => Promise<void>;
  onCreated: (id: string) => void;
  setErrors: (errors: Record<string, string>) => void;
  renewKey: () => void;
  keyReusedText: string;
}) {
  try {
    const answer = await create();
    sessionStorage.removeItem(storageKey);
    toastSuccess(successCode);
    await invalidate();
    onCreated(answer.data.id);
  } catch (error) {
    const fields = fieldErrorsOf(error);
    if (fields.length > 0) setErrors(Object.fromEntries(fields.map((field) => [field.path.split('.')[0], field.code])));
    if (isApiError(error) && error.code === 'idempotency_key_reused') {
      renewKey();
      toastErrorText(keyReusedText);
    } else toastApiError(error);
  }
}

/**
 * Saving a movement's form: the body is checked with the shared schema and against what is
 * allocated, then created with the draft's key (see `createMovement`) and its view opens.
 */
export function useMovementSubmit<Body, TSchema extends ZodType>({
  texts,
  path,
  storageKey,
  schema,
  remainderCents,
  body,
  create,
  successCode,
  invalidate,
  renewKey,
}: {
  texts: MovementFormTexts;
  /** `/payments`, `/collections`: the new movement opens at `<path>/view/<id>`. */
  path: string;
  storageKey: string;
  schema: TSchema;
  remainderCents: number;
  body: () => Body;
  /** Called with the body once the schema accepted it: the request as the contract wants it. */
  create: (body: z.input<TSchema>) => Promise<{ data: { id: string } }>;
  successCode: string;
  invalidate: () => Promise<void>;
  renewKey: () => void;
}) {
  const { t } = useTranslation(texts.namespaces);
  const navigate = useNavigate();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const request = body();
    const found = movementIssues(schema, request, remainderCents);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      if (found.allocations === 'payment_over_allocation') toastErrorText(t('form.overAllocated'));
      return;
    }
    setSaving(true);
    await createMovement({
      create: () => create(request as z.input<TSchema>),
      storageKey,
      successCode,
      invalidate,
      onCreated: (saved) => void navigate(`${path}/view/${saved}`),
      setErrors,
      renewKey,
      keyReusedText: t('form.keyReused'),
    });
    setSaving(false);
  };
  return { errors, saving, submit };
}
