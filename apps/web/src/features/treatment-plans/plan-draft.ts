import { normalizeDecimal } from '@odontia/shared/decimal-input';
import {
  isToothSurface,
  itemAmount,
  type PlanPhaseKind,
  sharesTotal,
  splitShares,
} from '@odontia/shared/treatment-plans';
import Big from 'big.js';
import type { Plan, PlanBody, PlanSuggestion } from './api';

/**
 * The plan editor's draft: every field as typed (amounts as the user types them, "12.500,50"),
 * turned into the contract's body on save; the amounts the editor shows come from the same shared
 * functions the server stores them with (itemAmount, splitShares).
 */

export interface DraftSession {
  key: string;
  description: string;
  share: string;
}
export interface DraftItem {
  key: string;
  tooth: string;
  zone: string;
  treatmentId: string;
  description: string;
  unitPrice: string;
  quantity: string;
  discount: string;
  sessions: DraftSession[];
}
export interface DraftPhase {
  key: string;
  kind: PlanPhaseKind;
  name: string;
  items: DraftItem[];
}
export interface DraftAlternative {
  key: string;
  label: string;
  phases: DraftPhase[];
}
export interface PlanDraft {
  title: string;
  professionalId: string;
  notes: string;
  version: number | null;
  alternatives: DraftAlternative[];
}

let counter = 0;
export const draftKey = () => {
  counter += 1;
  return `k${counter}`;
};

export const newSession = (share = '100'): DraftSession => ({ key: draftKey(), description: '', share });

export const newItem = (values: Partial<DraftItem> = {}): DraftItem => ({
  key: draftKey(),
  tooth: '',
  zone: '',
  treatmentId: '',
  description: '',
  unitPrice: '',
  quantity: '1',
  discount: '0',
  sessions: [newSession()],
  ...values,
});

export const newPhase = (kind: PlanPhaseKind, name: string): DraftPhase => ({ key: draftKey(), kind, name, items: [] });

export const newAlternative = (label: string, phaseName: string): DraftAlternative => ({
  key: draftKey(),
  label,
  phases: [newPhase('basic', phaseName)],
});

export function draftOf(plan: Plan): PlanDraft {
  return {
    title: plan.title,
    professionalId: plan.professionalId,
    notes: plan.notes ?? '',
    version: plan.version,
    alternatives: plan.alternatives.map((alternative) => ({
      key: draftKey(),
      label: alternative.label,
      phases: alternative.phases.map((phase) => ({
        key: draftKey(),
        kind: phase.kind,
        name: phase.name,
        items: phase.items.map((item) => ({
          key: draftKey(),
          tooth: item.tooth === null ? '' : String(item.tooth),
          zone: item.zone ?? '',
          treatmentId: item.treatmentId,
          description: item.description,
          unitPrice: item.unitPrice,
          quantity: String(item.quantity),
          discount: String(Number(item.discountRate)),
          sessions: item.sessions.map((session) => ({
            key: draftKey(),
            description: session.description === item.description ? '' : session.description,
            share: String(Number(session.sharePercent)),
          })),
        })),
      })),
    })),
  };
}

/** A typed decimal, or null when it is not one. */
export const decimalOf = (value: string) => normalizeDecimal(value.trim());

/** The item's amount as the server will store it, or null while a number is not valid. */
export function draftAmount(item: DraftItem): string | null {
  const price = decimalOf(item.unitPrice);
  const quantity = Number(item.quantity);
  const discount = item.discount.trim() === '' ? '0' : decimalOf(item.discount);
  if (!price || !/^\d+(\.\d{1,2})?$/.test(price) || !Number.isInteger(quantity) || quantity < 1) return null;
  if (!discount || Number(discount) > 100) return null;
  return itemAmount(price, quantity, discount);
}

/** Each session's part, when the shares add up to 100. */
export function draftParts(item: DraftItem): string[] | null {
  const amount = draftAmount(item);
  const shares = item.sessions.map((session) => decimalOf(session.share) ?? '');
  if (!amount || shares.some((share) => share === '') || !sharesTotal(shares).eq(100)) return null;
  return splitShares(amount, shares);
}

export const alternativeTotal = (alternative: DraftAlternative) =>
  alternative.phases
    .flatMap((phase) => phase.items)
    .reduce((sum, item) => sum.plus(draftAmount(item) ?? '0'), new Big(0))
    .toFixed(2);

export function bodyOf(draft: PlanDraft): PlanBody & { version?: number } {
  return {
    title: draft.title,
    professionalId: draft.professionalId,
    notes: draft.notes.trim() === '' ? null : draft.notes,
    ...(draft.version === null ? {} : { version: draft.version }),
    alternatives: draft.alternatives.map((alternative) => ({
      label: alternative.label,
      phases: alternative.phases.map((phase) => ({
        kind: phase.kind,
        name: phase.name,
        items: phase.items.map((item) => ({
          tooth: item.tooth.trim() === '' ? null : Number(item.tooth),
          zone: (item.zone === '' ? null : item.zone) as never,
          treatmentId: item.treatmentId,
          description: item.description.trim() === '' ? null : item.description,
          unitPrice: item.unitPrice,
          quantity: item.quantity as unknown as number,
          discountRate: item.discount.trim() === '' ? '0' : item.discount,
          sessions: item.sessions.map((session) => ({
            description: session.description.trim() === '' ? null : session.description,
            sharePercent: session.share,
          })),
        })),
      })),
    })),
  };
}

/** Adds the odontogram's suggestions to the alternative, each in a phase of its kind (made when missing). */
export function withSuggestions(
  alternative: DraftAlternative,
  suggestions: PlanSuggestion[],
  phaseName: (kind: PlanPhaseKind) => string,
): DraftAlternative {
  const phases = alternative.phases.map((phase) => ({ ...phase, items: [...phase.items] }));
  for (const suggestion of suggestions) {
    let phase = phases.find((candidate) => candidate.kind === suggestion.phaseKind);
    if (!phase) {
      phase = newPhase(suggestion.phaseKind, phaseName(suggestion.phaseKind));
      phases.push(phase);
    }
    phase.items.push(
      newItem({
        tooth: String(suggestion.tooth),
        zone: isToothSurface(suggestion.zone) ? suggestion.zone : '',
        treatmentId: suggestion.treatmentId ?? '',
        unitPrice: suggestion.unitPrice ?? '',
      }),
    );
  }
  return { ...alternative, phases };
}
