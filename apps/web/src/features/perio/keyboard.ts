import {
  archesOf,
  buccalSites,
  chartingWalk,
  isMultiRooted,
  lingualSites,
  type PerioDentition,
  type PerioSite,
  type PerioTooth,
  perioBounds,
  type WalkStep,
} from '@odontia/shared/perio';

/**
 * Keyboard charting of a periodontal exam (issue 41), as pure functions of the chart's state so
 * they are tested without a browser (keyboard.test.ts). docs/decisions.md "Periodontal chart":
 *
 * - A digit fills the field (probing depth, or gingival margin after `g`) of the current site
 *   and moves to the next site in the clinical order (`chartingWalk`): one key per value.
 * - A two-digit depth (10–15 mm): `.` then the units digit (`.` `2` is 12 mm).
 * - The margin: a digit is a recession of that many mm (stored negative, `2` is −2); `+` then a
 *   digit is a margin coronal to the junction (`+` `2` is +2); `.` `0` is a 10 mm recession.
 * - `b`, `p`, `s` toggle bleeding, plaque, suppuration on the site just charted (the one the
 *   last digit went into, as "four, bleeds" is dictated), else on the current site.
 * - `m` then 0–3: mobility of that site's tooth; `f` then 0–3: furcation (0 clears), multi-rooted
 *   teeth only; `i` toggles the implant flag.
 * - `g` switches between depth and margin; arrows move freely (left/right along the strip,
 *   up/down between strips); Backspace clears the previous site and goes back to it; Home goes to
 *   the first site. Missing teeth are not in the walk: no key is spent on them.
 */

export type PerioField = 'depth' | 'margin';
type Pending = null | 'ten' | 'plus' | 'mobility' | 'furcation';

export interface Cursor {
  tooth: number;
  site: PerioSite;
}

export interface KeyState {
  cursor: Cursor | null;
  field: PerioField;
  pending: Pending;
  /** The site the last digit went into (b/p/s/m/f apply to it), until the cursor is moved by hand. */
  last: Cursor | null;
}

export const initialKeyState = (walk: readonly WalkStep[]): KeyState => ({
  cursor: walk[0] ?? null,
  field: 'depth',
  pending: null,
  last: null,
});

export type TeethMap = ReadonlyMap<number, PerioTooth>;

const same = (a: Cursor | null, b: Cursor | null) => !!a && !!b && a.tooth === b.tooth && a.site === b.site;

/** The strips as drawn, each a list of sites from the viewer's left to right. */
export function stripsOf(dentition: PerioDentition, present: ReadonlySet<number>): Cursor[][] {
  const { upper, lower } = archesOf(dentition);
  const strip = (teeth: number[], sites: readonly PerioSite[]) =>
    teeth
      .filter((tooth) => present.has(tooth))
      .flatMap((tooth) => {
        const viewerLeft = [1, 4, 5, 8].includes(Math.floor(tooth / 10));
        const ordered = viewerLeft ? sites : [...sites].reverse();
        return ordered.map((site) => ({ tooth, site }));
      });
  return [strip(upper, buccalSites), strip(upper, lingualSites), strip(lower, lingualSites), strip(lower, buccalSites)];
}

export function walkOf(dentition: PerioDentition, teeth: TeethMap): WalkStep[] {
  const present = new Set([...teeth.values()].filter((tooth) => !tooth.missing).map((tooth) => tooth.tooth));
  return chartingWalk(dentition, present);
}

export interface KeyResult {
  state: KeyState;
  /** The teeth after the key, when it changed a value. */
  teeth?: Map<number, PerioTooth>;
  /** Whether the key was the chart's (the page should not also act on it). */
  handled: boolean;
}

function withTooth(
  teeth: TeethMap,
  number: number,
  change: (tooth: PerioTooth) => PerioTooth,
): Map<number, PerioTooth> {
  const next = new Map(teeth);
  const tooth = teeth.get(number);
  if (tooth) next.set(number, change(tooth));
  return next;
}

function withSite(
  teeth: TeethMap,
  at: Cursor,
  change: (site: PerioTooth['sites'][PerioSite]) => PerioTooth['sites'][PerioSite],
): Map<number, PerioTooth> {
  return withTooth(teeth, at.tooth, (tooth) => ({
    ...tooth,
    sites: { ...tooth.sites, [at.site]: change(tooth.sites[at.site]) },
  }));
}

const clamp = (value: number, bounds: { min: number; max: number }) =>
  Math.max(bounds.min, Math.min(bounds.max, value));

