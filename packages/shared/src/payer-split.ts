import Big from 'big.js';

/**
 * The split of an invoiced line between the patient and a third-party payer (issue 40): ONE
 * function, used by the API when it issues the two invoices and by the screen's preview, so the
 * figures the front desk sees are the ones invoiced.
 *
 * The amount split is the line's net (quantity × unit price, after its discount, before VAT); each
 * invoice computes the VAT of its own part (medical services are usually exempt, then net = total).
 *
 * Rules (the plan's rule for the line's treatment, else its group's, else the plan's rule for
 * everything else, else no coverage):
 * - percentage p: the payer pays p % of the line, ROUNDED HALF-UP TO THE CENT; the patient pays the
 *   rest (line − payer), so the two always add up to the line to the cent (`payer_half_up`);
 * - fixed f: the payer pays f per unit, at most the line; the patient the rest (`exact`);
 * - copay c: the patient pays c per unit, at most the line; the payer the rest (`exact`).
 * Annual limits, per patient and calendar year of the rule:
 * - sessions N: only the units still within the year's N are covered; the covered share of the
 *   line is line × covered / quantity, rounded half-up to the cent (`covered_share_half_up`), and
 *   the rule applies to that share; the uncovered units are the patient's;
 * - amount A: the payer's part is capped at what is left of A this year (`capped`).
 * Lines of one invoice count against the limit in their order (the second line sees the first).
 */

export type CoverageMode = 'percentage' | 'fixed' | 'copay';
export type CoverageLimitKind = 'none' | 'sessions' | 'amount';

export const roundingRules = ['exact', 'payer_half_up', 'covered_share_half_up', 'capped', 'not_covered'] as const;
export type RoundingRule = (typeof roundingRules)[number];

export interface CoverageTerms {
  id: string;
  mode: CoverageMode;
  value: string;
  limitKind: CoverageLimitKind;
  limitValue: string | null;
  authorizationRequired: boolean;
}

/** What the patient already used of a rule this calendar year (before the lines being split). */
export interface CoverageUsage {
  sessions: string;
  amount: string;
}

export interface SplitLineInput {
  /** The line's net, a decimal string with two decimals. */
  total: string;
  /** Its units (sessions). */
  quantity: string;
  rule: CoverageTerms | null;
}

export interface SplitLineResult {
  ruleId: string | null;
  lineTotal: string;
  payerAmount: string;
  patientAmount: string;
  coveredQuantity: string;
  rounding: RoundingRule;
  /** The year's limit left nothing, or only part of the line, to the payer. */
  limited: boolean;
  authorizationRequired: boolean;
}

const cents = (value: Big) => value.round(2, Big.roundHalfUp);
const minOf = (a: Big, b: Big) => (a.lt(b) ? a : b);

/** One line, against what is left of its rule's annual limit (`usage` is updated in place). */
export function splitLine(line: SplitLineInput, usage: CoverageUsage | undefined): SplitLineResult {
  const total = new Big(line.total);
  const quantity = new Big(line.quantity);
  const rule = line.rule;
  const none = (rounding: RoundingRule, limited = false): SplitLineResult => ({
    ruleId: rule?.id ?? null,
    lineTotal: total.toFixed(2),
    payerAmount: '0.00',
    patientAmount: total.toFixed(2),
    coveredQuantity: '0.00',
    rounding,
    limited,
    authorizationRequired: rule?.authorizationRequired ?? false,
  });
  if (!rule || total.lte(0)) return none('not_covered');
  const used = usage ?? { sessions: '0', amount: '0' };
  let covered = quantity;
  let base = total;
  let rounding: RoundingRule = 'exact';
  let limited = false;
  if (rule.limitKind === 'sessions' && rule.limitValue !== null) {
    const left = new Big(rule.limitValue).minus(used.sessions);
    if (left.lte(0)) return none('not_covered', true);
    if (left.lt(quantity)) {
      covered = left;
      base = cents(total.times(left).div(quantity));
      rounding = 'covered_share_half_up';
      limited = true;
    }
  }
  let payer: Big;
  if (rule.mode === 'percentage') {
    const exact = base.times(rule.value).div(100);
    payer = cents(exact);
    if (!payer.eq(exact) && rounding === 'exact') rounding = 'payer_half_up';
  } else if (rule.mode === 'fixed') {
    payer = minOf(new Big(rule.value).times(covered), base);
  } else {
    payer = base.minus(minOf(new Big(rule.value).times(covered), base));
  }
  if (rule.limitKind === 'amount' && rule.limitValue !== null) {
    const left = new Big(rule.limitValue).minus(used.amount);
    if (left.lte(0)) return none('not_covered', true);
    if (left.lt(payer)) {
      payer = left;
      rounding = 'capped';
      limited = true;
    }
  }
  payer = cents(payer);
  if (usage) {
    usage.sessions = new Big(usage.sessions).plus(payer.gt(0) ? covered : 0).toString();
    usage.amount = new Big(usage.amount).plus(payer).toString();
  }
  return {
    ruleId: rule.id,
    lineTotal: total.toFixed(2),
    payerAmount: payer.toFixed(2),
    patientAmount: total.minus(payer).toFixed(2),
    coveredQuantity: (payer.gt(0) ? covered : new Big(0)).toFixed(2),
    rounding,
    limited,
    authorizationRequired: rule.authorizationRequired,
  };
}

/** The lines of one invoice in order, each rule's year usage carried from line to line. */
export function splitLines(
  lines: readonly SplitLineInput[],
  usage: Readonly<Record<string, CoverageUsage>>,
): { lines: SplitLineResult[]; payerTotal: string; patientTotal: string } {
  const running: Record<string, CoverageUsage> = {};
  for (const [id, value] of Object.entries(usage)) running[id] = { ...value };
  const results = lines.map((line) => {
    if (line.rule && !running[line.rule.id]) running[line.rule.id] = { sessions: '0', amount: '0' };
    return splitLine(line, line.rule ? running[line.rule.id] : undefined);
  });
  return {
    lines: results,
    payerTotal: results.reduce((sum, line) => sum.plus(line.payerAmount), new Big(0)).toFixed(2),
    patientTotal: results.reduce((sum, line) => sum.plus(line.patientAmount), new Big(0)).toFixed(2),
  };
}

/**
 * The plan's rule for a line: its treatment's, else its group's, else the plan's rule for
 * everything else (no treatment, no group), else none.
 */
export function ruleFor<Rule extends { treatmentId: string | null; treatmentGroup: string | null }>(
  rules: readonly Rule[],
  line: { treatmentId: string | null; treatmentGroup: string | null },
): Rule | null {
  const byTreatment = line.treatmentId ? rules.find((rule) => rule.treatmentId === line.treatmentId) : undefined;
  if (byTreatment) return byTreatment;
  const group = line.treatmentGroup?.trim().toLowerCase();
  const byGroup = group
    ? rules.find((rule) => rule.treatmentGroup?.trim().toLowerCase() === group && !rule.treatmentId)
    : undefined;
  if (byGroup) return byGroup;
  return rules.find((rule) => !rule.treatmentId && !rule.treatmentGroup) ?? null;
}
