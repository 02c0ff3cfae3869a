import { describe, expect, it } from 'vitest';
import { fdiTeeth, toothStatuses, toothZones } from './enums.ts';
import {
  type ChartEntryLike,
  chartAt,
  chartRows,
  pieceShapes,
  rowsOf,
  scopeAllows,
  sideOfZone,
  statusScopes,
  toothShapes,
  toothSvg,
  zoneAtSide,
  zoneShapes,
} from './odontogram.ts';

let counter = 0;
const entry = (tooth: number, zone: ChartEntryLike['zone'], status: ChartEntryLike['status'], chartedAt: string) => {
  counter += 1;
  return { id: `0190-${String(counter).padStart(4, '0')}`, tooth, zone, status, chartedAt };
};

describe('odontogram chart logic', () => {
  it('puts mesial toward the midline and buccal on the outer side of each arch, in every quadrant', () => {
    // Viewer's left half (patient's right): quadrants 1, 4, 5, 8 → mesial on the right.
    for (const tooth of [11, 18, 41, 48, 51, 85]) {
      expect(sideOfZone(tooth, 'mesial'), String(tooth)).toBe('right');
      expect(sideOfZone(tooth, 'distal'), String(tooth)).toBe('left');
    }
    for (const tooth of [21, 28, 31, 38, 61, 75]) {
      expect(sideOfZone(tooth, 'mesial'), String(tooth)).toBe('left');
      expect(sideOfZone(tooth, 'distal'), String(tooth)).toBe('right');
    }
    for (const tooth of [16, 26, 54, 65]) {
      expect(sideOfZone(tooth, 'buccal')).toBe('top');
      expect(sideOfZone(tooth, 'lingual')).toBe('bottom');
    }
    for (const tooth of [36, 46, 74, 85]) {
      expect(sideOfZone(tooth, 'buccal')).toBe('bottom');
      expect(sideOfZone(tooth, 'lingual')).toBe('top');
    }
    for (const tooth of fdiTeeth) {
      expect(sideOfZone(tooth, 'occlusal')).toBe('center');
      for (const zone of toothZones) expect(zoneAtSide(tooth, sideOfZone(tooth, zone))).toBe(zone);
    }
  });

  it('lays out the 52 teeth in FDI order, the patient’s right on the viewer’s left', () => {
    const all = Object.values(chartRows).flat();
    expect(new Set(all).size).toBe(52);
    expect([...all].sort()).toEqual([...fdiTeeth].sort());
    expect(chartRows.permanentUpper.slice(6, 10)).toEqual([12, 11, 21, 22]);
    expect(chartRows.permanentLower.slice(6, 10)).toEqual([42, 41, 31, 32]);
    expect(rowsOf('mixed')).toEqual(['permanentUpper', 'primaryUpper', 'primaryLower', 'permanentLower']);
  });

  it('knows the scope of every status', () => {
    for (const status of toothStatuses) expect(statusScopes[status]).toBeDefined();
    expect(scopeAllows('caries', 'occlusal')).toBe(true);
    expect(scopeAllows('caries', null)).toBe(false);
    expect(scopeAllows('crown', null)).toBe(true);
    expect(scopeAllows('crown', 'mesial')).toBe(false);
    expect(scopeAllows('healthy', null)).toBe(true);
    expect(scopeAllows('healthy', 'distal')).toBe(true);
    expect(scopeAllows('fractured', 'buccal')).toBe(true);
  });

  it('computes the chart at an instant: the latest entry per tooth and zone, healthy clears', () => {
    const entries = [
      entry(36, 'occlusal', 'caries', '2026-01-10T12:00:00Z'),
      entry(36, 'occlusal', 'filling', '2026-02-10T12:00:00Z'),
      entry(11, null, 'crown', '2026-02-10T12:00:00Z'),
      entry(46, 'distal', 'caries', '2026-01-10T12:00:00Z'),
      entry(46, null, 'healthy', '2026-03-01T12:00:00Z'),
      entry(46, 'mesial', 'caries', '2026-03-05T12:00:00Z'),
      entry(21, 'buccal', 'sealant', '2026-01-10T12:00:00Z'),
      entry(21, 'buccal', 'healthy', '2026-01-11T12:00:00Z'),
    ];
    expect(chartAt(entries, '2026-01-01T00:00:00Z')).toEqual([]);
    const january = chartAt(entries, '2026-01-10T09:00:00-03:00');
    expect(january.map((state) => state.tooth)).toEqual([21, 36, 46]);
    expect(january.find((state) => state.tooth === 36)?.zones.occlusal?.status).toBe('caries');
    const now = chartAt(entries);
    expect(now.map((state) => [state.tooth, state.piece?.status ?? null, Object.keys(state.zones)])).toEqual([
      [11, 'crown', []],
      [36, null, ['occlusal']],
      // The healthy piece cleared the distal caries; the mesial one came after it.
      [46, null, ['mesial']],
    ]);
    expect(now[1]?.zones.occlusal?.status).toBe('filling');
  });

  it('orders entries of one instant by id (UUID v7: written later)', () => {
    const first = { id: 'a', tooth: 16, zone: null, status: 'crown' as const, chartedAt: '2026-01-01T10:00:00Z' };
    const second = {
      id: 'b',
      tooth: 16,
      zone: null,
      status: 'implant' as const,
      chartedAt: '2026-01-01T07:00:00-03:00',
    };
    expect(chartAt([second, first])[0]?.piece?.status).toBe('implant');
  });

  it('draws every status with at least one shape, red or blue, and a tooth as SVG', () => {
    for (const status of toothStatuses) {
      if (status === 'healthy') continue;
      const shapes = statusScopes[status] === 'zone' ? zoneShapes(status, 'center') : pieceShapes(status, true);
      expect(shapes.length, status).toBeGreaterThan(0);
      expect(JSON.stringify(shapes), status).toMatch(/#d63939|#1f5fd1/);
    }
    const state = chartAt([entry(36, 'occlusal', 'caries', '2026-01-01T00:00:00Z')])[0];
    expect(toothShapes(state, 36)).toHaveLength(1);
    expect(toothSvg(36, state)).toMatch(/^<svg[^>]*viewBox="0 0 40 40">.*fill="#d63939".*<\/svg>$/);
  });
});
