import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useDemoClinic } from '../../test/demo-clinic.ts';
import { demoIntegrations } from './demo-integrations.ts';

describe('demo clinic integrations (issue 42)', () => {
  const demo = useDemoClinic();
  const get = async (url: string) => (await demo.get(url)).json();

  it("holds the lab's clinic token and the administrator's personal token, active, with read scopes", async () => {
    const clinic = (await get('/api/api-tokens')).data as {
      name: string;
      kind: string;
      scopes: string[];
      state: string;
    }[];
    expect(clinic).toEqual([
      expect.objectContaining({
        kind: 'clinic',
        name: demoIntegrations.clinicToken.name,
        scopes: ['patients.read'],
        state: 'active',
      }),
    ]);
    const personal = (await get('/api/profile/api-tokens')).data as typeof clinic;
    expect(personal).toEqual([
      expect.objectContaining({
        kind: 'personal',
        name: demoIntegrations.personalToken.name,
        scopes: ['reports.read', 'commercial.read'],
        state: 'active',
      }),
    ]);
    // Read scopes only: nothing that writes.
    for (const token of [...clinic, ...personal])
      expect(token.scopes.every((scope) => scope.endsWith('.read'))).toBe(true);
  });

  it('subscribes a CRM at an https example address, paused, with no delivery made up', async () => {
    const subscriptions = (await get('/api/settings/webhooks')).data as {
      id: string;
      url: string;
      active: boolean;
      events: string[];
      lastAttempt: unknown;
    }[];
    expect(subscriptions).toHaveLength(1);
    const [crm] = subscriptions;
    expect(crm).toMatchObject({ url: demoIntegrations.webhook.url, active: false, lastAttempt: null });
    expect(crm?.url.startsWith('https://')).toBe(true);
    expect(crm?.events).toEqual(expect.arrayContaining(['appointment.booked', 'patient.created']));
    expect((await get(`/api/settings/webhooks/${crm?.id}/attempts`)).total).toBe(0);
    const { rows } = await demo
      .db()
      .orm.execute(
        sql`select (select count(*) from webhook_deliveries)::int as deliveries, (select count(*) from webhook_attempts)::int as attempts`,
      );
    expect(rows[0]).toEqual({ deliveries: 0, attempts: 0 });
  });

  it('wrote them through their services: each creation is audited', async () => {
    const { rows } = await demo
      .db()
      .orm.execute(
        sql`select action, count(*)::int as n from audit_events where action in ('api_token_created', 'webhook_subscription_created') group by action order by action`,
      );
    expect(rows).toEqual([
      { action: 'api_token_created', n: 2 },
      { action: 'webhook_subscription_created', n: 1 },
    ]);
  });
});
