import { fdiTeeth, type ToothStatus, type ToothZone, toothStatuses } from './enums.ts';

/**
 * The odontogram's pure logic, shared by the server (validation, the chart at a date, the PDF)
 * and the web (the interactive chart): which statuses go on a zone or on the whole piece, where
 * each zone is drawn for each tooth, the chart as it was at an instant, and the drawing of every
 * mark as a few shapes (the same shapes on screen and on paper).
 */

/** Where a status may be charted: on one of the five zones, on the complete piece, or either. */
export type StatusScope = 'zone' | 'piece' | 'both';

/**
 * The scope table. Lesions and restorations of a surface go on a zone; what concerns the whole
 * tooth (its absence, a crown, an implant, the root…) goes on the piece. 'healthy' clears:
 * on a zone it clears that zone; on the piece it clears the piece and every zone charted before.
 * A fracture can be of one cusp (zone) or of the whole crown (piece).
 */
export const statusScopes: Record<ToothStatus, StatusScope> = {
  healthy: 'both',
  caries: 'zone',
  filling: 'zone',
  sealant: 'zone',
  fractured: 'both',
  missing: 'piece',
  extracted: 'piece',
  implant: 'piece',
  crown: 'piece',
  bridge: 'piece',
  provisional: 'piece',
  root_canal: 'piece',
  retained_root: 'piece',
  supernumerary: 'piece',
  to_extract: 'piece',
  eruption: 'piece',
  impacted: 'piece',
};

export function scopeAllows(status: ToothStatus, zone: ToothZone | null): boolean {
  const scope = statusScopes[status];
  return scope === 'both' || (scope === 'zone') === (zone !== null);
}

/** Red: to be treated. Blue: present or done. */
export type MarkColour = 'red' | 'blue';
export const statusColours: Record<Exclude<ToothStatus, 'healthy'>, MarkColour> = {
  caries: 'red',
  fractured: 'red',
  to_extract: 'red',
  retained_root: 'red',
  impacted: 'red',
  filling: 'blue',
  sealant: 'blue',
  missing: 'blue',
  extracted: 'blue',
  implant: 'blue',
  crown: 'blue',
  bridge: 'blue',
  provisional: 'blue',
  root_canal: 'blue',
  supernumerary: 'blue',
  eruption: 'blue',
};

/** The palette's order: what is charted most often first. */
export const paletteStatuses: readonly ToothStatus[] = [
  'caries',
  'filling',
  'sealant',
  'fractured',
  'crown',
  'root_canal',
  'to_extract',
  'extracted',
  'missing',
  'implant',
  'bridge',
  'provisional',
  'retained_root',
  'supernumerary',
  'eruption',
  'impacted',
  'healthy',
];
if (paletteStatuses.length !== toothStatuses.length) throw new Error('paletteStatuses must list every status');

// ---------------------------------------------------------------------------------------------
// FDI layout

/** Rows of the chart as the dentist faces the patient: the patient's right on the viewer's left. */
export const chartRows = {
  permanentUpper: [18, 17, 16, 15, 14, 13, 12, 11, 21, 22, 23, 24, 25, 26, 27, 28],
  primaryUpper: [55, 54, 53, 52, 51, 61, 62, 63, 64, 65],
  primaryLower: [85, 84, 83, 82, 81, 71, 72, 73, 74, 75],
  permanentLower: [48, 47, 46, 45, 44, 43, 42, 41, 31, 32, 33, 34, 35, 36, 37, 38],
} as const;

export type Dentition = 'permanent' | 'primary' | 'mixed';
export type ChartRowKey = keyof typeof chartRows;

/** The rows shown, top to bottom, for each dentition. */
export function rowsOf(dentition: Dentition): ChartRowKey[] {
  if (dentition === 'permanent') return ['permanentUpper', 'permanentLower'];
  if (dentition === 'primary') return ['primaryUpper', 'primaryLower'];
  return ['permanentUpper', 'primaryUpper', 'primaryLower', 'permanentLower'];
}

const knownTeeth = new Set(fdiTeeth);
export const isFdiTooth = (tooth: number): boolean => knownTeeth.has(tooth);

export const quadrantOf = (tooth: number): number => Math.floor(tooth / 10);
export const isUpper = (tooth: number): boolean => [1, 2, 5, 6].includes(quadrantOf(tooth));
/** Drawn on the viewer's left (the patient's right): quadrants 1, 4, 5, 8. */
export const isViewerLeft = (tooth: number): boolean => [1, 4, 5, 8].includes(quadrantOf(tooth));
export const isPrimary = (tooth: number): boolean => quadrantOf(tooth) >= 5;

