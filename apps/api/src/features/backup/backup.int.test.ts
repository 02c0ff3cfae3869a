import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAuditChain } from '../../../test/audit-chain.ts';
import { bearer, createTestClinic, signIn, type TestClinic, testPassword } from '../../../test/clinics.ts';
import { MemoryMailer } from '../../../test/mail.ts';
import { multipart, paddedPdf } from '../../../test/multipart.ts';
import { availableBackends, type Backend, createTestDatabase } from '../../../test/test-database.ts';
import { buildApp } from '../../app.ts';
import { type Database, openDatabase } from '../../db/client.ts';
import { accounts } from '../../db/schema/index.ts';
import { loadEnv } from '../../env.ts';
import { claimDataDirLock } from '../../lib/data-dir-lock.ts';
import { seedDemoClinic } from '../../seed/demo.ts';
import { listAuditEvents } from '../audit/audit.repository.ts';
import { BackupArchiveError } from './archive.ts';
import { type BackupDatabase, writeBackup } from './backup.ts';
import { pgliteSourceOf } from './database-part.ts';
import { type RestoreTarget, restoreBackup } from './restore.ts';
import { startBackupSchedule } from './schedule.ts';

/**
 * Backup and restore (issue 20): the demo clinic and a clinic made through the API (a patient, an
 * uploaded file, their audit events) → one archive → restored into an empty DATA_DIR or database
 * → every table's rows and every file equal, the audit chains unbroken, and the restored app
 * serving the clinic (its roles, grants and row-level security intact). A damaged, cut or
 * altered archive and a non-empty target are refused without writing anything.
 */

const serverUrl = process.env.DATABASE_URL;

/** A database the test names (pg_dump and pg_restore need its URL), dropped at the end. */
interface NamedDatabase {
  db: Database;
  url?: string;
  drop(): Promise<void>;
}

async function createPostgresDatabase(migrated: boolean): Promise<NamedDatabase> {
  if (!serverUrl) throw new Error('DATABASE_URL is needed');
  const name = `odontia_bk_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = migrated ? await openDatabase({ databaseUrl: url.toString(), poolMax: 3 }) : undefined;
  return {
    db: db as Database,
    url: url.toString(),
    async drop() {
      await db?.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** Every table's row count and a checksum of its rows (as text, in one fixed order), and its policies and grants. */
async function fingerprint(db: Database): Promise<Record<string, string>> {
  const tables = await db.orm.execute(
    sql.raw(`select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
              where n.nspname in ('public', 'drizzle') and c.relkind in ('r', 'p') order by 1`),
  );
  const prints: Record<string, string> = {};
  for (const { name } of tables.rows as { name: string }[]) {
    const [schema, table] = name.split('.');
    const { rows } = await db.orm.execute(
      sql.raw(`select count(*)::text || ' ' || coalesce(md5(string_agg(t::text, E'\\n' order by t::text collate "C")), '-') as print
                 from "${schema}"."${table}" t`),
    );
    prints[name] = String((rows[0] as { print: string }).print);
  }
  // Row-level security and grants: what keeps a clinic's rows from another's.
  const security = await db.orm.execute(
    sql.raw(`select c.relname, c.relrowsecurity, c.relforcerowsecurity, c.relacl::text as acl,
                    (select string_agg(p.polname || ':' || pg_get_expr(p.polqual, p.polrelid) || ':' || p.polroles::regrole[]::text, ';' order by p.polname)
                       from pg_policy p where p.polrelid = c.oid) as policies
               from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') order by c.relname`),
  );
  prints['(security)'] = JSON.stringify(security.rows);
  return prints;
}

/** SHA-256 of every file under DATA_DIR's uploads and exports, by relative path. */
async function fileHashes(dataDir: string): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  for (const folder of ['uploads', 'exports']) {
    const root = path.join(dataDir, folder);
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      hashes[path.relative(dataDir, file)] = createHash('sha256')
        .update(await readFile(file))
        .digest('hex');
    }
  }
  return hashes;
}

/** Every clinic's audit chain: seq 1, 2, 3…, each hash over the previous one and the event. */
async function verifyAuditChains(db: Database): Promise<number> {
  const clinics = await db.withSystem((tx) => tx.select({ id: accounts.id }).from(accounts));
  let events = 0;
  for (const clinic of clinics) {
    const chain = await db.withTenant(clinic.id, (tx) => listAuditEvents(tx));
    expectAuditChain(chain);
    events += chain.length;
  }
  return events;
}

/** Whether a target got anything: a folder in DATA_DIR, or a table in the database. */
async function targetIsUntouched(dataDir: string, url?: string): Promise<boolean> {
  const folder = await readdir(dataDir).catch(() => undefined);
  if (folder && folder.length > 0) return false;
  if (!url) return true;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query(
    `select count(*)::int as n from pg_class where relnamespace in ('public'::regnamespace)`,
  );
  await client.end();
  return rows[0].n === 0;
}

function testEnv(dataDir: string) {
  return loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, JOBS_ENABLED: 'false' });
}

