import { z } from 'zod';
import { hexColorPattern } from '../validation.ts';

const hexText = () => z.string().regex(hexColorPattern);

/**
 * How a patient's page shows the clinic (issue 37): the portal's and the e-mailed links' (a
 * reminder's, a waiting-list offer's, a request to sign): its colour and whether it has a logo.
 */
export const clinicBrandSchema = z.object({
  /** The clinic's brand colour, '#rrggbb' (settings `brandColor`), or null for the product's own. */
  color: z.string().nullable(),
  /**
   * The shades the page paints with it, every pair at least 4.5:1 (brand-color.ts `brandPalette`,
   * computed by the API so the patient's bundle carries no contrast maths); null without a colour.
   */
  palette: z
    .object({
      fill: hexText(),
      onFill: hexText(),
      fillActive: hexText(),
      onLight: hexText(),
      onDark: hexText(),
    })
    .nullable(),
  /** The logo's address under /api (GET, public) when the clinic has one and a public page. */
  logoPath: z.string().nullable(),
});
export type ClinicBrand = z.infer<typeof clinicBrandSchema>;
