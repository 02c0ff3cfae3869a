import { brandPalette } from '@odontia/shared/brand-color';
import { describe, expect, it } from 'vitest';
import { brandStyle, rgbTriplet } from './brand-style';

describe("the brand colour's CSS variables", () => {
  it('gives each shade of the palette, and the rgb of those used with an alpha', () => {
    expect(rgbTriplet('#0f766e')).toBe('15, 118, 110');
    expect(rgbTriplet('#ffffff')).toBe('255, 255, 255');
    expect(brandStyle(brandPalette('#ffd400'))).toEqual({
      '--brand-fill': '#ffd400',
      '--brand-fill-rgb': '255, 212, 0',
      '--brand-fill-active': brandPalette('#ffd400').fillActive,
      '--brand-on-fill': '#0f172a',
      '--brand-on-light': brandPalette('#ffd400').onLight,
      '--brand-on-light-rgb': rgbTriplet(brandPalette('#ffd400').onLight),
      '--brand-on-dark': '#ffd400',
      '--brand-on-dark-rgb': '255, 212, 0',
    });
  });

  it('sets nothing without a colour: the portal keeps its own', () => {
    expect(brandStyle(null)).toBeUndefined();
  });
});
