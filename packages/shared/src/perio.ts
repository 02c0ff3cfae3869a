/**
 * The periodontal chart's pure logic (issue 41), one engine for the server (validation, the
 * indices stored with an exam, the PDF) and the web (the chart, the keyboard walk, the
 * comparison): the six sites, which teeth a dentition charts and which are multi-rooted, the
 * clinical attachment level, the indices of an exam and the change between two exams.
 *
 * Sign convention (docs/decisions.md "Periodontal chart"): the gingival margin (GM) is measured
 * from the cemento-enamel junction (CEJ); a margin apical to the CEJ (recession) is NEGATIVE, a
 * margin coronal to it (enlargement) is POSITIVE. The clinical attachment level is then
 * CAL = PD − GM: a 3 mm pocket with 2 mm of recession (GM −2) has lost 5 mm of attachment; a 5 mm
 * pseudo-pocket over 2 mm of enlargement (GM +2) has lost 3 mm.
 */

/** The six sites of a tooth, as periodontists name them: three buccal, three lingual/palatal. */
export const perioSites = ['distobuccal', 'buccal', 'mesiobuccal', 'distolingual', 'lingual', 'mesiolingual'] as const;
export type PerioSite = (typeof perioSites)[number];
export const buccalSites: readonly PerioSite[] = ['distobuccal', 'buccal', 'mesiobuccal'];
export const lingualSites: readonly PerioSite[] = ['distolingual', 'lingual', 'mesiolingual'];

export const perioDentitions = ['adult', 'primary', 'mixed'] as const;
export type PerioDentition = (typeof perioDentitions)[number];

export const perioExamStatuses = ['draft', 'closed'] as const;
export type PerioExamStatus = (typeof perioExamStatuses)[number];

/** Bounds of the values (the zod contract and the table's checks say the same). */
export const perioBounds = {
  depth: { min: 0, max: 15 },
  margin: { min: -10, max: 10 },
  mobility: { min: 0, max: 3 },
  furcation: { min: 1, max: 3 },
} as const;

/** One site's findings; a depth or margin not charted yet is null. */
export interface PerioSiteValues {
  depth: number | null;
  margin: number | null;
  bleeding: boolean;
  plaque: boolean;
  suppuration: boolean;
}

export interface PerioTooth {
  tooth: number;
  /** Absent at this exam (the odontogram may not know yet): no site counts. */
  missing: boolean;
  implant: boolean;
  mobility: number | null;
  /** Grade I–III, only on a multi-rooted tooth. */
  furcation: number | null;
  sites: Record<PerioSite, PerioSiteValues>;
}

export const emptySite = (): PerioSiteValues => ({
  depth: null,
  margin: null,
  bleeding: false,
  plaque: false,
  suppuration: false,
});

export function emptyTooth(tooth: number): PerioTooth {
  return {
    tooth,
    missing: false,
    implant: false,
    mobility: null,
    furcation: null,
    sites: Object.fromEntries(perioSites.map((site) => [site, emptySite()])) as Record<PerioSite, PerioSiteValues>,
  };
}

// ---------------------------------------------------------------------------------------------
// Teeth

const quadrantOf = (tooth: number) => Math.floor(tooth / 10);
const positionOf = (tooth: number) => tooth % 10;
export const isUpperTooth = (tooth: number): boolean => [1, 2, 5, 6].includes(quadrantOf(tooth));
export const isPrimaryTooth = (tooth: number): boolean => quadrantOf(tooth) >= 5;

/**
 * Teeth with more than one root, where a furcation can be probed: the molars (permanent 6–8,
 * primary 4–5) and the upper first premolars (14, 24).
 */
export function isMultiRooted(tooth: number): boolean {
  const position = positionOf(tooth);
  if (isPrimaryTooth(tooth)) return position >= 4;
  if (position >= 6) return true;
  return position === 4 && isUpperTooth(tooth);
}

/** Arch positions of a quadrant from the midline out; a permanent and a primary quadrant pair up. */
const permanentQuadrantOf = (tooth: number) => (isPrimaryTooth(tooth) ? quadrantOf(tooth) - 4 : quadrantOf(tooth));

/**
 * The teeth a dentition charts, per quadrant from the midline out. Adult: the 32 permanent teeth.
 * Primary: the 20 primary teeth. Mixed (about 6–10 years): the permanent incisors and first
 * molars with the primary canines and molars (24 teeth, one per arch position 1–6).
 */