// A whole demo clinic written, unpacked and opened again (PGlite restores in-process): minutes on a busy
// two-core machine, not the 30 s a request's test gets.
describe.each(availableBackends())('backup and restore on %s', { timeout: 180_000 }, (backend: Backend) => {
  const mailer = new MemoryMailer();
  let work: string;
  let source: NamedDatabase;
  let sourceDir: string;
  let app: FastifyInstance;
  let clinic: TestClinic;
  let patientId: string;
  let fileId: string;
  let archive: string;
  let database: BackupDatabase;
  const cleanups: (() => Promise<void>)[] = [];

  /** An empty target: a new DATA_DIR, and a new empty database on PostgreSQL. */
  async function emptyTarget(): Promise<RestoreTarget & { url?: string }> {
    const dataDir = path.join(work, `target-${randomBytes(4).toString('hex')}`);
    if (backend === 'pglite') return { kind: 'pglite', dataDir };
    const empty = await createPostgresDatabase(false);
    cleanups.push(() => empty.drop());
    return { kind: 'postgres', databaseUrl: empty.url ?? '', url: empty.url ?? '', dataDir };
  }

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'odontia-backup-'));
    sourceDir = path.join(work, 'source');
    source =
      backend === 'pglite'
        ? await createTestDatabase('pglite').then((db) => ({ db, drop: () => db.close() }))
        : await createPostgresDatabase(true);
    database =
      backend === 'pglite'
        ? { kind: 'pglite', source: pgliteSourceOf(source.db) }
        : { kind: 'postgres', databaseUrl: source.url ?? '' };
    expect(await seedDemoClinic(source.db, { dataDir: sourceDir })).toBe('created');
    app = await buildApp({ env: testEnv(sourceDir), db: source.db, mailer });
    await app.ready();
    clinic = await createTestClinic(app, mailer);
    const patient = await app.inject({
      method: 'POST',
      url: '/api/patients',
      headers: bearer(clinic.token),
      payload: { firstName: 'Lucía', lastName: 'Copia', sex: 'female', birthdate: '1980-04-02' },
    });
    patientId = patient.json().data.id;
    const body = await multipart(
      [{ name: 'informe.pdf', content: paddedPdf(20_000), type: 'application/pdf' }],
      [{ fileType: 'lab_result', note: 'Análisis' }],
    );
    const uploaded = await app.inject({
      method: 'POST',
      url: `/api/patients/${patientId}/files`,
      headers: { ...bearer(clinic.token), 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    fileId = uploaded.json().data[0].id;
    // A finished report export lies beside the uploads; the backup carries that folder too.
    await mkdir(path.join(sourceDir, 'exports', 'ab'), { recursive: true });
    await writeFile(path.join(sourceDir, 'exports', 'ab', 'abcdef01-2345-4678-9abc-def012345678'), 'Fecha;Importe\n');
    archive = path.join(work, 'odontia.tar.gz');
  });

  afterAll(async () => {
    await app?.close();
    await source?.drop();
    for (const cleanup of cleanups) await cleanup();
    await rm(work, { recursive: true, force: true });
  });

  it('writes one archive whose manifest states the version, migrations, row counts and every part', async () => {
    const manifest = await writeBackup({ database, dataDir: sourceDir, to: archive });
    expect(manifest).toMatchObject({ format: 'odontia-backup', backend, appVersion: expect.any(String) });
    expect(manifest.migrations[0]).toBe('0000_platform');
    expect(manifest.rowCounts.patients).toBeGreaterThan(1);
    expect(manifest.rowCounts.audit_events).toBeGreaterThan(0);
    // Both parts of DATA_DIR: a report export and the uploads (the demo's images and thumbnails too).
    expect([...new Set(manifest.files.map((file) => file.path.split('/')[0]))].sort()).toEqual(['exports', 'uploads']);
    expect(manifest.database.sizeBytes).toBeGreaterThan(0);
    await expect(writeBackup({ database, dataDir: sourceDir, to: archive })).rejects.toThrow(/already exists/);
  });

  it('restores it into an empty target: same rows, same files, unbroken audit chains, a working clinic', async () => {
    const target = await emptyTarget();
    const { restored } = await restoreBackup(archive, target);
    expect(restored.rowCounts.patients).toBeGreaterThan(1);

    const copy =
      target.kind === 'pglite'
        ? await openDatabase({ pgliteDir: path.join(target.dataDir, 'db') })
        : await openDatabase({ databaseUrl: target.databaseUrl, poolMax: 3 });
    const copyApp = await buildApp({ env: testEnv(target.dataDir), db: copy, mailer });
    try {
      expect(await fingerprint(copy)).toEqual(await fingerprint(source.db));
      expect(await fileHashes(target.dataDir)).toEqual(await fileHashes(sourceDir));
      expect(await verifyAuditChains(copy)).toBeGreaterThan(2);
      // Signing in and reading the file runs as odontia_app under row-level security.
      const session = await signIn(copyApp, clinic.email, testPassword);
      const content = await copyApp.inject({
        method: 'GET',
        url: `/api/patients/${patientId}/files/${fileId}/content`,
        headers: bearer(session.token),
      });
      expect(content.statusCode).toBe(200);
      expect(content.rawPayload.equals(paddedPdf(20_000))).toBe(true);
      const patients = await copyApp.inject({ method: 'GET', url: '/api/patients', headers: bearer(session.token) });
      expect(patients.json().total).toBe(1);
      // A restored target is no longer empty: a second restore into it is refused.
      await expect(restoreBackup(archive, target)).rejects.toThrow(/already holds a database|is not empty/);
    } finally {
      await copyApp.close();
      await copy.close();
    }
  });

  it('refuses a damaged, cut or altered archive before writing anything', async () => {
    const bytes = await readFile(archive);
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(flipped.length / 2)] = (flipped[Math.floor(flipped.length / 2)] ?? 0) ^ 0xff;
    // One byte of a part changed inside a well-formed gzip: only the manifest's SHA-256 notices.
    const tarBytes = gunzipSync(bytes);
    tarBytes[512 + 100] = (tarBytes[512 + 100] ?? 0) ^ 0x01;
    const cases = [
      { name: 'flipped.tar.gz', content: flipped, error: /damaged or incomplete/ },
      { name: 'altered.tar.gz', content: gzipSync(tarBytes), error: /database\/.* is damaged: its SHA-256/ },
      {
        name: 'cut.tar.gz',
        content: bytes.subarray(0, Math.floor(bytes.length * 0.7)),
        error: /damaged or incomplete/,
      },
    ];
    for (const { name, content, error } of cases) {
      const file = path.join(work, name);
      await writeFile(file, content);
      const target = await emptyTarget();
      const refusal = restoreBackup(file, target, { lock: (dir) => claimDataDirLock(dir, 'restore') });
      await expect(refusal, name).rejects.toBeInstanceOf(BackupArchiveError);
      await expect(refusal, name).rejects.toThrow(error);
      expect(await targetIsUntouched(target.dataDir, target.url), name).toBe(true);
    }
    // A file cut on a tar boundary ends before its manifest.
    const noManifest = path.join(work, 'no-manifest.tar.gz');
    await writeFile(noManifest, gzipSync(tarBytes.subarray(0, 1024)));
    await expect(restoreBackup(noManifest, await emptyTarget())).rejects.toThrow(BackupArchiveError);
    await truncate(noManifest, 0);
    await expect(restoreBackup(noManifest, await emptyTarget())).rejects.toThrow(BackupArchiveError);
  });

  it('refuses a target that holds a database or files', async () => {
    const withFiles = await emptyTarget();
    await mkdir(path.join(withFiles.dataDir, 'uploads', 'aa'), { recursive: true });
    await writeFile(path.join(withFiles.dataDir, 'uploads', 'aa', 'left-over'), 'x');
    await expect(restoreBackup(archive, withFiles)).rejects.toThrow(/uploads is not empty/);
    if (backend === 'postgres') {
      // The source database itself: it holds the installation.
      const target: RestoreTarget = { kind: 'postgres', databaseUrl: source.url ?? '', dataDir: path.join(work, 'x') };
      await expect(restoreBackup(archive, target)).rejects.toThrow(/not empty/);
    }
  });
});

