import type { RequestContext } from '../context.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { apiTokensService } from '../features/api-tokens/api-tokens.service.ts';
import { createWebhooksService } from '../features/webhooks/webhooks.service.ts';
import type { Sealer } from '../lib/secrets.ts';
import { demoTimeZone } from './demo-time.ts';

/**
 * The demo clinic's integrations (issue 42), written through their services (audited like the
 * screens' writes): a clinic API token of the dental lab that reads the agenda, a personal token of
 * the administrator for the reports, and a webhook subscription to a CRM, paused since nothing
 * answers at that example address. No delivery is made up: the log shows what really happened
 * (nothing, until someone resumes it). The tokens' secrets were shown to nobody, as after any
 * creation; to try the API, create one from the same screens.
 */

export const demoIntegrations = {
  clinicToken: {
    name: 'Laboratorio Dental Sur — lectura de turnos',
    scopes: ['patients.read'],
    expiresInDays: 180,
    rateLimitPerMinute: 60,
  },
  personalToken: {
    name: 'Planilla de informes de Laura',
    scopes: ['reports.read', 'commercial.read'],
    expiresInDays: 90,
    rateLimitPerMinute: 120,
  },
  webhook: {
    url: 'https://crm.example.com/odontia/webhooks',
    events: ['appointment.booked', 'appointment.moved', 'appointment.cancelled', 'patient.created', 'patient.updated'],
    active: false,
    description: 'CRM de la clínica: recordatorios y campañas (en pausa hasta conectar el receptor)',
  },
} as const;

export async function seedDemoIntegrations(
  tx: TenantTx,
  accountId: string,
  { administratorId }: { administratorId: string },
  sealer: Sealer,
) {
  const ctx: RequestContext = {
    tx,
    accountId,
    userId: administratorId,
    level: 'administrator',
    timeZone: demoTimeZone,
    ip: '127.0.0.1',
  };
  const { clinicToken, personalToken, webhook } = demoIntegrations;
  await apiTokensService.create({ ctx, kind: 'clinic', input: { ...clinicToken, scopes: [...clinicToken.scopes] } });
  await apiTokensService.create({
    ctx,
    kind: 'personal',
    input: { ...personalToken, scopes: [...personalToken.scopes] },
  });
  // An https URL on a public name: the installation's policy on private hosts does not matter here.
  await createWebhooksService({ sealer, policy: { allowPrivate: false } }).create({
    ctx,
    input: { ...webhook, events: [...webhook.events] },
  });
}
