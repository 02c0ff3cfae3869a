import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { addDays, clinicToday } from '@odontia/shared/clinic-time';
import type { accountResponseSchema, renewAccountResponseSchema } from '@odontia/shared/schemas/account';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sonrisasBilling } from '../../../test/clinics.ts';
import { multipart, paddedPdf } from '../../../test/multipart.ts';
import { pdfText } from '../../../test/pdf-text.ts';
import { type Answer, expectAnswer, type TestClinicContext, useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { extendContract, listClinics, markPaid, runOperator } from './operator.ts';

/**
 * My account (issue 19): the account's data and versions, renewals (idempotent, audited), the
 * movements and their PDF, the operator's commands, the read-only state after the due date and
 * grace period and its lifting, isolation and levels; and a self-hosted installation (no plans).
 */

const plans = [
  {
    id: 'basic',
    name: 'Básico',
    price: '29.90',
    currency: 'euro',
    periodMonths: 1,
    limits: { professionals: 3, storageMb: 2048 },
  },
  { id: 'pro', name: 'Profesional', price: 300, currency: 'euro', periodMonths: 12, limits: { professionals: null } },
  { id: 'tiny', name: 'Mínimo', price: '5', currency: 'euro', periodMonths: 1, limits: { storageMb: 1 } },
];
const terms = { plans: plans.map((plan) => ({ ...plan })) as never, graceDays: 10 };
const env = {
  PLANS: JSON.stringify(plans),
  ACCOUNT_GRACE_DAYS: '10',
  // As an installer writes it in one line: "\n" breaks it.
  PAYMENT_TRANSFER_DETAILS: 'Titular: Odontia SL\\nIBAN: ES91 2100 0418 4502 0005 1332',
};

type AccountAnswer = Answer<typeof accountResponseSchema>;
type RenewAnswer = Answer<typeof renewAccountResponseSchema>;

async function account(t: TestClinicContext, token?: string) {
  const response = await t.call('GET', '/api/account', token ? { token } : {});
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AccountAnswer>().data;
}

let keys = 0;
const renew = (t: TestClinicContext, body: object = {}, key = `renew-key-${++keys}-${Date.now()}`, token?: string) =>
  t.call('POST', '/api/account/renew', { body, headers: { 'idempotency-key': key }, ...(token ? { token } : {}) });

/** Sets a clinic's due date `days` from today (negative: in the past) and its plan, without the API. */
async function dueIn(t: TestClinicContext, accountId: string, days: number | null, plan = 'basic') {
  await t.db.withSystem((tx) =>
    tx.execute(sql`update accounts set plan = ${plan}, renewal_requested_at = null,
      plan_ends_at = ${days === null ? null : new Date(Date.now() + days * 86_400_000).toISOString()}::timestamptz
      where id = ${accountId}::uuid`),
  );
}

const newPatientBody = { firstName: 'Marta', lastName: 'Ruiz', sex: 'female', birthdate: '1979-03-01' };

describe.each(availableBackends())('my account on %s', (backend) => {
  const t = useTestClinic(backend, { env, patient: true });

  it('answers the plan with its limits and usage, the contract and its state', async () => {
    await dueIn(t, t.clinic.accountId, 20);
    const data = await account(t);
    expect(data.planId).toBe('basic');
    expect(data.plan).toMatchObject({ name: 'Básico', price: '29.90', currency: 'euro', limits: { professionals: 3 } });
    expect(data.plans.map((plan) => plan.id)).toEqual(['basic', 'pro', 'tiny']);
    expect(data.plans[1]?.price).toBe('300.00');
    expect(data.usage).toEqual({ professionals: 1, storageMb: 0 });
    expect(data.contract.state).toBe('active');
    expect(data.contract.graceDays).toBe(10);
    expect(data.contract.dueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(
      new Date(data.contract.graceEndsAt as string).getTime() - new Date(data.contract.endsAt as string).getTime(),
    ).toBe(10 * 86_400_000);
    expect(data.selfHosted).toBe(false);
    expect(data.billing.useFiscalData).toBe(true);
    expect(data.commercial.clinicName).toBeTruthy();
  });

  it('edits the billing data with versions, validation and an audit event', async () => {
    const before = await account(t);
    const body = { ...sonrisasBilling, version: before.version };
    const saved = await t.call('PUT', '/api/account/billing', { body });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<AccountAnswer>().code).toBe('account_billing_updated');
    expect(saved.json<AccountAnswer>().data.billing).toMatchObject({ billingCountry: 'ES', useFiscalData: false });
    expect(saved.json<AccountAnswer>().data.commercial.clinicName).toBe('Clínica Dental Sonrisas');

    const stale = await t.call('PUT', '/api/account/billing', { body });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('version_conflict');
    expect(stale.json().details.current.billing.billingLegalName).toBe('Sonrisas SL');

    const bad = await t.call('PUT', '/api/account/billing', {
      body: { ...body, clinicName: '', billingEmail: 'no-mail', version: saved.json<AccountAnswer>().data.version },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.fields.map((field: { path: string }) => field.path)
        .sort(),
    ).toEqual(['billingEmail', 'clinicName']);

    const [event] = await t.auditEvents('account_billing_updated');
    expect(event?.before).toMatchObject({ billingSameAsFiscal: true, version: before.version });
    expect(event?.after).toMatchObject({ billingSameAsFiscal: false, billingLegalName: 'Sonrisas SL' });
  });

  it('renews: a pending renewal order, idempotent, audited, listed and printable; one at a time', async () => {
    await dueIn(t, t.clinic.accountId, 3);
    const before = await account(t);
    const missingKey = await t.call('POST', '/api/account/renew', { body: {}, idempotencyKey: null });
    expect(missingKey.statusCode).toBe(400);
    expect(missingKey.json().code).toBe('idempotency_key_required');

    const first = await renew(t, {}, 'same-renewal-key');
    expect(first.statusCode, first.body).toBe(201);
    const { movement, account: after } = first.json<RenewAnswer>().data;
    expect(first.json<RenewAnswer>().code).toBe('account_renewal_ordered');
    expect(movement).toMatchObject({
      kind: 'renewal_order',
      status: 'pending',
      plan: 'basic',
      amount: '29.90',
      currency: 'euro',
      provider: 'manual',
    });
    expect(movement.reference).toMatch(/^RN-\d{8}-[0-9A-F]{6}$/);
    // The period starts the day after the due date and lasts the plan's month.
    expect(movement.periodStart).toBe(addDays(before.contract.dueDate as string, 1));
    expect(after.contract.pendingRenewal?.id).toBe(movement.id);
    // Issue 35: the clinic is asked for a transfer and told where to make it.
    expect(after.contract.transferDetails).toBe('Titular: Odontia SL\nIBAN: ES91 2100 0418 4502 0005 1332');
    // Still due on the same day until it is paid.
    expect(after.contract.dueDate).toBe(before.contract.dueDate);

    const again = await renew(t, {}, 'same-renewal-key');
    expect(again.statusCode).toBe(201);
    expect(again.json<RenewAnswer>().data.movement.id).toBe(movement.id);

    const second = await renew(t);
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('account_renewal_pending');

    const unknownPlan = await renew(t, { plan: 'gold' });
    expect(unknownPlan.statusCode).toBe(409);

    const list = await t.call('GET', '/api/account/movements?page=1&pageSize=5');
    expect(list.statusCode).toBe(200);
    expect(list.json().total).toBe(1);
    expect(list.json().data[0].id).toBe(movement.id);

    const one = await t.call('GET', `/api/account/movements/${movement.id}`);
    expect(one.json().data.reference).toBe(movement.reference);

    const pdf = await t.call('GET', `/api/account/movements/${movement.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Orden de renovación');
    expect(text).toContain(movement.reference);
    expect(text).toContain('Sonrisas SL');
    expect(text).toContain('Básico');
    expect(text).toMatch(/29,90\s*€/);

    const [event] = await t.auditEvents('account_renewal_ordered');
    expect(event?.entityId).toBe(movement.id);
    expect(event?.after).toMatchObject({ plan: 'basic', amount: '29.90', reference: movement.reference });

    // The operator marks it paid: the contract runs to the end of the order's period.
    const paid = await markPaid(t.db, terms, movement.reference);
    expect(paid.order.status).toBe('paid');
    const renewed = await account(t);
    expect(renewed.contract.dueDate).toBe(movement.periodEnd);
    expect(renewed.contract.pendingRenewal).toBeNull();
    const movements = (await t.call('GET', '/api/account/movements')).json();
    expect(movements.data.map((row: { kind: string; status: string }) => `${row.kind}:${row.status}`).sort()).toEqual([
      'payment:paid',
      'renewal_order:paid',
    ]);
    const [paidEvent] = await t.auditEvents('account_renewal_paid');
    expect(paidEvent?.userId).toBeNull();
    expect(paidEvent?.ip).toBe('operator');
    // Paid once only.
    await expect(markPaid(t.db, terms, movement.id)).rejects.toThrow(/not a pending renewal order/);
  });

  it('keeps another clinic’s movements out (404) and account routes for administrators', async () => {
    const page = (await t.call('GET', '/api/account/movements')).json();
    const id = page.data[0].id as string;
    for (const url of [`/api/account/movements/${id}`, `/api/account/movements/${id}/pdf`]) {
      const response = await t.call('GET', url, { token: t.other.token });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().code).toBe('account_movement_not_found');
    }
    expect((await t.call('GET', '/api/account/movements', { token: t.other.token })).json().total).toBe(0);

    for (const level of ['supervisor', 'user'] as const) {
      await t.asLevel(level, async () => {
        for (const [method, url] of [
          ['GET', '/api/account'],
          ['GET', '/api/account/movements'],
          ['GET', `/api/account/movements/${id}/pdf`],
          ['PUT', '/api/account/billing'],
        ] as const) {
          const response = await t.call(method, url, method === 'PUT' ? { body: {} } : {});
          expect(response.statusCode, `${level} ${method} ${url}`).toBe(403);
          expect(response.json().code).toBe('forbidden');
        }
        const renewal = await renew(t);
        expect(renewal.statusCode).toBe(403);
      });
    }
  });

  it('becomes read-only after the due date and grace period, and renewing lifts it at once', async () => {
    await dueIn(t, t.clinic.accountId, -11);
    const created = await t.call('POST', '/api/patients', { body: newPatientBody });
    expect(created.statusCode).toBe(403);
    expect(created.json().code).toBe('account_read_only');
    const edit = await t.call('PUT', '/api/account/billing', { body: {} });
    expect(edit.json().code).toBe('account_read_only');

    // Everything still reads; nothing was deleted.
    expect((await t.call('GET', '/api/patients')).statusCode).toBe(200);
    expect((await t.call('GET', `/api/patients/${t.patientId}`)).statusCode).toBe(200);
    expect((await account(t)).contract.state).toBe('read_only');
    const me = await t.call('GET', '/api/auth/system/me');
    expect(me.json().data.account.contractState).toBe('read_only');

    // Another clinic writes as usual.
    expect((await t.call('POST', '/api/patients', { body: newPatientBody, token: t.other.token })).statusCode).toBe(
      201,
    );

    // Renewing works on a read-only clinic and gives a new grace period at once.
    const ordered = await renew(t);
    expect(ordered.statusCode, ordered.body).toBe(201);
    const order = ordered.json<RenewAnswer>().data.movement;
    // The contract had ended: the new period starts today.
    expect(order.periodStart).toBe(clinicToday(me.json().data.account.timeZone));
    expect(ordered.json<RenewAnswer>().data.account.contract.state).toBe('grace');
    expect((await t.call('POST', '/api/patients', { body: newPatientBody })).statusCode).toBe(201);

    // Paid: active again, the contract running from today for the plan's period.
    await markPaid(t.db, terms, order.id);
    const data = await account(t);
    expect(data.contract.state).toBe('active');
    expect(data.contract.dueDate).toBe(order.periodEnd);
  });

  it("refuses a staff user past the plan's professionals (invited or reactivated); customers never count", async () => {
    await dueIn(t, t.clinic.accountId, 30, 'basic');
    const invite = (level: string) =>
      t.call('POST', '/api/users', {
        body: { completeName: 'Ana Staff', email: `staff.${Math.random()}@clinica.test`, level },
      });
    let used = (await account(t)).usage.professionals;
    const invited: { id: string; version: number }[] = [];
    while (used < 3) {
      const response = await invite('user');
      expect(response.statusCode, response.body).toBe(201);
      invited.push(response.json().data);
      used += 1;
    }
    expect((await account(t)).usage.professionals).toBe(3);
    const refused = await invite('supervisor');
    expectAnswer(refused, 409, { code: 'plan_users_full', details: { limit: 3 } });
    // A patient let into the portal is a customer membership: it never takes a professional's place.
    const patientId = await t.newPatient(undefined, { email: `portal.${Math.random()}@correo.test` });
    const portal = await t.call('POST', `/api/patients/${patientId}/portal-access`);
    expect(portal.statusCode, portal.body).toBe(200);
    expect((await account(t)).usage.professionals).toBe(3);
    // Deactivating one makes room; reactivating it while full is refused.
    const [first] = invited;
    if (!first) throw new Error('no user invited: the clinic was already full');
    const off = await t.call('PATCH', `/api/users/${first.id}`, { body: { active: false, version: first.version } });
    expect(off.statusCode, off.body).toBe(200);
    expect((await invite('user')).statusCode).toBe(201);
    const back = await t.call('PATCH', `/api/users/${first.id}`, {
      body: { active: true, version: off.json().data.version },
    });
    expect(back.statusCode, back.body).toBe(409);
    expect(back.json().code).toBe('plan_users_full');
  });

  it("refuses files past the plan's storage and takes them again once some are deleted", async () => {
    await dueIn(t, t.clinic.accountId, 30, 'tiny');
    const upload = async (bytes: number) => {
      const body = await multipart(
        [{ name: 'informe.pdf', content: paddedPdf(bytes), type: 'application/pdf' }],
        [{ fileType: 'lab_result', note: 'Informe' }],
      );
      return t.call('POST', `/api/patients/${t.patientId}/files`, {
        headers: { 'content-type': body.contentType },
        body: body.payload,
      });
    };
    const first = await upload(600 * 1024);
    expect(first.statusCode, first.body).toBe(201);
    // 600 KB + 600 KB > 1 MB: refused with what is used, nothing stored.
    const second = await upload(600 * 1024);
    expectAnswer(second, 409, { code: 'plan_storage_full', details: { limitMb: 1, usedMb: 0.6 } });
    expect((await account(t)).usage.storageMb).toBe(0.6);
    // Deleting a file frees its room.
    const removed = await t.call('DELETE', `/api/patients/${t.patientId}/files/${first.json().data[0].id}`, {
      body: { version: first.json().data[0].version },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await upload(600 * 1024)).statusCode).toBe(201);
    // A larger plan takes them.
    await dueIn(t, t.clinic.accountId, 30, 'basic');
    expect((await upload(600 * 1024)).statusCode).toBe(201);
  });

  it('keeps writing during the grace period; the operator’s extend and mark-paid lift read-only', async () => {
    await dueIn(t, t.clinic.accountId, -9);
    const inGrace = await account(t);
    expect(inGrace.contract.state).toBe('grace');
    expect((await t.call('POST', '/api/patients', { body: newPatientBody })).statusCode).toBe(201);
    // Renewing in the grace period continues from the due date, without a gap.
    const ordered = await renew(t);
    expect(ordered.statusCode, ordered.body).toBe(201);
    const order = ordered.json<RenewAnswer>().data.movement;
    expect(order.periodStart).toBe(addDays(inGrace.contract.dueDate as string, 1));
    await markPaid(t.db, terms, order.reference);
    expect((await account(t)).contract.dueDate).toBe(order.periodEnd);

    await dueIn(t, t.clinic.accountId, -40);
    expect((await t.call('POST', '/api/patients', { body: newPatientBody })).statusCode).toBe(403);
    const { endsAt } = await extendContract(t.db, terms, t.clinic.accountId, addDays(clinicToday('UTC'), 30));
    expect(endsAt.getTime()).toBeGreaterThan(Date.now());
    expect((await t.call('POST', '/api/patients', { body: newPatientBody })).statusCode).toBe(201);
    const [event] = (await t.auditEvents('account_contract_extended')).slice(-1);
    expect(event?.ip).toBe('operator');
  });

  it('refuses an API token’s writes in a read-only clinic, as a session’s, and lets it read (issue 42)', async () => {
    await dueIn(t, t.clinic.accountId, 30);
    const made = await t.call('POST', '/api/profile/api-tokens', {
      body: { name: 'Laboratorio', expiresInDays: 30, scopes: ['patients.read', 'patients.write'] },
    });
    expect(made.statusCode, made.body).toBe(201);
    const headers = { authorization: `Bearer ${made.json<{ secret: string }>().secret}` };
    const write = () => t.call('POST', '/api/patients', { token: null, headers, body: newPatientBody });
    expect((await write()).statusCode).toBe(201);
    await dueIn(t, t.clinic.accountId, -11);
    const refused = await write();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('account_read_only');
    expect((await t.call('GET', `/api/patients/${t.patientId}`, { token: null, headers })).statusCode).toBe(200);
    await dueIn(t, t.clinic.accountId, 30);
    expect((await write()).statusCode).toBe(201);
  });

  it('lets a read-only clinic sign out, lock and unlock', async () => {
    await dueIn(t, t.clinic.accountId, -40);
    const locked = await t.call('POST', '/api/auth/lock');
    expect(locked.statusCode, locked.body).toBe(200);
    const unlocked = await t.call('POST', '/api/auth/unlock', { body: { password: 'muelas-de-gato-azul-42' } });
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    await dueIn(t, t.clinic.accountId, 30);
  });

  it('runs the operator’s commands: list, mark-paid, extend, and their errors', async () => {
    await dueIn(t, t.other.accountId, -20);
    const lines = await listClinics(t.db, terms);
    const other = lines.find((line) => line.id === t.other.accountId);
    expect(other).toMatchObject({ plan: 'basic', state: 'read_only', pendingRenewal: null });
    expect(lines.find((line) => line.id === t.clinic.accountId)?.state).toBe('active');

    const out: string[] = [];
    const err: string[] = [];
    const io = { db: t.db, terms, out: (line: string) => out.push(line), err: (line: string) => err.push(line) };
    expect(await runOperator(['list'], io)).toBe(0);
    expect(out.some((line) => line.startsWith(t.other.accountId) && line.includes('read_only'))).toBe(true);
    expect(await runOperator(['mark-paid', 'RN-00000000-000000'], io)).toBe(1);
    expect(err.pop()).toMatch(/no movement/);
    expect(await runOperator(['extend', t.other.accountId, '2026-13-01'], io)).toBe(1);
    expect(await runOperator(['extend', 'No such clinic', '2030-01-01'], io)).toBe(1);
    expect(await runOperator(['frobnicate'], io)).toBe(2);
    expect(await runOperator(['extend', t.other.accountId, '2030-01-31'], io)).toBe(0);
    expect((await listClinics(t.db, terms)).find((line) => line.id === t.other.accountId)).toMatchObject({
      dueDate: '2030-01-31',
      state: 'active',
    });
  });
});

describe('a self-hosted installation (no plans)', () => {
  const t = useTestClinic(undefined, {});

  it('has no limits and never becomes read-only; renewing has no plan', async () => {
    await dueIn(t, t.clinic.accountId, -400, 'trial');
    const data = await account(t);
    expect(data).toMatchObject({ selfHosted: true, plan: null, plans: [], planId: 'trial' });
    expect(data.contract.state).toBe('active');
    expect((await t.call('POST', '/api/patients', { body: newPatientBody })).statusCode).toBe(201);
    const renewal = await renew(t);
    expect(renewal.statusCode).toBe(409);
    expect(renewal.json().code).toBe('plan_not_available');
  });
});

describe('the operator command', () => {
  it('runs against the embedded database of DATA_DIR', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'odontia-operator-'));
    try {
      const root = path.resolve(import.meta.dirname, '../../../../..');
      const { stdout } = await promisify(execFile)(process.execPath, ['scripts/operator.mjs', 'list'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PLANS: JSON.stringify(plans) },
      });
      expect(stdout.split('\n')[0]).toBe('id\tclinic\tplan\tdue date\tstate\tpending renewal');
      await expect(
        promisify(execFile)(process.execPath, ['scripts/operator.mjs', 'mark-paid', 'nothing'], {
          cwd: root,
          env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir },
        }),
      ).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('no movement nothing') });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
