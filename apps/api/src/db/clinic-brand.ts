import { brandPalette } from '@odontia/shared/brand-color';
import type { ClinicBrand } from '@odontia/shared/schemas/clinic-brand';
import { sql } from 'drizzle-orm';
import { accounts, clinicLogos } from './schema/index.ts';

/**
 * The clinic's brand on a patient's page (issue 37) as a select reads it, joined to `accounts`:
 * the portal's and the e-mailed links' pages. The logo is served on the clinic's public page's
 * address, so only a clinic with one (activated, with a slug) shows it.
 */
export const clinicBrandColumns = {
  brandColor: accounts.brandColor,
  brandSlug: accounts.publicSlug,
  hasPublicLogo: sql<boolean>`(${accounts.activatedAt} is not null and ${accounts.publicSlug} <> '' and exists (
    select 1 from ${clinicLogos} where ${clinicLogos.accountId} = ${accounts.id}))`,
};

/** The colour with its readable shades (every pair at least 4.5:1), and the logo's address. */
export function clinicBrand(row: {
  brandColor: string | null;
  brandSlug: string;
  hasPublicLogo: boolean;
}): ClinicBrand {
  return {
    color: row.brandColor,
    palette: row.brandColor ? brandPalette(row.brandColor) : null,
    logoPath: row.hasPublicLogo ? `/public/clinics/${row.brandSlug}/logo` : null,
  };
}
