import { describe, expect, it } from 'vitest';
import {
  attachmentLevel,
  chartingWalk,
  comparePerioExams,
  emptyTooth,
  isMultiRooted,
  type PerioTooth,
  perioIndices,
  teethOfDentition,
} from './perio.ts';
import { perioChartSvg } from './perio-svg.ts';

/** A tooth with the same depth and margin on every site, and some sites flagged. */
function tooth(
  number: number,
  depth: number | null,
  margin: number | null,
  flags: { bleeding?: string[]; plaque?: string[]; suppuration?: string[] } = {},
): PerioTooth {
  const base = emptyTooth(number);
  for (const [name, site] of Object.entries(base.sites)) {
    site.depth = depth;
    site.margin = margin;
    site.bleeding = flags.bleeding?.includes(name) ?? false;
    site.plaque = flags.plaque?.includes(name) ?? false;
    site.suppuration = flags.suppuration?.includes(name) ?? false;
  }
  return base;
}

describe('the periodontal engine', () => {
  it('computes CAL as PD − GM with recession negative', () => {
    expect(attachmentLevel({ depth: 3, margin: -2 })).toBe(5);
    expect(attachmentLevel({ depth: 5, margin: 2 })).toBe(3);
    expect(attachmentLevel({ depth: 4, margin: 0 })).toBe(4);
    expect(attachmentLevel({ depth: 4, margin: null })).toBeNull();
    expect(attachmentLevel({ depth: null, margin: -1 })).toBeNull();
  });

  it('knows the multi-rooted teeth', () => {
    expect([16, 17, 18, 26, 36, 46, 14, 24, 54, 85].every(isMultiRooted)).toBe(true);
    expect([11, 13, 15, 34, 44, 25, 53, 81].some(isMultiRooted)).toBe(false);
  });

  it('lists the teeth of each dentition', () => {
    expect(teethOfDentition('adult')).toHaveLength(32);
    expect(teethOfDentition('primary')).toHaveLength(20);
    const mixed = teethOfDentition('mixed');
    expect(mixed).toHaveLength(24);
    expect(mixed.slice(0, 6)).toEqual([11, 12, 53, 54, 55, 16]);
  });

  it('walks buccal 18→28, palatal 28→18, lower buccal 48→38, lingual 38→48, skipping absent teeth', () => {
    const present = new Set(teethOfDentition('adult').filter((t) => t !== 17 && t !== 36));
    const walk = chartingWalk('adult', present);
    expect(walk).toHaveLength(30 * 6);
    expect(walk.slice(0, 4)).toEqual([
      { tooth: 18, site: 'distobuccal' },
      { tooth: 18, site: 'buccal' },
      { tooth: 18, site: 'mesiobuccal' },
      { tooth: 16, site: 'distobuccal' },
    ]);
    // Across the midline: 11 ends mesially, 21 starts mesially.
    const at21 = walk.findIndex((step) => step.tooth === 21);
    expect(walk.slice(at21 - 1, at21 + 3).map((s) => `${s.tooth}${s.site}`)).toEqual([
      '11mesiobuccal',
      '21mesiobuccal',
      '21buccal',
      '21distobuccal',
    ]);
    // Back along the palate from 28.
    expect(walk[15 * 3]).toEqual({ tooth: 28, site: 'distolingual' });
    expect(walk[30 * 3]).toEqual({ tooth: 48, site: 'distobuccal' });
    expect(walk.at(-1)).toEqual({ tooth: 48, site: 'distolingual' });
    expect(walk.some((step) => step.tooth === 17 || step.tooth === 36)).toBe(false);
  });

  it('computes the indices of a known exam exactly', () => {
    // 4 teeth (24 sites) + one missing tooth that does not count.
    const teeth = [
      tooth(16, 5, -1, { bleeding: ['distobuccal', 'buccal'], plaque: ['buccal'] }),
      tooth(11, 2, 0, { plaque: ['lingual', 'mesiolingual'] }),
      tooth(26, 6, -2, { bleeding: ['mesiobuccal'], suppuration: ['mesiobuccal'] }),
      tooth(46, 3, null),
      { ...tooth(36, 9, -4, { bleeding: ['buccal'] }), missing: true },
    ];
    const indices = perioIndices(teeth);
    expect(indices).toEqual({
      sites: 24,
      probedSites: 24,
      // 3 of 24 = 12.5 %; 3 of 24 = 12.5 %
      plaquePercent: 12.5,
      bleedingPercent: 12.5,
      suppurationSites: 1,
      depth4Sites: 12,
      depth6Sites: 6,
      // CAL: 16 → 6 (×6), 11 → 2 (×6), 26 → 8 (×6); 46 has no margin: (36 + 12 + 48) / 18 = 5.33
      meanAttachment: 5.33,
      // (30 + 12 + 36 + 18) / 24 = 4
      meanDepth: 4,
    });
    expect(perioIndices([tooth(11, null, null, { bleeding: ['buccal'] })])).toMatchObject({
      sites: 6,
      probedSites: 0,
      bleedingPercent: 16.7,
      meanAttachment: null,
      meanDepth: null,
    });
    expect(perioIndices([])).toMatchObject({ sites: 0, plaquePercent: 0, bleedingPercent: 0 });
  });

  it('compares two exams site by site', () => {
    const earlier = [tooth(16, 4, -1), tooth(11, 3, 0), { ...tooth(21, 2, 0), mobility: 1 }];
    const later = [
      { ...tooth(16, 6, -1), furcation: 2 },
      tooth(11, 2, -2),
      { ...tooth(21, 2, 0), mobility: 2, missing: true },
    ];
    const comparison = comparePerioExams(earlier, later);
    const site16 = comparison.sites.find((site) => site.tooth === 16 && site.site === 'buccal');
    expect(site16).toMatchObject({
      depthDelta: 2,
      depth: 'deeper',
      attachmentDelta: 2,
      attachment: 'lost',
      significant: true,
    });
    const site11 = comparison.sites.find((site) => site.tooth === 11 && site.site === 'lingual');
    // PD 3 → 2 (shallower) but recession 0 → −2: CAL 3 → 4, attachment lost 1 mm.
    expect(site11).toMatchObject({
      depthDelta: -1,
      depth: 'shallower',
      attachmentDelta: 1,
      attachment: 'lost',
      significant: false,
    });
    expect(comparison).toMatchObject({
      deeperSites: 6,
      shallowerSites: 6,
      attachmentLostSites: 12,
      attachmentGainedSites: 0,
      significantSites: 6,
    });
    expect(comparison.teeth.find((t) => t.tooth === 21)).toEqual({
      tooth: 21,
      lost: true,
      mobilityDelta: 1,
      furcationDelta: 0,
    });
    expect(comparison.teeth.find((t) => t.tooth === 16)).toMatchObject({ furcationDelta: 2 });
    expect(comparison.sites.some((site) => site.tooth === 21)).toBe(false);
  });

  it('draws the chart with margin and pocket lines and bleeding dots', () => {
    const svg = perioChartSvg([tooth(16, 5, -1, { bleeding: ['buccal'] })], {
      dentition: 'adult',
      absent: new Set([17]),
      labels: { buccal: 'V', palatal: 'P', lingual: 'L' },
    });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('stroke="#1f5fd1"');
    expect(svg).toContain('stroke="#d63939"');
    expect(svg.match(/fill="#d63939"\/>/g)).toHaveLength(1);
  });
});