export function teethOfDentition(dentition: PerioDentition): number[] {
  const out: number[] = [];
  for (const quadrant of [1, 2, 3, 4]) {
    if (dentition === 'adult') for (const position of [1, 2, 3, 4, 5, 6, 7, 8]) out.push(quadrant * 10 + position);
    if (dentition === 'primary') for (const position of [1, 2, 3, 4, 5]) out.push((quadrant + 4) * 10 + position);
    if (dentition === 'mixed') {
      for (const position of [1, 2, 3, 4, 5, 6])
        out.push(position <= 2 || position === 6 ? quadrant * 10 + position : (quadrant + 4) * 10 + position);
    }
  }
  return out;
}

/** Where a tooth sits across its arch, −8 … 8 from the patient's right to left (no zero). */
function archSlot(tooth: number): number {
  const quadrant = permanentQuadrantOf(tooth);
  const position = positionOf(tooth);
  return quadrant === 1 || quadrant === 4 ? -position : position;
}

/** A dentition's upper and lower arch, each as the chart draws it: patient's right (18) on the viewer's left. */
export function archesOf(dentition: PerioDentition): { upper: number[]; lower: number[] } {
  const teeth = teethOfDentition(dentition);
  const sorted = (list: number[]) => [...list].sort((a, b) => archSlot(a) - archSlot(b));
  return {
    upper: sorted(teeth.filter((tooth) => isUpperTooth(tooth))),
    lower: sorted(teeth.filter((tooth) => !isUpperTooth(tooth))),
  };
}

// ---------------------------------------------------------------------------------------------
// The charting order

export interface WalkStep {
  tooth: number;
  site: PerioSite;
}

/**
 * The order a hygienist probes in and the keyboard advances in: the upper buccal side from the
 * patient's right to left (18 → 28), back along the palatal side (28 → 18), then the lower
 * buccal side (48 → 38) and back along the lingual side (38 → 48) — one continuous path, so
 * within each tooth the sites go in the direction of travel (18: distobuccal, buccal,
 * mesiobuccal; 21: mesiobuccal, buccal, distobuccal). Only `present` teeth are visited: a
 * missing tooth costs no key.
 */
export function chartingWalk(dentition: PerioDentition, present: ReadonlySet<number>): WalkStep[] {
  const { upper, lower } = archesOf(dentition);
  const steps: WalkStep[] = [];
  const pass = (teeth: number[], side: 'buccal' | 'lingual', leftToRight: boolean) => {
    const order = leftToRight ? teeth : [...teeth].reverse();
    for (const tooth of order) {
      if (!present.has(tooth)) continue;
      // Viewer's left half is the patient's right: walking left to right there, distal comes first.
      const viewerLeft = archSlot(tooth) < 0;
      const distalFirst = viewerLeft === leftToRight;
      const sites = side === 'buccal' ? buccalSites : lingualSites;
      for (const site of distalFirst ? sites : [...sites].reverse()) steps.push({ tooth, site });
    }
  };
  pass(upper, 'buccal', true);
  pass(upper, 'lingual', false);
  pass(lower, 'buccal', true);
  pass(lower, 'lingual', false);
  return steps;
}

// ---------------------------------------------------------------------------------------------
// Attachment and indices

/** CAL = PD − GM (recession negative): null until both are charted. */
export function attachmentLevel(site: Pick<PerioSiteValues, 'depth' | 'margin'>): number | null {
  if (site.depth === null || site.margin === null) return null;
  return site.depth - site.margin;
}

export interface PerioIndices {
  /** Sites of the teeth charted and not missing (six each). */
  sites: number;
  /** Sites with a probing depth. */
  probedSites: number;
  /** Sites with plaque / bleeding on probing, over `sites`, in % with one decimal. */
  plaquePercent: number;
  bleedingPercent: number;
  suppurationSites: number;
  /** Sites with PD ≥ 4 mm and ≥ 6 mm (the second are also in the first). */
  depth4Sites: number;
  depth6Sites: number;
  /** Mean CAL over the sites with PD and GM, in mm with two decimals; null when none. */
  meanAttachment: number | null;
  /** Mean PD over the probed sites, two decimals; null when none. */
  meanDepth: number | null;
}

const round = (value: number, decimals: number) => {
  const factor = 10 ** decimals;
  return Math.round(value * factor + Number.EPSILON * factor) / factor;
};