export type Side = 'top' | 'bottom' | 'left' | 'right' | 'center';

/**
 * Where a zone is drawn on a tooth: buccal on the outer side of the arch (top for the upper arch,
 * bottom for the lower), lingual/palatal on the inner side, mesial toward the midline (right on
 * the viewer's left half, left on the right half), occlusal in the centre.
 */
export function sideOfZone(tooth: number, zone: ToothZone): Side {
  const upper = isUpper(tooth);
  const left = isViewerLeft(tooth);
  switch (zone) {
    case 'occlusal':
      return 'center';
    case 'buccal':
      return upper ? 'top' : 'bottom';
    case 'lingual':
      return upper ? 'bottom' : 'top';
    case 'mesial':
      return left ? 'right' : 'left';
    case 'distal':
      return left ? 'left' : 'right';
  }
}

/** The zone drawn on a side of a tooth (inverse of sideOfZone). */
export function zoneAtSide(tooth: number, side: Side): ToothZone {
  const zones: ToothZone[] = ['occlusal', 'buccal', 'lingual', 'mesial', 'distal'];
  return zones.find((zone) => sideOfZone(tooth, zone) === side) ?? 'occlusal';
}

// ---------------------------------------------------------------------------------------------
// The chart at an instant

export interface ChartEntryLike {
  id: string;
  tooth: number;
  zone: ToothZone | null;
  status: ToothStatus;
  /** ISO instant. */
  chartedAt: string;
}

export interface ChartMark {
  status: ToothStatus;
  entryId: string;
  chartedAt: string;
}

export interface ToothState {
  tooth: number;
  /** The whole-piece status (never 'healthy': healthy means nothing to show). */
  piece: ChartMark | null;
  zones: Partial<Record<ToothZone, ChartMark>>;
}

const later = (a: ChartEntryLike, b: ChartEntryLike) =>
  a.chartedAt > b.chartedAt || (a.chartedAt === b.chartedAt && a.id > b.id);

/**
 * The chart as it was at `at` (ISO instant): for each tooth and zone the latest entry charted up
 * to then (entries must be the non-voided ones). 'healthy' clears; a healthy piece also clears the
 * zones charted before it. Teeth with nothing to show are left out. Ids are UUID v7, so on an
 * equal instant the later id was written later.
 */
export function chartAt(entries: readonly ChartEntryLike[], at?: string): ToothState[] {
  const latest = new Map<string, ChartEntryLike>();
  for (const entry of entries) {
    if (at !== undefined && new Date(entry.chartedAt).getTime() > new Date(at).getTime()) continue;
    const key = `${entry.tooth}:${entry.zone ?? ''}`;
    const current = latest.get(key);
    if (!current || later(normalised(entry), normalised(current))) latest.set(key, entry);
  }
  const teeth = new Map<number, ToothState>();
  const stateOf = (tooth: number) => {
    let state = teeth.get(tooth);
    if (!state) {
      state = { tooth, piece: null, zones: {} };
      teeth.set(tooth, state);
    }
    return state;
  };
  const pieces = new Map<number, ChartEntryLike>();
  for (const entry of latest.values()) if (entry.zone === null) pieces.set(entry.tooth, entry);
  for (const entry of latest.values()) {
    const mark = { status: entry.status, entryId: entry.id, chartedAt: entry.chartedAt };
    if (entry.zone === null) {
      if (entry.status !== 'healthy') stateOf(entry.tooth).piece = mark;
      continue;
    }
    if (entry.status === 'healthy') continue;
    const piece = pieces.get(entry.tooth);
    if (piece?.status === 'healthy' && later(normalised(piece), normalised(entry))) continue;
    stateOf(entry.tooth).zones[entry.zone] = mark;
  }
  return [...teeth.values()]
    .filter((state) => state.piece || Object.keys(state.zones).length > 0)
    .sort((a, b) => a.tooth - b.tooth);
}

/** Compares instants written with different offsets. */
function normalised(entry: ChartEntryLike): ChartEntryLike {
  return { ...entry, chartedAt: new Date(entry.chartedAt).toISOString() };
}

// ---------------------------------------------------------------------------------------------
// Drawing: a tooth is a square split into four trapezoids around a centre square.

