import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { photoUpload } from '../../../test/multipart.ts';
import { useTestClinic } from '../../../test/test-clinic.ts';
import { availableBackends } from '../../../test/test-database.ts';
import { excludedTables } from './clinic-export.repository.ts';

/**
 * The clinic's full export (issue 42): every clinic table (found in the catalogue) and no other
 * clinic's row, no secret, every file, a manifest whose SHA-256s match, a job whose progress moves;
 * administrators only.
 */

function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe.each(availableBackends())('clinic export on %s', (backend) => {
  // 40 rows per run: the progress moves over several runs, as it would over a big clinic's data.
  const t = useTestClinic(backend, { patient: true, env: { CLINIC_EXPORT_CHUNK_ROWS: '40' } });

  it('writes every clinic table, its files and a manifest, and nothing of another clinic or any secret', async () => {
    // Data of both clinics, secrets included (sessions, an API token).
    const photo = await photoUpload();
    const uploaded = await t.call('POST', `/api/patients/${t.patientId}/files`, {
      headers: { 'content-type': photo.contentType },
      body: photo.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const fileId = uploaded.json().data[0].id as string;
    const token = await t.call('POST', '/api/profile/api-tokens', {
      body: { name: 'ERP', expiresInDays: 10, scopes: ['patients.read'] },
    });
    const secret = token.json<{ secret: string }>().secret;
    const foreignPatient = await t.newPatient(t.other.token, { firstName: 'Forastera' });

    const queued = await t.call('POST', '/api/clinic-exports');
    expect(queued.statusCode, queued.body).toBe(201);
    expect(queued.json().code).toBe('clinic_export_queued');
    const exportId = queued.json().data.id as string;
    expect(queued.json().data.state).toBe('queued');
    const again = await t.call('POST', '/api/clinic-exports');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('clinic_export_running');
    const early = await t.call('GET', `/api/clinic-exports/${exportId}/file`);
    expect(early.statusCode).toBe(409);

    const status = async () => (await t.call('GET', `/api/clinic-exports/${exportId}`)).json().data;
    await t.app.jobs.runDue();
    const first = await status();
    expect(first.state).toBe('running');
    expect(first.progress).toBeGreaterThan(0);
    expect(first.progress).toBeLessThan(100);
    expect(first.tableCount).toBeGreaterThan(20);
    const seen = [first.progress];
    for (let round = 0; round < 400 && (await status()).state !== 'done'; round++) {
      await t.app.jobs.runDue();
      seen.push((await status()).progress);
    }
    const done = await status();
    expect(done.state, JSON.stringify(done)).toBe('done');
    expect(done.progress).toBe(100);
    expect(done.filesWritten).toBe(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(done.expiresAt).not.toBeNull();

    // Another clinic's administrator: 404 on its id; a supervisor: 403.
    expect((await t.call('GET', `/api/clinic-exports/${exportId}`, { token: t.other.token })).statusCode).toBe(404);
    expect((await t.call('GET', `/api/clinic-exports/${exportId}/file`, { token: t.other.token })).statusCode).toBe(
      404,
    );
    await t.asLevel('supervisor', async () => {
      expect((await t.call('GET', `/api/clinic-exports/${exportId}/file`)).statusCode).toBe(403);
      expect((await t.call('POST', '/api/clinic-exports')).statusCode).toBe(403);
      expect((await t.call('GET', '/api/clinic-exports')).statusCode).toBe(403);
    });

    const download = await t.call('GET', `/api/clinic-exports/${exportId}/file`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toContain('application/zip');
    const entries = await unzip(download.rawPayload);

    // Every clinic table of the schema, found independently here, but the excluded ones.
    const { rows } = await t.db.withSystem((tx) =>
      tx.execute<{ table_name: string }>(sql`
        select distinct c.table_name from information_schema.columns c
        join information_schema.tables x on x.table_schema = c.table_schema and x.table_name = c.table_name
        where c.table_schema = 'public' and c.column_name = 'account_id' and x.table_type = 'BASE TABLE'`),
    );
    const expected = rows
      .map((row) => row.table_name)
      .filter((name) => !Object.hasOwn(excludedTables, name))
      .sort();
    const tables = [...entries.keys()]
      .filter((name) => name.startsWith('tables/'))
      .map((name) => name.slice('tables/'.length, -'.jsonl'.length))
      .sort();
    expect(tables).toEqual(expected);
    // The exclusions name real clinic tables (a stale list would exclude nothing), none of them exported.
    const clinicTableNames = rows.map((row) => row.table_name);
    for (const excluded of Object.keys(excludedTables)) {
      expect(clinicTableNames).toContain(excluded);
      expect(tables).not.toContain(excluded);
    }
    // A table with a secret column is exported without it: the API tokens keep their prefix, not their hash.
    const tokens = (entries.get('tables/api_tokens.jsonl')?.toString('utf8') ?? '').split('\n').filter(Boolean);
    expect(tokens.length).toBeGreaterThan(0);
    for (const line of tokens) {
      const row = JSON.parse(line) as Record<string, unknown>;
      expect(row).toHaveProperty('prefix');
      expect(row).not.toHaveProperty('token_hash');
    }
    expect(tables).toContain('patients');
    expect(tables).toContain('api_tokens');

    // Only this clinic's rows; the secrets nowhere.
    const everything = [...entries.values()].map((bytes) => bytes.toString('utf8')).join('\n');
    for (const [name, bytes] of entries) {
      if (!name.startsWith('tables/')) continue;
      for (const line of bytes.toString('utf8').split('\n').filter(Boolean)) {
        const row = JSON.parse(line) as Record<string, unknown>;
        expect(row.account_id, name).toBe(t.clinic.accountId);
        for (const column of Object.keys(row)) {
          expect(column, name).not.toMatch(/password_hash$|token_hash$|_sealed$|^webhook_key$/);
        }
      }
    }
    expect(everything).not.toContain(foreignPatient);
    expect(everything).not.toContain(t.other.accountId);
    expect(everything).not.toContain(sha256(secret));
    expect(everything).not.toContain(sha256(t.clinic.token));
    const patients = entries.get('tables/patients.jsonl')?.toString('utf8') ?? '';
    expect(patients).toContain(t.patientId);

    // The file, as uploaded; the README's dictionary; the manifest's hashes.
    const fileEntry = [...entries.keys()].find((name) => name.startsWith(`files/${fileId}/`));
    expect(fileEntry).toBe(`files/${fileId}/sonrisa.png`);
    const readme = entries.get('README.md')?.toString('utf8') ?? '';
    expect(readme).toContain('### patients');
    expect(readme).toMatch(/\| first_name \| text \|/);
    const manifest = JSON.parse(entries.get('manifest.json')?.toString('utf8') ?? '{}') as {
      entries: { path: string; sha256: string; bytes: number }[];
    };
    expect(manifest.entries.map((entry) => entry.path).sort()).toEqual(
      [...entries.keys()].filter((name) => name !== 'manifest.json').sort(),
    );
    for (const entry of manifest.entries) {
      const bytes = entries.get(entry.path) as Buffer;
      expect(sha256(bytes), entry.path).toBe(entry.sha256);
      expect(bytes.length).toBe(entry.bytes);
    }

    const requested = await t.auditEvents('clinic_export_requested');
    expect(requested.map((event) => event.entityId)).toContain(exportId);
    expect((await t.auditEvents('clinic_export_downloaded')).length).toBeGreaterThan(0);
  });
});