describe('the scheduled backup', { timeout: 180_000 }, () => {
  let db: Database;
  let work: string;
  beforeAll(async () => {
    db = await createTestDatabase('pglite');
    work = await mkdtemp(path.join(os.tmpdir(), 'odontia-schedule-'));
  });
  afterAll(async () => {
    await db?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('writes one when the newest is an interval old, and keeps the newest N', async () => {
    let clock = new Date('2026-11-28T03:00:00Z');
    const folder = path.join(work, 'backups');
    const schedule = startBackupSchedule({
      db,
      dataDir: work,
      folder,
      keep: 2,
      intervalMs: 24 * 3_600_000,
      firstCheckMs: 3_600_000,
      log: { info() {}, error() {} },
      now: () => clock,
    });
    try {
      const first = await schedule.runDue();
      expect(first).toMatch(/odontia-backup-2026-11-28T03-00-00Z\.tar\.gz$/);
      clock = new Date('2026-11-28T20:00:00Z');
      expect(await schedule.runDue()).toBeUndefined();
      clock = new Date('2026-11-29T03:00:00Z');
      await schedule.runDue();
      clock = new Date('2026-11-30T09:30:00Z');
      await schedule.runDue();
      expect((await readdir(folder)).sort()).toEqual([
        'odontia-backup-2026-11-29T03-00-00Z.tar.gz',
        'odontia-backup-2026-11-30T09-30-00Z.tar.gz',
      ]);
      expect((await stat(path.join(folder, 'odontia-backup-2026-11-30T09-30-00Z.tar.gz'))).size).toBeGreaterThan(0);
    } finally {
      await schedule.stop();
    }
  });
});
