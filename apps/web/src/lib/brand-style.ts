import type { BrandPalette } from '@odontia/shared/brand-color';
import type { CSSProperties } from 'react';
import { apiBase } from './base-path';

/** A '#rrggbb' colour's red, green and blue, for CSS's `rgba(var(--x-rgb), a)`: '37, 99, 235'. */
export function rgbTriplet(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return [value >> 16, (value >> 8) & 255, value & 255].join(', ');
}

/**
 * The CSS variables of a clinic's brand colour (issue 37) that `.brand-scope` and `.brand-band`
 * (styles/_brand.scss) read, from its palette (packages/shared brand-color.ts `brandPalette`,
 * every pair at least 4.5:1): the portal gets it computed in the API's answer (its bundle carries
 * no contrast maths), the settings page's preview computes it. Undefined without one: the
 * product's own look.
 */
export function brandStyle(palette: BrandPalette | null | undefined): CSSProperties | undefined {
  if (!palette) return undefined;
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

/** A clinic's logo (`logoPath`, under /api) as the page loads it. */
export const logoUrlOf = (logoPath: string | null): string | null =>
  logoPath ? `${apiBase()}/${logoPath.replace(/^\/+(api\/)?/, '')}` : null;
