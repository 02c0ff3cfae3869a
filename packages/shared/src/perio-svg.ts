import {
  archesOf,
  buccalSites,
  isMultiRooted,
  lingualSites,
  type PerioDentition,
  type PerioSite,
  type PerioTooth,
} from './perio.ts';

/**
 * The periodontal chart drawn as periodontists read it (issue 41), as one SVG text so the screen
 * and the PDF draw the same thing: four strips — the upper arch's buccal and palatal sides (roots
 * up), the lower arch's lingual and buccal sides (roots down) — each tooth with its cemento-enamel
 * junction (the grey line), the gingival margin (blue line) and the bottom of the pockets (red
 * line, the pocket shaded between them), bleeding (red dots), plaque (blue dots), suppuration
 * (yellow dots), mobility and furcation under the number. 1 mm is `scale` px.
 */

export interface PerioSvgOptions {
  dentition: PerioDentition;
  /** Teeth the odontogram shows absent: drawn faded, no values. */
  absent?: ReadonlySet<number>;
  /** The site under the keyboard's cursor. */
  cursor?: { tooth: number; site: PerioSite } | null;
  /** Sites changed since the exam compared with, by `tooth:site`: deeper (or attachment lost) or shallower. */
  changes?: ReadonlyMap<string, 'worse' | 'better'>;
  /** One arch only (the screen puts each arch between its rows of figures); default both. */
  arch?: 'upper' | 'lower';
  /** Strip labels in the reader's language. */
  labels: { buccal: string; palatal: string; lingual: string };
}

const toothWidth = 34;
const scale = 3;
const stripHeight = 104;
const labelWidth = 0;
const gap = 8;
const cejOffset = 66;

const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

type Strip = { teeth: number[]; sites: readonly PerioSite[]; rootsUp: boolean; label: string };

/** x of a site within its tooth: distal on the side away from the midline. */
function siteX(index: number, tooth: number, site: PerioSite): number {
  const left = index * toothWidth + labelWidth;
  const viewerLeft = [1, 4, 5, 8].includes(Math.floor(tooth / 10));
  const order = site.startsWith('disto') ? 0 : site === 'buccal' || site === 'lingual' ? 1 : 2;
  const slot = viewerLeft ? order : 2 - order;
  return left + 6 + slot * ((toothWidth - 12) / 2);
}

