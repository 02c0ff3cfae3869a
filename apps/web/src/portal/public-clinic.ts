import type { PortalClinic } from '@odontia/shared/schemas/portal';
import { useEffect, useState } from 'react';
import { logoUrlOf } from '../lib/brand-style';
import type { ClinicBrand } from './brand';
import { portalAccessApi } from './public-api';

/** A map search of the clinic's address (the clinic sets no map link of its own). */
export function mapLink(address: string | null): string | null {
  return address ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}` : null;
}

/** The clinic's brand as the portal's pages show it. */
export function brandOf(clinic: PortalClinic): ClinicBrand {
  return {
    name: clinic.name,
    logoUrl: logoUrlOf(clinic.brand.logoPath),
    palette: clinic.brand.palette,
    address: clinic.address,
    phone: clinic.phone,
    mapUrl: mapLink(clinic.address),
  };
}

/** `/c/:slug`'s clinic (or none for ''): its brand and what its dates and money are shown in. */
export function usePublicClinic(slug: string) {
  const [state, setState] = useState<{ slug: string; clinic: PortalClinic | null; error: unknown }>({
    slug,
    clinic: null,
    error: null,
  });
  useEffect(() => {
    // No clinic named (the sign-in page opened by itself): the portal's own look.
    if (!slug) return;
    let current = true;
    portalAccessApi.clinic({ params: { slug } }).then(
      ({ data }) => current && setState({ slug, clinic: data, error: null }),
      (error: unknown) => current && setState({ slug, clinic: null, error }),
    );
    return () => {
      current = false;
    };
  }, [slug]);
  const fresh = state.slug === slug;
  return {
    clinic: fresh ? state.clinic : null,
    brand: fresh && state.clinic ? brandOf(state.clinic) : null,
    error: fresh ? state.error : null,
  };
}
