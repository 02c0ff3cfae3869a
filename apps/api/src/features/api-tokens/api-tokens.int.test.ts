import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectAuditChain } from '../../../test/audit-chain.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { buildApp } from '../../app.ts';
import { listAuditEvents } from '../audit/audit.repository.ts';

/**
 * API tokens (issue 42): made by a session, shown once, hashed at rest; a request with one needs
 * the route's action in its level AND its scopes, never sees another clinic, never calls a
 * person's own routes; revoked or expired answers 401; each token has its limit per minute; its
 * writes are audited with the token as the actor.
 */

const bearerOf = (secret: string) => ({ authorization: `Bearer ${secret}` });

describe.each(availableBackends())('API tokens on %s', (backend) => {
  const t = useTestClinic(backend, { patient: true });

  const make = async (
    body: Record<string, unknown>,
    { path = '/api/profile/api-tokens', token }: { path?: string; token?: string } = {},
  ) => {
    const response = await t.call('POST', path, {
      body: { name: 'Integración', expiresInDays: 30, ...body },
      ...(token ? { token } : {}),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ data: { id: string; prefix: string; state: string }; secret: string; code: string }>();
  };
  const withToken = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, secret: string, body?: object) =>
    t.call(method, url, { token: null, headers: bearerOf(secret), ...(body ? { body } : {}) });

  it('shows the secret once, keeps only its sha256 and prefix, and lists it without the secret', async () => {
    const made = await make({ scopes: ['patients.read'] });
    expect(made.code).toBe('api_token_created');
    expect(made.secret).toMatch(/^odt_[A-Za-z0-9_-]{43}$/);
    expect(made.data.prefix).toBe(made.secret.slice(0, 12));
    expect(made.data.state).toBe('active');

    const listed = await t.call('GET', '/api/profile/api-tokens');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.body).not.toContain(made.secret);
    expect(listed.json().data.map((token: { id: string }) => token.id)).toContain(made.data.id);

    const rows = await t.db.withSystem(async (tx) => (await tx.execute(sql`select * from api_tokens`)).rows);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(made.secret.slice(12));
    expect(stored).toContain(createHash('sha256').update(made.secret).digest('hex'));
  });

  it('makes one token for one Idempotency-Key, also sent five times at once', async () => {
    const name = `Doble clic ${Date.now()}`;
    const send = () =>
      t.call('POST', '/api/profile/api-tokens', {
        body: { name, expiresInDays: 7, scopes: ['patients.read'] },
        idempotencyKey: 'tokens-double-click-0001',
      });
    const answers = await Promise.all(Array.from({ length: 5 }, send));
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
    expect(new Set(answers.map((answer) => answer.json().data.id)).size).toBe(1);
    const listed = await t.call('GET', '/api/profile/api-tokens?pageSize=100');
    expect(listed.json().data.filter((token: { name: string }) => token.name === name)).toHaveLength(1);
    const missing = await t.call('POST', '/api/profile/api-tokens', {
      body: { name, expiresInDays: 7, scopes: ['patients.read'] },
      idempotencyKey: null,
    });
    expect(missing.json().code).toBe('idempotency_key_required');
  });

  it('reads what its scopes and level allow, and nothing of another clinic', async () => {
    const { secret } = await make({ scopes: ['patients.read'] });
    const own = await withToken('GET', `/api/patients/${t.patientId}`, secret);
    expect(own.statusCode, own.body).toBe(200);
    const otherPatient = await t.newPatient(t.other.token);
    const foreign = await withToken('GET', `/api/patients/${otherPatient}`, secret);
    expect(foreign.statusCode).toBe(404);
    const list = await withToken('GET', '/api/patients', secret);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(otherPatient);

    const write = await withToken('POST', '/api/patients', secret, {
      firstName: 'Ana',
      lastName: 'Ruiz',
      sex: 'female',
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().code).toBe('api_token_scope_missing');
    const users = await withToken('GET', '/api/users', secret);
    expect(users.json().code).toBe('api_token_scope_missing');
  });

  it('never calls a session-only route: sign-out, me, the tokens themselves', async () => {
    const { secret } = await make({ scopes: ['patients.read', 'users.manage'] });
    for (const [method, url] of [
      ['POST', '/api/auth/sign-out'],
      ['GET', '/api/auth/system/me'],
      ['GET', '/api/profile/api-tokens'],
      ['GET', '/api/api-tokens'],
      ['POST', '/api/api-tokens'],
    ] as const) {
      const response = await withToken(method, url, secret, method === 'POST' ? {} : undefined);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403);
      expect(response.json().code).toBe('api_token_not_allowed');
    }
  });

  it('refuses scopes beyond its creator level, and a personal token follows its user level', async () => {
    const { secret } = await make({ scopes: ['patients.read', 'users.manage'] });
    expect((await withToken('GET', '/api/users', secret)).statusCode).toBe(200);
    await t.asLevel('user', async () => {
      const beyond = await t.call('POST', '/api/profile/api-tokens', {
        body: { name: 'X', expiresInDays: 30, scopes: ['users.manage'] },
      });
      expect(beyond.statusCode).toBe(400);
      expect(beyond.json().code).toBe('api_token_scope_invalid');
      // The administrator's token, while its user is a mere user: the level decides too.
      const demoted = await withToken('GET', '/api/users', secret);
      expect(demoted.statusCode).toBe(403);
      expect(demoted.json().code).toBe('forbidden');
      const clinic = await t.call('POST', '/api/api-tokens', {
        body: { name: 'X', expiresInDays: 30, scopes: ['patients.read'] },
      });
      expect(clinic.statusCode).toBe(403);
    });
    for (const body of [
      { name: 'X', expiresInDays: 0, scopes: ['patients.read'] },
      { name: 'X', expiresInDays: 366, scopes: ['patients.read'] },
      { name: 'X', scopes: ['patients.read'] },
      { name: 'X', expiresInDays: 30, scopes: ['profile.manage'] },
      { name: 'X', expiresInDays: 30, scopes: [] },
      { name: 'X', expiresInDays: 30, scopes: ['patients.read'], rateLimitPerMinute: 601 },
    ]) {
      const refused = await t.call('POST', '/api/profile/api-tokens', { body });
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('a clinic token acts for the clinic as an administrator, within its scopes', async () => {
    const { secret, data } = await make({ scopes: ['users.manage'] }, { path: '/api/api-tokens' });
    expect((await withToken('GET', '/api/users', secret)).statusCode).toBe(200);
    const listed = await t.call('GET', '/api/api-tokens');
    expect(listed.json().data.map((token: { id: string }) => token.id)).toEqual([data.id]);
    // Another clinic's administrator neither sees nor revokes it.
    const foreign = await t.call('POST', `/api/api-tokens/${data.id}/revoke`, { token: t.other.token });
    expect(foreign.statusCode).toBe(404);
    expect((await t.call('GET', '/api/api-tokens', { token: t.other.token })).json().total).toBe(0);
  });

  it('answers 401 once revoked or expired, and audits creating and revoking', async () => {
    const { secret, data } = await make({ scopes: ['patients.read'] });
    expect((await withToken('GET', '/api/patients', secret)).statusCode).toBe(200);
    const revoked = await t.call('POST', `/api/profile/api-tokens/${data.id}/revoke`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().data.state).toBe('revoked');
    expect((await withToken('GET', '/api/patients', secret)).statusCode).toBe(401);
    const again = await t.call('POST', `/api/profile/api-tokens/${data.id}/revoke`);
    expect(again.statusCode).toBe(200);

    const expiring = await make({ scopes: ['patients.read'] });
    await t.db.withSystem((tx) =>
      tx.execute(sql`update api_tokens set expires_at = now() - interval '1 second' where id = ${expiring.data.id}`),
    );
    expect((await withToken('GET', '/api/patients', expiring.secret)).statusCode).toBe(401);
    expect((await withToken('GET', '/api/patients', 'odt_not-a-token')).statusCode).toBe(401);

    const created = await t.auditEvents('api_token_created');
    expect(created.map((event) => event.entityId)).toContain(data.id);
    const revokedEvents = (await t.auditEvents('api_token_revoked')).filter((event) => event.entityId === data.id);
    expect(revokedEvents).toHaveLength(1);
  });

  it('records the token as the actor of its writes, and keeps last_used_at', async () => {
    const { secret, data } = await make({ scopes: ['patients.read', 'patients.write'] });
    const written = await withToken('POST', '/api/patients', secret, {
      firstName: 'Marta',
      lastName: 'Gil',
      sex: 'female',
      birthdate: '1990-01-01',
    });
    expect(written.statusCode, written.body).toBe(201);
    const events = await t.db.withTenant(t.clinic.accountId, (tx) => listAuditEvents(tx));
    const byToken = events.filter((event) => event.apiTokenId === data.id);
    expect(byToken.length).toBeGreaterThan(0);
    expect(byToken[0]?.entityId).toBe(written.json().data.id);
    expect(byToken[0]?.userId).toBe(t.clinic.userId);
    expectAuditChain(events);
    const listed = await t.call('GET', '/api/profile/api-tokens');
    const mine = listed.json().data.find((token: { id: string }) => token.id === data.id);
    expect(mine.lastUsedAt).not.toBeNull();
  });

  it('limits each token per minute: 429 with Retry-After', async () => {
    const { secret } = await make({ scopes: ['patients.read'], rateLimitPerMinute: 3 });
    for (let index = 0; index < 3; index += 1) {
      expect((await withToken('GET', '/api/patients', secret)).statusCode).toBe(200);
    }
    const limited = await withToken('GET', '/api/patients', secret);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('too_many_requests');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another token of the same person has its own count.
    const { secret: fresh } = await make({ scopes: ['patients.read'] });
    expect((await withToken('GET', '/api/patients', fresh)).statusCode).toBe(200);
  });

  it('shares a token count between API processes on one database', async () => {
    const { secret } = await make({ scopes: ['patients.read'], rateLimitPerMinute: 4 });
    const other = await buildApp({ env: t.testApp.env, db: t.db, mailer: t.mailer });
    await other.ready();
    try {
      for (let index = 0; index < 4; index += 1) {
        const target = index % 2 === 0 ? t.app : other;
        const answer = await target.inject({ method: 'GET', url: '/api/patients', headers: bearerOf(secret) });
        expect(answer.statusCode).toBe(200);
      }
      for (const target of [t.app, other]) {
        const answer = await target.inject({ method: 'GET', url: '/api/patients', headers: bearerOf(secret) });
        expect(answer.statusCode).toBe(429);
      }
    } finally {
      await other.close();
    }
  });

  it('a patient (portal) makes no tokens', async () => {
    const email = `portal.${Date.now().toString(36)}@example.com`;
    const patientId = await t.newPatient(t.clinic.token, { email });
    expect((await t.call('POST', `/api/patients/${patientId}/portal-access`)).statusCode).toBe(200);
    const opened = await t.call('POST', `/api/public/portal-links/${t.mailer.tokenFor(email)}`, { token: null });
    const customer = opened.json().data.token as string;
    const refused = await t.call('POST', '/api/profile/api-tokens', {
      token: customer,
      body: { name: 'X', expiresInDays: 30, scopes: ['patients.read'] },
    });
    expect(refused.statusCode).toBe(403);
  });

  it("the administrator sees the team's personal tokens and revokes one: 401 at once, audited, idempotent", async () => {
    // A member of the clinic: another clinic's administrator invited here as a user, switched in.
    const member = await t.newClinic();
    const invited = await t.call('POST', '/api/users', {
      body: { completeName: 'Dra. Marta Ruiz', email: member.email, level: 'user' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const memberId = invited.json().data.id as string;
    const switched = await t.call('POST', '/api/auth/switch', {
      token: member.token,
      body: { accountId: t.clinic.accountId },
    });
    expect(switched.statusCode, switched.body).toBe(200);
    const memberToken = switched.json().data.token as string;
    const mine = await make({ name: 'CRM de Marta', scopes: ['patients.read'] }, { token: memberToken });
    expect((await withToken('GET', '/api/patients', mine.secret)).statusCode).toBe(200);
    const clinicToken = await make({ scopes: ['patients.read'] }, { path: '/api/api-tokens' });

    const listed = await t.call('GET', '/api/api-tokens/members?pageSize=100');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.body).not.toContain(mine.secret);
    expect(listed.body).not.toContain(createHash('sha256').update(mine.secret).digest('hex'));
    const rows = listed.json().data as { id: string; kind: string; ownerId: string }[];
    expect(rows.every((row) => row.kind === 'personal')).toBe(true);
    expect(rows.map((row) => row.id)).not.toContain(clinicToken.data.id);
    expect(rows.find((row) => row.id === mine.data.id)).toMatchObject({
      ownerId: memberId,
      ownerName: 'Dra. Marta Ruiz',
      name: 'CRM de Marta',
      prefix: mine.data.prefix,
      scopes: ['patients.read'],
      state: 'active',
      revokedAt: null,
    });
    expect(Object.keys(rows[0] ?? {})).not.toContain('tokenHash');

    // Not an administrator: 403, also for the member about their own token here.
    expect((await t.call('GET', '/api/api-tokens/members', { token: memberToken })).statusCode).toBe(403);
    const byMember = await t.call('POST', `/api/api-tokens/members/${mine.data.id}/revoke`, { token: memberToken });
    expect(byMember.statusCode).toBe(403);
    // A token never reaches these routes, even the administrator's.
    const adminToken = await make({ scopes: ['users.manage'] });
    const viaToken = await withToken('GET', '/api/api-tokens/members', adminToken.secret);
    expect(viaToken.json().code).toBe('api_token_not_allowed');
    // Another clinic's administrator: 404, and their list does not show it.
    const foreign = await t.call('POST', `/api/api-tokens/members/${mine.data.id}/revoke`, { token: t.other.token });
    expect(foreign.statusCode).toBe(404);
    const foreignList = await t.call('GET', '/api/api-tokens/members', { token: t.other.token });
    expect(foreignList.body).not.toContain(mine.data.id);
    // Unknown ids and clinic tokens are not members' tokens: 404.
    const unknown = await t.call('POST', '/api/api-tokens/members/0193a8a0-0000-7000-8000-000000000000/revoke');
    expect(unknown.statusCode).toBe(404);
    expect((await t.call('POST', `/api/api-tokens/members/${clinicToken.data.id}/revoke`)).statusCode).toBe(404);
    expect((await withToken('GET', '/api/patients', mine.secret)).statusCode).toBe(200);

    const revoked = await t.call('POST', `/api/api-tokens/members/${mine.data.id}/revoke`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({
      code: 'api_token_revoked',
      data: { id: mine.data.id, state: 'revoked', ownerId: memberId },
    });
    expect((await withToken('GET', '/api/patients', mine.secret)).statusCode).toBe(401);
    const again = await t.call('POST', `/api/api-tokens/members/${mine.data.id}/revoke`);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.revokedAt).toBe(revoked.json().data.revokedAt);

    const events = (await t.auditEvents('api_token_revoked')).filter((event) => event.entityId === mine.data.id);
    expect(events).toHaveLength(1);
    expect(events[0]?.userId).toBe(t.clinic.userId);
    expect(JSON.stringify(events[0])).toContain(memberId);
    // The owner sees it revoked in their own list.
    const own = await t.call('GET', '/api/profile/api-tokens', { token: memberToken });
    expect(own.json().data.find((token: { id: string }) => token.id === mine.data.id).state).toBe('revoked');
  });
});
