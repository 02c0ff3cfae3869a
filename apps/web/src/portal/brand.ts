/**
 * The clinic as its patients see it on every portal page (issue 37): name, logo, colour, address,
 * phone and map link, with the zone, language and currency its dates and money are shown in.
 */
export interface ClinicBrand {
  name: string;
  logoUrl: string | null;
  colour: string | null;
  address: string | null;
  phone: string | null;
  mapUrl: string | null;
}