export function perioChartSvg(teeth: readonly PerioTooth[], options: PerioSvgOptions): string {
  const { upper, lower } = archesOf(options.dentition);
  const byTooth = new Map(teeth.map((tooth) => [tooth.tooth, tooth]));
  const absent = options.absent ?? new Set<number>();
  const strips: Strip[] = [
    { teeth: upper, sites: buccalSites, rootsUp: true, label: options.labels.buccal },
    { teeth: upper, sites: lingualSites, rootsUp: true, label: options.labels.palatal },
    { teeth: lower, sites: lingualSites, rootsUp: false, label: options.labels.lingual },
    { teeth: lower, sites: buccalSites, rootsUp: false, label: options.labels.buccal },
  ];
  const columns = Math.max(upper.length, lower.length);
  const drawn = strips
    .map((strip, index) => ({ strip, index }))
    .filter(({ index }) => !options.arch || (options.arch === 'upper') === index < 2);
  const width = columns * toothWidth + labelWidth;
  const parts: string[] = [];
  drawn.forEach(({ strip, index: stripIndex }, position) => {
    const top = position * (stripHeight + gap) + (position >= 2 ? 14 : 0);
    const offset = ((columns - strip.teeth.length) * toothWidth) / 2;
    const cej = strip.rootsUp ? top + cejOffset : top + stripHeight - cejOffset;
    /** y of a level in mm from the CEJ, positive coronal. */
    const y = (level: number) => {
      const clamped = Math.max(-21, Math.min(12, level));
      return strip.rootsUp ? cej + clamped * scale : cej - clamped * scale;
    };
    parts.push(`<g transform="translate(${offset},0)">`);
    parts.push(
      // On the roots' side, where the strip is free: above the upper arch's roots, below the lower's.
      `<text x="${2 - offset}" y="${strip.rootsUp ? top + 10 : top + stripHeight - 3}" class="perio-strip-label" font-size="9" fill="currentColor">${esc(strip.label)}</text>`,
    );
    const margin: string[][] = [[]];
    const pocket: string[][] = [[]];
    const marks: string[] = [];
    strip.teeth.forEach((number, index) => {
      const tooth = byTooth.get(number);
      const gone = absent.has(number) || tooth?.missing === true;
      const x0 = index * toothWidth + labelWidth;
      const cx = x0 + toothWidth / 2;
      const crownEnd = strip.rootsUp ? cej + 8 * scale : cej - 8 * scale;
      const rootEnd = strip.rootsUp ? cej - 13 * scale : cej + 13 * scale;
      const opacity = gone ? 0.18 : 1;
      // The tooth: crown and root(s).
      const crownTop = Math.min(cej, crownEnd);
      parts.push(
        `<rect x="${x0 + 5}" y="${crownTop}" width="${toothWidth - 10}" height="${8 * scale}" rx="5" class="perio-crown" fill="#f4f1e8" stroke="#8a8577" stroke-width="0.8" opacity="${opacity}"/>`,
      );
      const roots = isMultiRooted(number) ? [cx - 6, cx + 6] : [cx];
      for (const rx of roots) {
        const dash = tooth?.implant ? ' stroke-dasharray="3 2"' : '';
        parts.push(
          `<path d="M${rx - 4},${cej} L${rx},${rootEnd} L${rx + 4},${cej}" fill="#f4f1e8" stroke="#8a8577" stroke-width="0.8"${dash} opacity="${opacity}"/>`,
        );
      }
      if (gone) {
        parts.push(
          `<path d="M${x0 + 6},${top + 14} L${x0 + toothWidth - 6},${top + stripHeight - 14} M${x0 + toothWidth - 6},${top + 14} L${x0 + 6},${top + stripHeight - 14}" stroke="#8a8577" stroke-width="1"/>`,
        );
      }
      // The number and the tooth's findings on the crown side.
      const labelY = strip.rootsUp ? top + stripHeight - 2 : top + 9;
      const extra = [
        tooth && tooth.mobility !== null && tooth.mobility > 0 ? `M${tooth.mobility}` : '',
        tooth?.furcation ? `F${'I'.repeat(tooth.furcation)}` : '',
      ]
        .filter(Boolean)
        .join(' ');
      if (stripIndex === 0 || stripIndex === 3) {
        parts.push(
          `<text x="${cx}" y="${labelY}" text-anchor="middle" font-size="9" font-weight="bold" fill="currentColor">${number}</text>`,
        );
      }
      if (extra && (stripIndex === 1 || stripIndex === 2)) {
        parts.push(
          `<text x="${cx}" y="${strip.rootsUp ? top + stripHeight - 2 : top + 9}" text-anchor="middle" font-size="8" fill="currentColor">${extra}</text>`,
        );
      }
      if (gone || !tooth) {
        margin.push([]);
        pocket.push([]);
        return;
      }
      const sitesInOrder = [...strip.sites].sort((a, b) => siteX(index, number, a) - siteX(index, number, b));
      for (const site of sitesInOrder) {
        const values = tooth.sites[site];
        const sx = siteX(index, number, site);
        if (options.cursor && options.cursor.tooth === number && options.cursor.site === site) {
          marks.push(
            `<rect x="${sx - 5}" y="${top}" width="10" height="${stripHeight}" fill="#f59f00" opacity="0.28" class="perio-cursor"/>`,
          );
        }
        if (values.margin !== null) {
          margin[margin.length - 1]?.push(`${sx},${y(values.margin)}`);
          if (values.depth !== null) pocket[pocket.length - 1]?.push(`${sx},${y(values.margin - values.depth)}`);
        } else if (values.depth !== null) {
          margin[margin.length - 1]?.push(`${sx},${y(0)}`);
          pocket[pocket.length - 1]?.push(`${sx},${y(-values.depth)}`);
        }
        const dotY = strip.rootsUp ? crownEnd + 4 : crownEnd - 4;
        if (values.bleeding) marks.push(`<circle cx="${sx}" cy="${dotY}" r="2.6" fill="#d63939"/>`);
        if (values.plaque)
          marks.push(`<circle cx="${sx}" cy="${dotY + (strip.rootsUp ? 6 : -6)}" r="2.2" fill="#1f5fd1"/>`);
        if (values.suppuration)
          marks.push(`<circle cx="${sx}" cy="${dotY + (strip.rootsUp ? 12 : -12)}" r="2.2" fill="#e8a400"/>`);
        const change = options.changes?.get(`${number}:${site}`);
        if (change) {
          const my = strip.rootsUp ? top + 4 : top + stripHeight - 4;
          marks.push(
            `<path d="M${sx - 4},${my} L${sx + 4},${my} L${sx},${my + ((change === 'worse') === strip.rootsUp ? 7 : -7)} Z" fill="${change === 'worse' ? '#d63939' : '#2f9e44'}" class="perio-change-${change}"/>`,
          );
        }
      }
    });
    // The CEJ, then the pocket, the margin and the marks over the teeth.
    parts.push(
      `<line x1="0" y1="${cej}" x2="${strip.teeth.length * toothWidth}" y2="${cej}" stroke="#8a8577" stroke-width="0.6" stroke-dasharray="2 2"/>`,
    );
    for (const [index, points] of pocket.entries()) {
      const line = margin[index] ?? [];
      if (points.length > 0 && line.length === points.length)
        parts.push(
          `<polygon points="${[...line, ...[...points].reverse()].join(' ')}" fill="#d63939" opacity="0.18"/>`,
        );
      if (points.length > 1)
        parts.push(`<polyline points="${points.join(' ')}" fill="none" stroke="#d63939" stroke-width="1.6"/>`);
    }
    for (const points of margin)
      if (points.length > 1)
        parts.push(`<polyline points="${points.join(' ')}" fill="none" stroke="#1f5fd1" stroke-width="1.6"/>`);
    parts.push(...marks, '</g>');
  });
  const height = drawn.length * (stripHeight + gap) + (drawn.length > 2 ? 14 : 0) - gap;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="sans-serif">${parts.join('')}</svg>`;
}