/** What a key does on the chart. */
export function pressKey(key: string, state: KeyState, teeth: TeethMap, dentition: PerioDentition): KeyResult {
  const walk = walkOf(dentition, teeth);
  const index = state.cursor ? walk.findIndex((step) => same(step, state.cursor)) : -1;
  const target = state.last ?? state.cursor;
  const unhandled = { state, handled: false };
  if (!state.cursor || walk.length === 0) return unhandled;

  if (/^[0-9]$/.test(key)) {
    const digit = Number(key);
    if (state.pending === 'mobility' || state.pending === 'furcation') {
      const at = target ?? state.cursor;
      const pending = state.pending;
      const next = { ...state, pending: null };
      if (digit > 3) return { state: next, handled: true };
      if (pending === 'furcation' && !isMultiRooted(at.tooth)) return { state: next, handled: true };
      return {
        state: next,
        handled: true,
        teeth: withTooth(teeth, at.tooth, (tooth) =>
          pending === 'mobility' ? { ...tooth, mobility: digit } : { ...tooth, furcation: digit === 0 ? null : digit },
        ),
      };
    }
    let value: number;
    if (state.field === 'depth') {
      value = clamp(state.pending === 'ten' ? 10 + digit : digit, perioBounds.depth);
    } else if (state.pending === 'plus') {
      value = digit;
    } else {
      value = clamp(-(state.pending === 'ten' ? 10 + digit : digit), perioBounds.margin);
      if (value === 0) value = 0;
    }
    const field = state.field;
    const nextTeeth = withSite(teeth, state.cursor, (site) => ({ ...site, [field]: value }));
    const following = walk[Math.min(index + 1, walk.length - 1)] ?? state.cursor;
    return {
      state: {
        ...state,
        pending: null,
        last: state.cursor,
        cursor: index + 1 < walk.length ? following : state.cursor,
      },
      teeth: nextTeeth,
      handled: true,
    };
  }

  switch (key) {
    case '.':
      return { state: { ...state, pending: 'ten' }, handled: true };
    case '+':
      return state.field === 'margin' ? { state: { ...state, pending: 'plus' }, handled: true } : unhandled;
    case 'm':
      return { state: { ...state, pending: 'mobility' }, handled: true };
    case 'f':
      return { state: { ...state, pending: 'furcation' }, handled: true };
    case 'g':
      return {
        state: { ...state, field: state.field === 'depth' ? 'margin' : 'depth', pending: null, last: null },
        handled: true,
      };
    case 'b':
    case 'p':
    case 's': {
      const flag = key === 'b' ? 'bleeding' : key === 'p' ? 'plaque' : 'suppuration';
      const at = target ?? state.cursor;
      return {
        state: { ...state, pending: null },
        teeth: withSite(teeth, at, (site) => ({ ...site, [flag]: !site[flag] })),
        handled: true,
      };
    }
    case 'i': {
      const at = target ?? state.cursor;
      return {
        state: { ...state, pending: null },
        teeth: withTooth(teeth, at.tooth, (tooth) => ({ ...tooth, implant: !tooth.implant })),
        handled: true,
      };
    }
    case 'Backspace': {
      const back = walk[Math.max(index - 1, 0)] ?? state.cursor;
      const field = state.field;
      return {
        state: { ...state, cursor: back, last: null, pending: null },
        teeth: withSite(teeth, back, (site) => ({ ...site, [field]: null })),
        handled: true,
      };
    }
    case 'Home':
      return { state: { ...state, cursor: walk[0] ?? state.cursor, last: null, pending: null }, handled: true };
    case 'ArrowLeft':
    case 'ArrowRight':
    case 'ArrowUp':
    case 'ArrowDown': {
      const present = new Set(walk.map((step) => step.tooth));
      const strips = stripsOf(dentition, present);
      const row = strips.findIndex((strip) => strip.some((cell) => same(cell, state.cursor)));
      if (row < 0) return unhandled;
      const strip = strips[row] ?? [];
      const column = strip.findIndex((cell) => same(cell, state.cursor));
      let cursor: Cursor | undefined;
      if (key === 'ArrowLeft') cursor = strip[Math.max(column - 1, 0)];
      else if (key === 'ArrowRight') cursor = strip[Math.min(column + 1, strip.length - 1)];
      else {
        const nextRow = strips[key === 'ArrowUp' ? Math.max(row - 1, 0) : Math.min(row + 1, strips.length - 1)] ?? [];
        // The same place across the chart, in proportion (the arches may differ in length).
        const ratio = strip.length > 1 ? column / (strip.length - 1) : 0;
        cursor = nextRow[Math.round(ratio * Math.max(nextRow.length - 1, 0))];
      }
      return { state: { ...state, cursor: cursor ?? state.cursor, last: null, pending: null }, handled: true };
    }
    case 'Escape':
      return state.pending ? { state: { ...state, pending: null }, handled: true } : unhandled;
    default:
      return unhandled;
  }
}