/** The exam's indices. Percentages are of every site of the present teeth, charted or not. */
export function perioIndices(teeth: readonly PerioTooth[]): PerioIndices {
  let sites = 0;
  let probed = 0;
  let plaque = 0;
  let bleeding = 0;
  let suppuration = 0;
  let depth4 = 0;
  let depth6 = 0;
  let depthSum = 0;
  let attachmentSum = 0;
  let attachmentCount = 0;
  for (const tooth of teeth) {
    if (tooth.missing) continue;
    for (const name of perioSites) {
      const site = tooth.sites[name];
      sites++;
      if (site.plaque) plaque++;
      if (site.bleeding) bleeding++;
      if (site.suppuration) suppuration++;
      if (site.depth !== null) {
        probed++;
        depthSum += site.depth;
        if (site.depth >= 4) depth4++;
        if (site.depth >= 6) depth6++;
      }
      const cal = attachmentLevel(site);
      if (cal !== null) {
        attachmentSum += cal;
        attachmentCount++;
      }
    }
  }
  const percent = (count: number) => (sites === 0 ? 0 : round((count * 100) / sites, 1));
  return {
    sites,
    probedSites: probed,
    plaquePercent: percent(plaque),
    bleedingPercent: percent(bleeding),
    suppurationSites: suppuration,
    depth4Sites: depth4,
    depth6Sites: depth6,
    meanAttachment: attachmentCount === 0 ? null : round(attachmentSum / attachmentCount, 2),
    meanDepth: probed === 0 ? null : round(depthSum / probed, 2),
  };
}

// ---------------------------------------------------------------------------------------------
// Comparison

export type DepthChange = 'deeper' | 'shallower' | 'same';
export type AttachmentChange = 'lost' | 'gained' | 'same';

export interface PerioSiteChange {
  tooth: number;
  site: PerioSite;
  /** Later − earlier, mm; null when either exam did not chart it. */
  depthDelta: number | null;
  depth: DepthChange | null;
  /** Later CAL − earlier CAL: positive is attachment lost. */
  attachmentDelta: number | null;
  attachment: AttachmentChange | null;
  /** |change| ≥ 2 mm in depth or attachment: what a periodontist calls a real change. */
  significant: boolean;
  bleedingNow: boolean;
  bleedingBefore: boolean;
}

export interface PerioToothChange {
  tooth: number;
  /** Missing now and not before. */
  lost: boolean;
  mobilityDelta: number | null;
  furcationDelta: number;
}

export interface PerioComparison {
  sites: PerioSiteChange[];
  teeth: PerioToothChange[];
  deeperSites: number;
  shallowerSites: number;
  attachmentLostSites: number;
  attachmentGainedSites: number;
  significantSites: number;
  before: PerioIndices;
  after: PerioIndices;
}

/** The threshold of a significant change (the probe's error is about 1 mm). */
export const significantChangeMm = 2;

const delta = (later: number | null, earlier: number | null) =>
  later === null || earlier === null ? null : later - earlier;

/** What changed from `earlier` to `later` (two exams of one patient), per site of the teeth both charted. */
export function comparePerioExams(earlier: readonly PerioTooth[], later: readonly PerioTooth[]): PerioComparison {
  const before = new Map(earlier.map((tooth) => [tooth.tooth, tooth]));
  const sites: PerioSiteChange[] = [];
  const teeth: PerioToothChange[] = [];
  for (const now of later) {
    const then = before.get(now.tooth);
    if (!then) continue;
    teeth.push({
      tooth: now.tooth,
      lost: now.missing && !then.missing,
      mobilityDelta: delta(now.mobility, then.mobility),
      // No furcation involvement is grade 0.
      furcationDelta: (now.furcation ?? 0) - (then.furcation ?? 0),
    });
    if (now.missing || then.missing) continue;
    for (const name of perioSites) {
      const a = then.sites[name];
      const b = now.sites[name];
      const depthDelta = delta(b.depth, a.depth);
      const attachmentDelta = delta(attachmentLevel(b), attachmentLevel(a));
      sites.push({
        tooth: now.tooth,
        site: name,
        depthDelta,
        depth: depthDelta === null ? null : depthDelta > 0 ? 'deeper' : depthDelta < 0 ? 'shallower' : 'same',
        attachmentDelta,
        attachment:
          attachmentDelta === null ? null : attachmentDelta > 0 ? 'lost' : attachmentDelta < 0 ? 'gained' : 'same',
        significant:
          Math.abs(depthDelta ?? 0) >= significantChangeMm || Math.abs(attachmentDelta ?? 0) >= significantChangeMm,
        bleedingNow: b.bleeding,
        bleedingBefore: a.bleeding,
      });
    }
  }
  return {
    sites,
    teeth,
    deeperSites: sites.filter((site) => site.depth === 'deeper').length,
    shallowerSites: sites.filter((site) => site.depth === 'shallower').length,
    attachmentLostSites: sites.filter((site) => site.attachment === 'lost').length,
    attachmentGainedSites: sites.filter((site) => site.attachment === 'gained').length,
    significantSites: sites.filter((site) => site.significant).length,
    before: perioIndices(earlier),
    after: perioIndices(later),
  };
}
