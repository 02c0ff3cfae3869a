import { reportIds } from '@odontia/shared/schemas/reports';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useTestClinic } from '../../test/test-clinic.ts';
import { lastWriteOf } from './read-your-writes.ts';
import { routes } from './routes.ts';

/*
 * Reads on a replica (issue 20), on PostgreSQL with the database as its own "replica": the replica
 * routes run in read-only transactions there, so any write in one fails here — the reports, the
 * dashboard and the lists read only. Writes answer the primary's WAL position (header and cookie)
 * for the next read to wait for. The real replica (pg_basebackup, replay paused) is in
 * `npm run test:cluster`.
 */
describe.runIf(process.env.DATABASE_URL)('replica routes (PostgreSQL, the database as its own replica)', () => {
  const t = useTestClinic('postgres', {
    patient: true,
    selfReplica: true,
    configure(app) {
      const route = routes(app, { tags: ['test'] });
      const tryWrite = async ({
        ctx,
      }: {
        ctx: { tx: { execute: (query: ReturnType<typeof sql>) => Promise<unknown> } };
      }) => {
        await ctx.tx.execute(sql`update patients set first_name = first_name where false`);
        return { data: 'written' };
      };
      route.get(
        '/api/test/replica-write',
        { permission: 'patients.read', summary: 'test', replica: true, produces: ['application/json'] },
        tryWrite,
      );
      route.get(
        '/api/test/primary-write',
        { permission: 'patients.read', summary: 'test', produces: ['application/json'] },
        tryWrite,
      );
    },
  });

  it('a write answers the WAL position to wait for; every replica route reads in a read-only transaction', async () => {
    const created = await t.call('POST', '/api/patients', {
      body: { firstName: 'Réplica', lastName: 'Lectura', sex: 'female', birthdate: '1990-01-01' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const lsn = created.headers['x-odontia-lsn'];
    expect(lsn).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
    expect(String(created.headers['set-cookie'])).toContain(
      `odontia_lsn=${lsn}; Path=/; Max-Age=60; HttpOnly; SameSite=Strict`,
    );
    // A read answers no position.
    const listed = await t.call('GET', '/api/patients?q=Lectura', { headers: { cookie: `odontia_lsn=${lsn}` } });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.headers['x-odontia-lsn']).toBeUndefined();
    expect(listed.json().data.map((patient: { lastName: string }) => patient.lastName)).toContain('Lectura');
    // Row-level security holds on the replica path: another clinic's list does not show it.
    const others = await t.call('GET', '/api/patients?q=Lectura', { token: t.other.token });
    expect(others.statusCode).toBe(200);
    expect(others.json().data).toEqual([]);

    const reads = [
      '/api/dashboard',
      ...reportIds.map((id) => `/api/reports/${id}?from=2026-11-01&to=2026-11-28`),
      '/api/reports/sales-vat-book?from=2026-11-01&to=2026-11-28&format=csv',
      '/api/patients?page=1&pageSize=5',
      '/api/sales',
      '/api/collections',
      '/api/current-accounts/customers',
      '/api/current-accounts/providers',
    ];
    for (const url of reads) {
      const response = await t.call('GET', url, { headers: { 'x-odontia-lsn': String(lsn) } });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    }

    // A background export reads its chunks there too (its progress is written on the primary).
    const queued = await t.call('POST', '/api/reports/sales-vat-book/exports', {
      body: { from: '2026-11-01', to: '2026-11-28', format: 'csv' },
    });
    expect(queued.statusCode, queued.body).toBe(201);
    for (let round = 0; round < 4; round++) await t.app.jobs.runDue();
    expect((await t.call('GET', `/api/reports/exports/${queued.json().data.id}`)).json().data.state).toBe('done');

    // The route's flag is what sends it to the read-only transaction.
    const onReplica = await t.call('GET', '/api/test/replica-write');
    expect(onReplica.statusCode).toBe(500);
    expect((await t.call('GET', '/api/test/primary-write')).statusCode).toBe(200);
  });

  it('reads the position from the header, else the cookie, and ignores a malformed one', () => {
    const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;
    expect(lastWriteOf(request({ 'x-odontia-lsn': '0/1A2B3C' }))).toBe('0/1A2B3C');
    expect(lastWriteOf(request({ cookie: 'tz=America%2FBogota; odontia_lsn=16/B374D848' }))).toBe('16/B374D848');
    expect(lastWriteOf(request({ 'x-odontia-lsn': "0/1'; drop", cookie: 'odontia_lsn=1/2' }))).toBe('1/2');
    expect(lastWriteOf(request({ cookie: 'odontia_lsn=nada' }))).toBeUndefined();
    expect(lastWriteOf(request({}))).toBeUndefined();
  });
});
