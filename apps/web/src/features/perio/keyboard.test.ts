import { emptyTooth, type PerioTooth, teethOfDentition } from '@odontia/shared/perio';
import { describe, expect, it } from 'vitest';
import { initialKeyState, type KeyState, pressKey, walkOf } from './keyboard';

function chart(absent: number[] = []) {
  return new Map<number, PerioTooth>(
    teethOfDentition('adult')
      .filter((tooth) => !absent.includes(tooth))
      .map((tooth) => [tooth, emptyTooth(tooth)]),
  );
}

function type(keys: string[], start?: { state: KeyState; teeth: Map<number, PerioTooth> }) {
  let teeth = start?.teeth ?? chart();
  let state = start?.state ?? initialKeyState(walkOf('adult', teeth));
  for (const key of keys) {
    const result = pressKey(key, state, teeth, 'adult');
    expect(result.handled, key).toBe(true);
    state = result.state;
    if (result.teeth) teeth = result.teeth;
  }
  return { state, teeth };
}

describe('perio keyboard charting', () => {
  it('fills one site per digit and advances in the clinical order', () => {
    const { state, teeth } = type(['3', '2', '4', '5']);
    expect(teeth.get(18)?.sites).toMatchObject({
      distobuccal: { depth: 3 },
      buccal: { depth: 2 },
      mesiobuccal: { depth: 4 },
    });
    expect(teeth.get(17)?.sites.distobuccal.depth).toBe(5);
    expect(state.cursor).toEqual({ tooth: 17, site: 'buccal' });
  });

  it('skips teeth the odontogram shows missing without a key', () => {
    const teeth = chart([17]);
    const { teeth: after, state } = type(['3', '3', '3', '4'], {
      teeth,
      state: initialKeyState(walkOf('adult', teeth)),
    });
    expect(after.get(16)?.sites.distobuccal.depth).toBe(4);
    expect(state.cursor).toEqual({ tooth: 16, site: 'buccal' });
  });

  it('takes a two-digit depth with the "." prefix, margins as recession, "+" for enlargement', () => {
    const { teeth } = type(['.', '2', 'g']);
    expect(teeth.get(18)?.sites.distobuccal.depth).toBe(12);
    const margins = type(['g', '2', '+', '1', '0', '.', '0']);
    expect(margins.teeth.get(18)?.sites).toMatchObject({
      distobuccal: { margin: -2 },
      buccal: { margin: 1 },
      mesiobuccal: { margin: 0 },
    });
    expect(margins.teeth.get(17)?.sites.distobuccal.margin).toBe(-10);
  });

  it('marks bleeding, plaque and suppuration on the site just charted; mobility and furcation per tooth', () => {
    const { teeth } = type(['5', 'b', 'p', '3', 's', 'm', '2', 'f', '2']);
    expect(teeth.get(18)?.sites.distobuccal).toMatchObject({ depth: 5, bleeding: true, plaque: true });
    expect(teeth.get(18)?.sites.buccal).toMatchObject({ depth: 3, suppuration: true, bleeding: false });
    expect(teeth.get(18)).toMatchObject({ mobility: 2, furcation: 2 });
  });

  it('walks the whole mouth: 32 teeth × 6 sites in 192 keys, ending at 48 distolingual', () => {
    const teeth = chart();
    expect(walkOf('adult', teeth)).toHaveLength(192);
    const { state, teeth: after } = type(Array.from({ length: 192 }, () => '3'));
    expect(state.cursor).toEqual({ tooth: 48, site: 'distolingual' });
    expect([...after.values()].every((tooth) => Object.values(tooth.sites).every((site) => site.depth === 3))).toBe(
      true,
    );
  });

  it('moves with the arrows along a strip and between strips', () => {
    const { state } = type(['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown']);
    expect(state.cursor?.tooth).toBe(17);
    expect(state.cursor?.site).toBe('distolingual');
    const back = type(['4', 'Backspace']);
    expect(back.teeth.get(18)?.sites.distobuccal.depth).toBeNull();
    expect(back.state.cursor).toEqual({ tooth: 18, site: 'distobuccal' });
  });
});