export const toothBox = 40;
const outer = { min: 2, max: 38 };
const inner = { min: 13, max: 27 };

const pts = (points: [number, number][]) => points.map(([x, y]) => `${x},${y}`).join(' ');

/** The polygon of each side of the glyph (viewBox 0 0 40 40). */
export const sidePolygons: Record<Side, string> = {
  top: pts([
    [outer.min, outer.min],
    [outer.max, outer.min],
    [inner.max, inner.min],
    [inner.min, inner.min],
  ]),
  bottom: pts([
    [outer.min, outer.max],
    [outer.max, outer.max],
    [inner.max, inner.max],
    [inner.min, inner.max],
  ]),
  left: pts([
    [outer.min, outer.min],
    [inner.min, inner.min],
    [inner.min, inner.max],
    [outer.min, outer.max],
  ]),
  right: pts([
    [outer.max, outer.min],
    [inner.max, inner.min],
    [inner.max, inner.max],
    [outer.max, outer.max],
  ]),
  center: pts([
    [inner.min, inner.min],
    [inner.max, inner.min],
    [inner.max, inner.max],
    [inner.min, inner.max],
  ]),
};

export const markColourHex: Record<MarkColour, string> = { red: '#d63939', blue: '#1f5fd1' };

/** A shape of a mark, in the glyph's coordinates. */
export type Shape =
  | { type: 'polygon'; points: string; fill: string; fillOpacity?: number; stroke?: string; width?: number }
  | { type: 'line'; x1: number; y1: number; x2: number; y2: number; stroke: string; width: number; dash?: string }
  | { type: 'polyline'; points: string; stroke: string; width: number }
  | {
      type: 'circle';
      cx: number;
      cy: number;
      r: number;
      stroke: string;
      width: number;
      fill?: string;
      dash?: string;
    };

/** How a status is drawn on one zone (side) of the glyph. */
export function zoneShapes(status: ToothStatus, side: Side): Shape[] {
  if (status === 'healthy') return [];
  const colour = markColourHex[statusColours[status]];
  const points = sidePolygons[side];
  switch (status) {
    case 'sealant':
      return [{ type: 'polygon', points, fill: colour, fillOpacity: 0.3, stroke: colour, width: 1.5 }];
    case 'fractured':
      return [{ type: 'polygon', points, fill: colour, fillOpacity: 0.25, stroke: colour, width: 2.5 }];
    default:
      return [{ type: 'polygon', points, fill: colour }];
  }
}

/**
 * How a whole-piece status is drawn over the glyph. `upper`: the root is above the crown (the
 * upper arch), so root marks point up.
 */
