/**
 * The clinic as its patients see it on every portal page (issue 37): name, logo, colour, address,
 * phone and map link, with the zone, language and currency its dates and money are shown in.
 */
import type { BrandPalette } from '@odontia/shared/brand-color';

export interface ClinicBrand {
  name: string;
  logoUrl: string | null;
  /** The clinic's colour in its readable shades (the API's `brand.palette`); null: the portal's own. */
  palette: BrandPalette | null;
  address: string | null;
  phone: string | null;
  mapUrl: string | null;
}
