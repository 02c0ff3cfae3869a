import { brandPalette, isHexColor, rgbTriplet } from '@odontia/shared/brand-color';
import type { CSSProperties } from 'react';

/**
 * The CSS variables of a clinic's brand colour (issue 37) that `.brand-scope` and `.brand-band`
 * (styles/_brand.scss) read: the palette of packages/shared brand-color.ts, every pair at least
 * 4.5:1. Undefined without a colour (or with one that is not '#rrggbb'): the product's own look.
 */
export function brandStyle(color: string | null | undefined): CSSProperties | undefined {
  if (!color || !isHexColor(color)) return undefined;
  const palette = brandPalette(color);
  return {
    '--brand-fill': palette.fill,
    '--brand-fill-rgb': rgbTriplet(palette.fill),
    '--brand-fill-active': palette.fillActive,
    '--brand-on-fill': palette.onFill,
    '--brand-on-light': palette.onLight,
    '--brand-on-light-rgb': rgbTriplet(palette.onLight),
    '--brand-on-dark': palette.onDark,
    '--brand-on-dark-rgb': rgbTriplet(palette.onDark),
  } as CSSProperties;
}
