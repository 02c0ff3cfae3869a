import { brandPalette } from '@odontia/shared/brand-color';
import type { portalMeResponseSchema } from '@odontia/shared/schemas/portal';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { type Answer, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';

/** The portal's context (issue 37): the clinic's slug, a customer session's patient, row-level security. */
describe.each(availableBackends())('portal context on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });

  it('gives every clinic a unique lower-case slug from its name', async () => {
    const { rows } = await t.db.orm.execute<{ public_slug: string }>(
      sql`select public_slug from accounts where id in (${t.clinic.accountId}::uuid, ${t.other.accountId}::uuid)`,
    );
    const slugs = rows.map((row) => row.public_slug);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9-]{3,60}$/);
    expect(new Set(slugs).size).toBe(2);
    await expect(
      t.db.orm.execute(sql`update accounts set public_slug = 'Con Acentos' where id = ${t.clinic.accountId}::uuid`),
    ).rejects.toThrow();
  });

  it('refuses a customer without a patient and a staff member with one', async () => {
    await expect(
      t.db.orm.execute(sql`update users set level = 'customer' where id = ${t.clinic.userId}::uuid`),
    ).rejects.toThrow();
    await expect(
      t.db.orm.execute(sql`update users set patient_id = ${t.patientId}::uuid where id = ${t.clinic.userId}::uuid`),
    ).rejects.toThrow();
  });

  it('no longer makes a customer on the users page: only the portal access does', async () => {
    const invited = await t.call('POST', '/api/users', {
      body: { completeName: 'Paciente Sin Ficha', email: `sin.ficha.${Date.now()}@example.com`, level: 'customer' },
    });
    expect(invited.statusCode).toBe(400);
    expect(invited.json().details.fields).toEqual([expect.objectContaining({ path: 'level', code: 'invalid_value' })]);
  });

  it('answers /api/portal/me to a customer only, as their own patient', async () => {
    const staff = await t.call('GET', '/api/portal/me');
    expect(staff.statusCode).toBe(403);
    await t.asLevel('customer', async () => {
      const me = await t.call('GET', '/api/portal/me');
      expect(me.statusCode, me.body).toBe(200);
      const data = me.json<Answer<typeof portalMeResponseSchema>>().data;
      expect(data.patient.id).toBe(t.clinic.userId); // setLevel's own patient
      expect(data.clinic.slug).toMatch(/^[a-z0-9-]{3,60}$/);
      expect(data.settings.changeHours).toBe(24);
      const staffRoute = await t.call('GET', `/api/patients/${t.patientId}`);
      expect(staffRoute.statusCode).toBe(403);
    });
  });

  it("shows the clinic's public page and the portal's settings from the clinic's settings page", async () => {
    const { rows } = await t.db.orm.execute<{ public_slug: string }>(
      sql`select public_slug from accounts where id = ${t.clinic.accountId}::uuid`,
    );
    const slug = rows[0]?.public_slug as string;
    const page = await t.call('GET', `/api/public/clinics/${slug}`, { token: null });
    expect(page.json().data).toMatchObject({ slug, brand: { color: null, palette: null, logoPath: null } });
    expect((await t.call('GET', `/api/public/clinics/${slug}/logo`, { token: null })).statusCode).toBe(404);
    expect((await t.call('GET', '/api/public/clinics/no-such-clinic', { token: null })).json().code).toBe(
      'clinic_not_found',
    );
    const settings = (await t.call('GET', '/api/settings/clinic')).json().data;
    expect(settings.portalPaymentInstructions).toBeNull();
    const { uploadMaxMbLimit: _limit, updatedAt: _at, ...editable } = settings;
    const saved = await t.call('PUT', '/api/settings/clinic', {
      body: { ...editable, portalPaymentInstructions: '  Transferencia al CBU 0000003100012345678901  ' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // Left out of a PUT, it stays.
    const { portalPaymentInstructions: _kept, ...withoutIt } = editable;
    const again = await t.call('PUT', '/api/settings/clinic', {
      body: { ...withoutIt, version: saved.json().data.version },
    });
    expect(again.json().data.portalPaymentInstructions).toBe('Transferencia al CBU 0000003100012345678901');
    await t.asLevel('customer', async () => {
      const me = (await t.call('GET', '/api/portal/me')).json().data;
      expect(me.settings.paymentInstructions).toBe('Transferencia al CBU 0000003100012345678901');
      const balance = (await t.call('GET', '/api/portal/balance')).json().data;
      expect(balance).toMatchObject({ balance: '0.00', documents: [] });
    });
  });

  it("carries the clinic's brand colour from its settings to the public page and /portal/me, audited", async () => {
    const { rows } = await t.db.orm.execute<{ public_slug: string }>(
      sql`select public_slug from accounts where id = ${t.clinic.accountId}::uuid`,
    );
    const slug = rows[0]?.public_slug as string;
    const editable = async () => {
      const {
        uploadMaxMbLimit: _limit,
        updatedAt: _at,
        ...settings
      } = (await t.call('GET', '/api/settings/clinic')).json().data;
      return settings;
    };
    const before = await editable();
    expect(before.brandColor).toBeNull();
    // Either case is taken and kept lower-case.
    const saved = await t.call('PUT', '/api/settings/clinic', { body: { ...before, brandColor: ' #0F766E ' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.brandColor).toBe('#0f766e');
    const [event] = (await t.auditEvents('system_setting_updated')).filter((row) =>
      Object.keys(row.after ?? {}).includes('brandColor'),
    );
    expect(event).toMatchObject({
      entityId: t.clinic.accountId,
      before: { brandColor: null },
      after: { brandColor: '#0f766e' },
    });
    const page = await t.call('GET', `/api/public/clinics/${slug}`, { token: null });
    expect(page.json().data.brand).toEqual({
      color: '#0f766e',
      palette: brandPalette('#0f766e'),
      logoPath: null,
    });
    expect(page.json().data.brand.palette).toMatchObject({ fill: '#0f766e', onFill: '#ffffff' });
    await t.asLevel('customer', async () => {
      expect((await t.call('GET', '/api/portal/me')).json().data.clinic.brand.color).toBe('#0f766e');
    });
    // Left out of a PUT it stays; blank takes it away.
    const { brandColor: _kept, ...withoutIt } = await editable();
    const kept = await t.call('PUT', '/api/settings/clinic', { body: withoutIt });
    expect(kept.json().data.brandColor).toBe('#0f766e');
    const cleared = await t.call('PUT', '/api/settings/clinic', { body: { ...(await editable()), brandColor: '' } });
    expect(cleared.json().data.brandColor).toBeNull();
    expect((await t.call('GET', `/api/public/clinics/${slug}`, { token: null })).json().data.brand.color).toBeNull();
    // The database keeps the same bound as the contract.
    await expect(
      t.db.orm.execute(sql`update accounts set brand_color = '#0F766E' where id = ${t.clinic.accountId}::uuid`),
    ).rejects.toThrow();
  });

  it("shows a patient's transaction no other patient's rows, in the database itself", async () => {
    const seen = await t.db.withPatient(t.clinic.accountId, t.patientId, async (tx) => {
      const { rows } = await tx.execute<{ id: string }>(sql`select id from patients`);
      return rows.map((row) => row.id);
    });
    expect(seen).toEqual([t.patientId]);
    const other = await t.newPatient();
    await expect(
      t.db.withPatient(t.clinic.accountId, t.patientId, (tx) =>
        tx.execute(sql`update patients set obs = 'x' where id = ${other}::uuid returning id`),
      ),
    ).resolves.toMatchObject({ rows: [] });
    const staffSees = await t.db.withTenant(t.clinic.accountId, async (tx) => {
      const { rows } = await tx.execute<{ n: number }>(sql`select count(*)::int as n from patients`);
      return rows[0]?.n;
    });
    expect(staffSees).toBeGreaterThanOrEqual(2);
  });
});
