import { chartRows } from '@odontia/shared/odontogram';
import { describe, expect, it } from 'vitest';
import { applyMarks, neighbourTooth } from './chart-state';

describe('odontogram chart state on the web', () => {
  it('applies marks optimistically like the server: healthy clears, untouched teeth keep their object', () => {
    const crown = { tooth: 11, piece: { status: 'crown' as const, entryId: 'a', chartedAt: '' }, zones: {} };
    const caries = {
      tooth: 36,
      piece: null,
      zones: { occlusal: { status: 'caries' as const, entryId: 'b', chartedAt: '' } },
    };
    const next = applyMarks([crown, caries], [{ tooth: 36, zone: 'mesial', status: 'filling' }], 'now');
    expect(next[0]).toBe(crown);
    expect(Object.keys(next[1]?.zones ?? {})).toEqual(['occlusal', 'mesial']);
    const cleared = applyMarks(next, [{ tooth: 36, zone: null, status: 'healthy' }], 'now');
    expect(cleared.map((state) => state.tooth)).toEqual([11]);
    const zoneCleared = applyMarks([caries], [{ tooth: 36, zone: 'occlusal', status: 'healthy' }], 'now');
    expect(zoneCleared).toEqual([]);
  });

  it('moves between teeth with the arrows, across rows of different lengths', () => {
    const rows = [chartRows.permanentUpper, chartRows.primaryUpper, chartRows.primaryLower, chartRows.permanentLower];
    expect(neighbourTooth(rows, 11, 'ArrowRight')).toBe(21);
    expect(neighbourTooth(rows, 11, 'ArrowLeft')).toBe(12);
    expect(neighbourTooth(rows, 18, 'ArrowLeft')).toBe(18);
    expect(neighbourTooth(rows, 11, 'ArrowDown')).toBe(51);
    expect(neighbourTooth(rows, 51, 'ArrowUp')).toBe(11);
    expect(neighbourTooth(rows, 85, 'ArrowDown')).toBe(45);
    expect(neighbourTooth(rows, 36, 'ArrowDown')).toBe(36);
    expect(neighbourTooth([chartRows.permanentUpper, chartRows.permanentLower], 26, 'ArrowDown')).toBe(36);
    expect(neighbourTooth(rows, 24, 'End')).toBe(28);
  });
});
