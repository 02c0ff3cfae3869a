import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { einvoiceSettings, einvoiceTickets } from '../../../db/schema/index.ts';
import type { TenantTx } from '../../../db/tenancy.ts';
import type { Sealer } from '../../../lib/secrets.ts';
import {
  type AccessTicket,
  type ArcaClient,
  type ArcaEndpoints,
  arcaClient,
  arcaEndpoints,
  type TicketStore,
  ticketIsFresh,
} from './arca/index.ts';
import { type VerifactuClient, verifactuClient, verifactuEndpoint } from './verifactu/index.ts';

/**
 * The authorities a clinic's sales go to (issue 39), built from its settings: the environment it
 * chose and its certificate, unsealed only here. Production always talks to the authority's own
 * addresses; the installation may point homologation at another service (ARCA_HOMOLOGATION_URL,
 * VERIFACTU_TEST_URL: the local services tests and the demo start), never production.
 */

export interface AuthoritiesConfig {
  sealer: Sealer;
  /** A service speaking WSAA and WSFEv1 at their real paths, in place of ARCA's homologation. */
  arcaHomologationUrl?: string | undefined;
  /** An endpoint speaking the AEAT's Verifactu SOAP, in place of its test service; its CA (PEM file). */
  verifactuTestUrl?: string | undefined;
  verifactuTestCaFile?: string | undefined;
  timeoutMs: number;
}

let config: AuthoritiesConfig | null = null;

/** The app's start gives the sealer and the addresses (env); tests may give others. */
export function configureAuthorities(next: AuthoritiesConfig): void {
  config = next;
}

function configured(): AuthoritiesConfig {
  if (!config) throw new Error('e-invoicing authorities not configured');
  return config;
}

export type SettingsRow = typeof einvoiceSettings.$inferSelect;

export async function loadEinvoiceSettings(tx: TenantTx, accountId: string): Promise<SettingsRow | null> {
  const [row] = await tx.select().from(einvoiceSettings).where(eq(einvoiceSettings.accountId, accountId));
  return row ?? null;
}

function credentialsOf(settings: SettingsRow) {
  const { sealer } = configured();
  if (!settings.certificateSealed || !settings.privateKeySealed) return null;
  return {
    certificatePem: sealer.unseal(settings.certificateSealed),
    privateKeyPem: sealer.unseal(settings.privateKeySealed),
  };
}

export function arcaEndpointsFor(environment: SettingsRow['environment']): ArcaEndpoints {
  const { arcaHomologationUrl } = configured();
  if (environment === 'homologation' && arcaHomologationUrl) {
    const base = arcaHomologationUrl.replace(/\/+$/, '');
    return { wsaaUrl: `${base}/ws/services/LoginCms`, wsfeUrl: `${base}/wsfev1/service.asmx` };
  }
  return arcaEndpoints(environment);
}

export function verifactuEndpointFor(environment: SettingsRow['environment']): string {
  const { verifactuTestUrl } = configured();
  if (environment === 'homologation' && verifactuTestUrl) return verifactuTestUrl;
  return verifactuEndpoint(environment === 'production' ? 'production' : 'test');
}

/**
 * WSAA tickets kept sealed in the clinic's row, shared by every instance: a login takes a
 * transaction-scoped advisory lock on the clinic and service, so two instances never ask WSAA at
 * once (it refuses a second ticket while one is valid) and the second reads the first one's.
 */
export function databaseTicketStore(tx: TenantTx, accountId: string, service = 'wsfe'): TicketStore {
  const { sealer } = configured();
  const read = async (): Promise<AccessTicket | null> => {
    const [row] = await tx
      .select()
      .from(einvoiceTickets)
      .where(and(eq(einvoiceTickets.accountId, accountId), eq(einvoiceTickets.service, service)));
    if (!row) return null;
    return JSON.parse(sealer.unseal(row.ticketSealed)) as AccessTicket;
  };
  return {
    get: read,
    async refresh(login) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`wsaa:${accountId}:${service}`}))`);
      const current = await read();
      // Another instance logged in while this one waited.
      if (current && ticketIsFresh(current)) return current;
      const ticket = await login();
      const values = { ticketSealed: sealer.seal(JSON.stringify(ticket)), expiresAt: new Date(ticket.expiresAt) };
      await tx
        .insert(einvoiceTickets)
        .values({ accountId, service, ...values })
        .onConflictDoUpdate({ target: [einvoiceTickets.accountId, einvoiceTickets.service], set: values });
      return ticket;
    },
    async drop() {
      await tx
        .delete(einvoiceTickets)
        .where(and(eq(einvoiceTickets.accountId, accountId), eq(einvoiceTickets.service, service)));
    },
  };
}

/** The clinic's ARCA client (null: no certificate). `cuit` is the clinic's, the certificate's owner. */
export function arcaClientFor(tx: TenantTx, accountId: string, settings: SettingsRow, cuit: string): ArcaClient | null {
  const credentials = credentialsOf(settings);
  if (!credentials) return null;
  return arcaClient({
    endpoints: arcaEndpointsFor(settings.environment),
    credentials: { cuit, ...credentials },
    tickets: databaseTicketStore(tx, accountId),
    timeoutMs: configured().timeoutMs,
  });
}

const caCache = new Map<string, string>();

/** The clinic's Verifactu client (null: no certificate). */
export function verifactuClientFor(settings: SettingsRow): VerifactuClient | null {
  const credentials = credentialsOf(settings);
  if (!credentials) return null;
  const { verifactuTestCaFile, timeoutMs } = configured();
  let ca: string | undefined;
  if (settings.environment === 'homologation' && verifactuTestCaFile) {
    ca = caCache.get(verifactuTestCaFile) ?? readFileSync(verifactuTestCaFile, 'utf8');
    caCache.set(verifactuTestCaFile, ca);
  }
  return verifactuClient({ endpoint: verifactuEndpointFor(settings.environment), ...credentials, timeoutMs, ca });
}
