/**
 * The clinic's brand colour (issue 37) and the contrast maths that keep it readable (WCAG 2.x,
 * level AA: 4.5:1 for text). The portal's layout and the e-mails to patients both take their
 * colours from `brandPalette`, so a clinic may pick any colour and what patients read on it, or
 * in it, still reaches 4.5:1 — the colour itself where it does, a darker or lighter shade of it
 * where it does not.
 */

/** The product's own primary (the SCSS `$primary`): what a clinic without a colour is shown in. */
export const defaultBrandColor = '#2563eb';

/** WCAG AA for normal text. */
export const textContrast = 4.5;

/** The text on a colour when white does not reach 4.5:1: near-black, the product's darkest slate. */
export const nearBlack = '#0f172a';
export const white = '#ffffff';

/** The page behind text: the portal's light body, and its dark one's lightest surface (`$body-tertiary-bg-dark`). */
export const lightSurface = white;
export const darkSurface = '#2a3038';

type Rgb = readonly [number, number, number];

function parse(hex: string): Rgb {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match?.[1]) throw new Error(`not a #rrggbb colour: ${hex}`);
  const value = Number.parseInt(match[1], 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

const toHex = (rgb: Rgb) => `#${rgb.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;

/** Whether `value` is a '#rrggbb' colour (either case; the settings keep it lower-case: `optionalHexColor`). */
export function isHexColor(value: string): boolean {
  return /^#[0-9a-f]{6}$/i.test(value.trim());
}

/** Relative luminance (WCAG 2.x): 0 for black, 1 for white. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = parse(hex).map((channel) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, 1 (the same) to 21 (black on white); the order does not matter. */
export function contrastRatio(a: string, b: string): number {
  const [lighter, darker] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

const black: Rgb = [0, 0, 0];
const whiteRgb: Rgb = [255, 255, 255];

/** `hex` mixed toward `toward` by `amount` (0: itself, 1: `toward`), in sRGB like Sass's `mix`. */
function mix(hex: string, toward: Rgb, amount: number): string {
  return toHex(
    parse(hex).map((channel, index) =>
      Math.round(channel + ((toward[index] ?? 0) - channel) * amount),
    ) as unknown as Rgb,
  );
}

/**
 * The colour mixed toward `toward` (black or white) by the least step that reaches `ratio`
 * against `against`; the colour itself when it already does. Mixing toward black only darkens and
 * toward white only lightens, so the contrast grows with the step and a binary search finds it.
 */
function mixUntil(hex: string, toward: Rgb, against: string, ratio: number): string {
  if (contrastRatio(hex, against) >= ratio) return hex;
  let low = 0;
  let high = 1;
  for (let step = 0; step < 20; step += 1) {
    const middle = (low + high) / 2;
    if (contrastRatio(mix(hex, toward, middle), against) >= ratio) high = middle;
    else low = middle;
  }
  return mix(hex, toward, high);
}

/** The colour, darkened just enough to reach `ratio` against `against` (a light background). */
export function darkenToContrast(hex: string, against: string, ratio = textContrast): string {
  return mixUntil(hex, black, against, ratio);
}

/** The colour, lightened just enough to reach `ratio` against `against` (a dark background). */
export function lightenToContrast(hex: string, against: string, ratio = textContrast): string {
  return mixUntil(hex, whiteRgb, against, ratio);
}

/** The colours a brand colour is shown in, each pair at least 4.5:1. */
export interface BrandPalette {
  /** A button's or the band's background: the colour itself unless no text reaches 4.5:1 on it. */
  fill: string;
  /** The text on `fill`: white, or near-black on a light colour. */
  onFill: string;
  /** `fill` hovered or pressed: 15 % away from its text (Bootstrap's shade or tint), so the contrast only grows. */
  fillActive: string;
  /** Links, outlines and text in the colour on the light page (darkened until 4.5:1 on white). */
  onLight: string;
  /** The same on the dark theme's surfaces (lightened until 4.5:1). */
  onDark: string;
}

/**
 * The palette of a brand colour ('#rrggbb'). The text on it is white when white reaches 4.5:1,
 * else near-black when that does; a mid colour on which neither does is darkened (for white) or
 * lightened (for near-black), whichever reads better, until it does.
 */
export function brandPalette(color: string): BrandPalette {
  const hex = color.trim().toLowerCase();
  const onWhite = contrastRatio(hex, white);
  const onBlack = contrastRatio(hex, nearBlack);
  let fill = hex;
  let onFill = white;
  if (onWhite >= textContrast) onFill = white;
  else if (onBlack >= textContrast) onFill = nearBlack;
  else if (onWhite >= onBlack) fill = darkenToContrast(hex, white);
  else {
    onFill = nearBlack;
    fill = lightenToContrast(hex, nearBlack);
  }
  return {
    fill,
    onFill,
    fillActive: mix(fill, onFill === white ? black : whiteRgb, 0.15),
    onLight: darkenToContrast(hex, lightSurface),
    onDark: lightenToContrast(hex, darkSurface),
  };
}