export function pieceShapes(status: ToothStatus, upper: boolean): Shape[] {
  if (status === 'healthy') return [];
  const colour = markColourHex[statusColours[status]];
  const rootEnd = upper ? 0 : 40;
  const crownEnd = upper ? 40 : 0;
  const cross: Shape[] = [
    { type: 'line', x1: 3, y1: 3, x2: 37, y2: 37, stroke: colour, width: 3.5 },
    { type: 'line', x1: 37, y1: 3, x2: 3, y2: 37, stroke: colour, width: 3.5 },
  ];
  switch (status) {
    case 'extracted':
    case 'to_extract':
      return cross;
    case 'missing':
      return [{ type: 'line', x1: 1, y1: 20, x2: 39, y2: 20, stroke: colour, width: 4 }];
    case 'crown':
      return [{ type: 'circle', cx: 20, cy: 20, r: 18.5, stroke: colour, width: 3 }];
    case 'provisional':
      return [{ type: 'circle', cx: 20, cy: 20, r: 18.5, stroke: colour, width: 3, dash: '4 3' }];
    case 'root_canal':
      return [{ type: 'line', x1: 20, y1: rootEnd, x2: 20, y2: 20, stroke: colour, width: 3.5 }];
    case 'retained_root':
      return [
        {
          type: 'polygon',
          points: pts([
            [12, rootEnd === 0 ? 4 : 36],
            [28, rootEnd === 0 ? 4 : 36],
            [20, 20],
          ]),
          fill: colour,
          stroke: colour,
          width: 1,
        },
      ];
    case 'bridge':
      return [
        {
          type: 'line',
          x1: 0,
          y1: upper ? 39 : 1,
          x2: 40,
          y2: upper ? 39 : 1,
          stroke: colour,
          width: 3,
        },
      ];
    case 'implant':
      return [
        { type: 'line', x1: 20, y1: rootEnd, x2: 20, y2: 20, stroke: colour, width: 3 },
        ...[8, 14, 20].map(
          (offset): Shape => ({
            type: 'line',
            x1: 13,
            y1: upper ? offset : 40 - offset,
            x2: 27,
            y2: upper ? offset : 40 - offset,
            stroke: colour,
            width: 2.5,
          }),
        ),
      ];
    case 'supernumerary':
      return [
        { type: 'circle', cx: 20, cy: 20, r: 8, stroke: colour, width: 2.5, fill: 'none' },
        { type: 'line', x1: 15, y1: 20, x2: 25, y2: 20, stroke: colour, width: 2.5 },
        { type: 'line', x1: 20, y1: 15, x2: 20, y2: 25, stroke: colour, width: 2.5 },
      ];
    case 'eruption':
      return [
        {
          type: 'polyline',
          points: pts([
            [20, rootEnd === 0 ? 4 : 36],
            [20, crownEnd === 40 ? 34 : 6],
          ]),
          stroke: colour,
          width: 3,
        },
        {
          type: 'polyline',
          points: pts(
            upper
              ? [
                  [12, 26],
                  [20, 34],
                  [28, 26],
                ]
              : [
                  [12, 14],
                  [20, 6],
                  [28, 14],
                ],
          ),
          stroke: colour,
          width: 3,
        },
      ];
    case 'impacted':
      return [
        {
          type: 'polygon',
          points: pts([
            [1, 1],
            [39, 1],
            [39, 39],
            [1, 39],
          ]),
          fill: 'none',
          stroke: colour,
          width: 2.5,
        },
      ];
    case 'fractured':
      return [{ type: 'line', x1: 8, y1: 34, x2: 32, y2: 6, stroke: colour, width: 3.5 }];
    default:
      return [];
  }
}

/** All the shapes of one tooth's state (zones first, the piece's mark on top). */
export function toothShapes(state: ToothState | undefined, tooth: number): Shape[] {
  if (!state) return [];
  const shapes: Shape[] = [];
  for (const [zone, mark] of Object.entries(state.zones) as [ToothZone, ChartMark][]) {
    shapes.push(...zoneShapes(mark.status, sideOfZone(tooth, zone)));
  }
  if (state.piece) shapes.push(...pieceShapes(state.piece.status, isUpper(tooth)));
  return shapes;
}

const escapeAttr = (value: string) => value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** One shape as SVG markup (for the PDF). */
export function shapeSvg(shape: Shape): string {
  switch (shape.type) {
    case 'polygon':
      return `<polygon points="${escapeAttr(shape.points)}" fill="${shape.fill}"${shape.fillOpacity !== undefined ? ` fill-opacity="${shape.fillOpacity}"` : ''}${shape.stroke ? ` stroke="${shape.stroke}" stroke-width="${shape.width ?? 1}"` : ''}/>`;
    case 'line':
      return `<line x1="${shape.x1}" y1="${shape.y1}" x2="${shape.x2}" y2="${shape.y2}" stroke="${shape.stroke}" stroke-width="${shape.width}" stroke-linecap="round"${shape.dash ? ` stroke-dasharray="${shape.dash}"` : ''}/>`;
    case 'polyline':
      return `<polyline points="${escapeAttr(shape.points)}" fill="none" stroke="${shape.stroke}" stroke-width="${shape.width}" stroke-linecap="round" stroke-linejoin="round"/>`;
    case 'circle':
      return `<circle cx="${shape.cx}" cy="${shape.cy}" r="${shape.r}" fill="${shape.fill ?? 'none'}" stroke="${shape.stroke}" stroke-width="${shape.width}"${shape.dash ? ` stroke-dasharray="${shape.dash}"` : ''}/>`;
  }
}

/** A whole tooth (outline, its five zones and its marks) as an SVG document (for the PDF). */
export function toothSvg(tooth: number, state: ToothState | undefined, size = toothBox): string {
  const outline = (Object.keys(sidePolygons) as Side[])
    .map((side) => `<polygon points="${sidePolygons[side]}" fill="#ffffff" stroke="#555555" stroke-width="1"/>`)
    .join('');
  const marks = toothShapes(state, tooth).map(shapeSvg).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 40 40">${outline}${marks}</svg>`;
}
