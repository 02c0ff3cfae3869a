import Big from 'big.js';
import type { ToothStatus, ToothZone } from './enums.ts';

/**
 * Treatment plans' pure rules (issue 41), shared by the server and the plan editor: the phases,
 * the zones an item may name, an item's amount, how its sessions split it to the cent, which
 * odontogram findings need treatment (and which treatment of the price list they suggest), and
 * what carrying out a treatment charts on the tooth. docs/decisions.md "Treatment plans (issue 41)".
 */

export const planPhaseKinds = [
  'urgent',
  'basic',
  'restorative',
  'surgical',
  'prosthetic',
  'orthodontic',
  'maintenance',
] as const;
export type PlanPhaseKind = (typeof planPhaseKinds)[number];

/** A tooth's surfaces, or a zone of the mouth when the item names no tooth. */
export const mouthZones = ['mouth', 'upper', 'lower', 'q1', 'q2', 'q3', 'q4'] as const;
export const planZones = ['mesial', 'distal', 'buccal', 'lingual', 'occlusal', ...mouthZones] as const;
export type PlanZone = (typeof planZones)[number];
const toothSurfaces = new Set<string>(['mesial', 'distal', 'buccal', 'lingual', 'occlusal']);
export const isToothSurface = (zone: string | null | undefined): zone is ToothZone =>
  zone != null && toothSurfaces.has(zone);

export const treatmentPlanStatuses = ['draft', 'presented', 'accepted', 'rejected', 'completed', 'cancelled'] as const;
export type TreatmentPlanStatus = (typeof treatmentPlanStatuses)[number];
export const planSessionStatuses = ['pending', 'scheduled', 'done'] as const;
export type PlanSessionStatus = (typeof planSessionStatuses)[number];

/** unit price × quantity − discount %, rounded half-up to the cent (as a budget line's net amount). */
export function itemAmount(unitPrice: string, quantity: number, discountRate: string): string {
  const gross = new Big(unitPrice).times(quantity);
  return gross.minus(gross.times(discountRate).div(100)).round(2, Big.roundHalfUp).toFixed(2);
}

/**
 * Each session's part of an item's amount: its percentage of the amount rounded DOWN to the cent,
 * and the last session takes what is left, so the parts add up to the amount exactly
 * (40 % / 60 % of 100.05 → 40.02 + 60.03). The shares must add up to 100.
 */
export function splitShares(amount: string, shares: readonly string[]): string[] {
  const total = new Big(amount);
  let given = new Big(0);
  return shares.map((share, index) => {
    if (index === shares.length - 1) return total.minus(given).toFixed(2);
    const part = total.times(share).div(100).round(2, Big.roundDown);
    given = given.plus(part);
    return part.toFixed(2);
  });
}

export const sharesTotal = (shares: readonly string[]) =>
  shares.reduce((sum, share) => sum.plus(share || '0'), new Big(0));

/** Odontogram findings that ask for treatment, and the phase their item goes to. */
export const findingsToTreat: Partial<Record<ToothStatus, PlanPhaseKind>> = {
  caries: 'restorative',
  fractured: 'restorative',
  to_extract: 'surgical',
  retained_root: 'surgical',
  impacted: 'surgical',
};

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/**
 * Which treatment of the price list a finding suggests: the first code of the list that the
 * price list has (exact, case-insensitive), else the first treatment whose name contains one of
 * the words (accents and case ignored), else none (the item is added with a treatment chosen by hand).
 */
export const findingTreatmentRule: Partial<Record<ToothStatus, { codes: string[]; words: string[] }>> = {
  caries: { codes: ['OBT', 'EMP', 'EMC'], words: ['obturacion', 'empaste', 'restauracion', 'composite'] },
  fractured: { codes: ['EMC', 'REC', 'COR'], words: ['reconstruccion', 'restauracion', 'corona'] },
  to_extract: { codes: ['EXT', 'EXQ'], words: ['extraccion', 'exodoncia'] },
  retained_root: { codes: ['EXQ', 'EXT'], words: ['extraccion quirurgica', 'extraccion', 'exodoncia'] },
  impacted: { codes: ['EXQ'], words: ['extraccion quirurgica', 'cordal', 'extraccion'] },
};

export function suggestTreatment<T extends { code: string | null; name: string }>(
  finding: ToothStatus,
  priceList: readonly T[],
): T | null {
  const rule = findingTreatmentRule[finding];
  if (!rule) return null;
  for (const code of rule.codes) {
    const found = priceList.find((treatment) => treatment.code?.toUpperCase() === code);
    if (found) return found;
  }
  for (const word of rule.words) {
    const found = priceList.find((treatment) => fold(treatment.name).includes(word));
    if (found) return found;
  }
  return null;
}

/**
 * What carrying out a treatment charts on its tooth, read from the treatment's code or name (the
 * price list has no such field): an extraction → extracted, a root canal → root_canal, a crown →
 * crown, an implant → implant, a sealant → sealant (on the item's surface), a filling or
 * restoration → filling (on the item's surface, occlusal when none); anything else charts nothing.
 */
const resultRules: { status: ToothStatus; codes: string[]; words: string[] }[] = [
  { status: 'extracted', codes: ['EXT', 'EXQ'], words: ['extraccion', 'exodoncia'] },
  { status: 'root_canal', codes: ['END', 'ENM'], words: ['endodoncia', 'conducto'] },
  { status: 'crown', codes: ['COR'], words: ['corona'] },
  { status: 'implant', codes: ['IMP'], words: ['implante'] },
  { status: 'sealant', codes: ['SEL'], words: ['sellador', 'sellado'] },
  {
    status: 'filling',
    codes: ['OBT', 'EMP', 'EMC', 'REC'],
    words: ['obturacion', 'empaste', 'restauracion', 'composite'],
  },
];

export function resultingMark(
  treatment: { code: string | null; name: string },
  tooth: number | null,
  zone: string | null,
): { tooth: number; zone: ToothZone | null; status: ToothStatus } | null {
  if (tooth === null) return null;
  const code = treatment.code?.toUpperCase() ?? '';
  const name = fold(treatment.name);
  const rule =
    resultRules.find((candidate) => candidate.codes.includes(code)) ??
    resultRules.find((candidate) => candidate.words.some((word) => name.includes(word)));
  if (!rule) return null;
  const onSurface = rule.status === 'filling' || rule.status === 'sealant';
  return {
    tooth,
    zone: onSurface ? (isToothSurface(zone) ? zone : 'occlusal') : null,
    status: rule.status,
  };
}
