import { describe, expect, it } from 'vitest';
import {
  brandPalette,
  contrastRatio,
  darkenToContrast,
  darkSurface,
  defaultBrandColor,
  isHexColor,
  lightenToContrast,
  nearBlack,
  relativeLuminance,
  white,
} from './brand-color.ts';

describe('contrast maths (WCAG 2.x)', () => {
  it('gives the luminance and ratios of the known pairs', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBe(1);
    expect(contrastRatio('#000000', '#ffffff')).toBe(21);
    expect(contrastRatio('#ffffff', '#000000')).toBe(21);
    expect(contrastRatio('#777777', '#777777')).toBe(1);
    // Published values: #767676 on white is the lightest grey that passes AA (4.54:1).
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#777777', '#ffffff')).toBeLessThan(4.5);
    // The product's own primary with white text: 5.17:1.
    expect(contrastRatio(defaultBrandColor, white)).toBeCloseTo(5.17, 2);
  });

  it('reads #rrggbb in either case and refuses anything else', () => {
    expect(isHexColor('#0F766E')).toBe(true);
    expect(isHexColor('#0f766e')).toBe(true);
    for (const value of ['0f766e', '#fff', '#0f766g', 'teal', '#0f766e0']) expect(isHexColor(value)).toBe(false);
    expect(() => relativeLuminance('teal')).toThrow();
  });

  it('darkens a colour only as far as 4.5:1 on white, and keeps one that is already there', () => {
    expect(darkenToContrast('#0f766e', white)).toBe('#0f766e');
    const darkened = darkenToContrast('#ffd400', white);
    expect(contrastRatio(darkened, white)).toBeGreaterThanOrEqual(4.5);
    // The least step: one shade lighter would not pass.
    expect(contrastRatio(darkened, white)).toBeLessThan(4.7);
    expect(relativeLuminance(darkened)).toBeLessThan(relativeLuminance('#ffd400'));
  });

  it('lightens a colour only as far as 4.5:1 on the dark theme', () => {
    const lightened = lightenToContrast('#0b3d91', darkSurface);
    expect(contrastRatio(lightened, darkSurface)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(lightened, darkSurface)).toBeLessThan(4.7);
    expect(lightenToContrast('#ffd400', darkSurface)).toBe('#ffd400');
  });
});

describe('the brand palette', () => {
  const colours = [
    '#0f766e',
    '#ffd400',
    '#0b3d91',
    '#e11d48',
    '#22c55e',
    '#d9480f',
    '#7c7c7c',
    '#000000',
    '#ffffff',
    '#2563eb',
  ];

  it.each(colours)('%s: every pair reaches 4.5:1', (colour) => {
    const palette = brandPalette(colour);
    expect(contrastRatio(palette.fill, palette.onFill)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(palette.fillActive, palette.onFill)).toBeGreaterThanOrEqual(
      contrastRatio(palette.fill, palette.onFill),
    );
    expect(contrastRatio(palette.onLight, white)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(palette.onDark, darkSurface)).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(palette.onDark, '#1e2329')).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps the colour itself as the fill when white or near-black reads on it', () => {
    expect(brandPalette('#0F766E')).toMatchObject({ fill: '#0f766e', onFill: white, onLight: '#0f766e' });
    const yellow = brandPalette('#ffd400');
    expect(yellow).toMatchObject({ fill: '#ffd400', onFill: nearBlack });
    expect(yellow.onLight).not.toBe('#ffd400');
  });

  it('moves a mid colour, on which neither text reaches 4.5:1, just enough toward the better one', () => {
    // Orange: 4.30:1 with white, 4.15:1 with near-black → darkened for white text.
    const orange = '#d9480f';
    expect(contrastRatio(orange, white)).toBeLessThan(4.5);
    expect(contrastRatio(orange, nearBlack)).toBeLessThan(4.5);
    const darker = brandPalette(orange);
    expect(darker).toMatchObject({ fill: '#d3460f', onFill: white });
    // Grey: 4.17:1 with white, 4.28:1 with near-black → lightened for near-black text.
    const grey = '#7c7c7c';
    expect(contrastRatio(grey, white)).toBeLessThan(4.5);
    expect(contrastRatio(grey, nearBlack)).toBeLessThan(4.5);
    expect(brandPalette(grey)).toMatchObject({ fill: '#808080', onFill: nearBlack });
  });
});
