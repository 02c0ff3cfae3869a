import { mkdir, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestPatient } from '../../../test/clinical.ts';
import { bearer, createTestClinic, type TestClinic } from '../../../test/clinics.ts';
import { MemoryMailer } from '../../../test/mail.ts';
import { createTestApp, type TestApp } from '../../../test/test-app.ts';
import { availableBackends } from '../../../test/test-database.ts';

/*
 * Uploads that do not arrive whole (issue 14): a body without a boundary or malformed is a 400,
 * not a 500; a client that stops sending is cut off after BODY_IDLE_TIMEOUT_SECONDS; a client
 * that goes away is noticed; and in every case nothing stays in DATA_DIR/uploads/.tmp.
 */

const boundary = 'odontia-test-boundary';
const pdfHeader = Buffer.from('%PDF-1.4\n');

/** A whole multipart body with one PDF-looking file of `size` bytes, and where its file bytes start. */
function multipartBody(size: number): { body: Buffer; fileStart: number } {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="metadata"\r\n\r\n[{"fileType":"photo"}]\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="corte.pdf"\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
  const file = Buffer.concat([pdfHeader, Buffer.alloc(size - pdfHeader.length, 0x20)]);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, file, tail]), fileStart: head.length };
}

/** Every file under a folder, with its size (none when the folder does not exist). */
async function filesIn(folder: string): Promise<{ name: string; size: number }[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((entry) => entry.isFile());
  const found = await Promise.all(
    files.map(async (entry) => {
      const full = path.join(entry.parentPath, entry.name);
      // A temp file may go between the listing and its stat: the server is removing it.
      const info = await stat(full).catch(() => undefined);
      return info ? [{ name: path.relative(folder, full), size: info.size }] : [];
    }),
  );
  return found.flat();
}

/** Polls until `check` holds or `ms` pass; answers whether it held. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

interface RawUpload {
  socket: net.Socket;
  /** What the server wrote back, once it closed the connection or `ms` passed. */
  outcome(ms: number): Promise<{ closed: boolean; answer: string }>;
}

/** Opens a socket and sends the request head and the first `bytes` of the body, announcing all of it. */
async function startUpload(address: string, target: string, token: string, body: Buffer, bytes: number) {
  const { hostname, port } = new URL(address);
  const socket = net.connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  socket.on('error', () => undefined);
  let answer = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => {
    answer += chunk.toString('latin1');
  });
  const closing = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void closing.then(() => {
    closed = true;
  });
  socket.write(
    `POST ${target} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${bearer(token).authorization}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  socket.write(body.subarray(0, bytes));
  const upload: RawUpload = {
    socket,
    async outcome(ms) {
      await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, ms))]);
      return { closed, answer };
    },
  };
  return upload;
}

describe.each(availableBackends())('interrupted uploads on %s', (backend) => {
  let testApp: TestApp;
  let app: FastifyInstance;
  let clinic: TestClinic;
  let patientId: string;
  let address: string;
  let tmpDir: string;
  const mailer = new MemoryMailer();
  const target = () => `/api/patients/${patientId}/files`;

  beforeAll(async () => {
    testApp = await createTestApp({
      backend,
      mailer,
      env: { UPLOAD_MAX_MB: '2', UPLOAD_TOTAL_MAX_MB: '4', BODY_IDLE_TIMEOUT_SECONDS: '1' },
    });
    app = testApp.app;
    tmpDir = path.join(testApp.env.DATA_DIR, 'uploads', '.tmp');
    clinic = await createTestClinic(app, mailer);
    patientId = await createTestPatient(app, clinic.token);
    address = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  /** Sends the head and 1 MB of the file, and waits until its bytes are being written to .tmp. */
  async function cutAfterOneMegabyte(): Promise<RawUpload> {
    const { body, fileStart } = multipartBody(1_500_000);
    const upload = await startUpload(address, target(), clinic.token, body, fileStart + 1_000_000);
    const writing = await eventually(async () => (await filesIn(tmpDir)).some((file) => file.size > 0), 5000);
    expect(writing, 'the partial file reaches uploads/.tmp').toBe(true);
    return upload;
  }

  const tmpIsEmpty = () => eventually(async () => (await filesIn(tmpDir)).length === 0, 3000);

  it('answers a multipart body without a boundary (or with a bad one) 400 invalid_multipart_body, not 500', async () => {
    for (const contentType of [
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/form-data; boundary=""',
      `multipart/form-data; boundary=${'x'.repeat(300)}`,
      'multipart/form-data; charset=utf-8',
    ]) {
      const response = await app.inject({
        method: 'POST',
        url: target(),
        headers: { ...bearer(clinic.token), 'content-type': contentType },
        payload: multipartBody(100).body,
      });
      expect(response.statusCode, contentType).toBe(400);
      expect(response.json(), contentType).toMatchObject({ code: 'invalid_multipart_body' });
    }
    expect(await filesIn(tmpDir)).toEqual([]);
  });

  it('answers a malformed or truncated multipart body 400 invalid_multipart_body, nothing left in .tmp', async () => {
    const { body, fileStart } = multipartBody(50_000);
    const bodies = {
      // The closing boundary never comes, but the announced length is all there is.
      truncated: body.subarray(0, fileStart + 20_000),
      // A part without its header block.
      'no part header': Buffer.from(`--${boundary}\r\nnot a header line\r\n\r\n`),
    };
    for (const [name, payload] of Object.entries(bodies)) {
      const response = await app.inject({
        method: 'POST',
        url: target(),
        headers: { ...bearer(clinic.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(response.statusCode, `${name}: ${response.body}`).toBe(400);
      expect(response.json(), name).toMatchObject({ code: 'invalid_multipart_body' });
    }
    expect(await tmpIsEmpty()).toBe(true);
  });

  it('closes an upload that stops sending after BODY_IDLE_TIMEOUT_SECONDS and removes its partial file', async () => {
    const upload = await cutAfterOneMegabyte();
    const outcome = await upload.outcome(6000);
    upload.socket.destroy();
    expect(outcome.closed, 'the server closes the idle connection').toBe(true);
    expect(outcome.answer).not.toMatch(/^HTTP\/1\.1 [25]\d\d/);
    expect(await tmpIsEmpty(), 'uploads/.tmp is empty').toBe(true);
    // The server still serves this client's next request.
    const list = await app.inject({ method: 'GET', url: target(), headers: bearer(clinic.token) });
    expect(list.json()).toMatchObject({ total: 0 });
  });

  it('removes the partial file of a client that goes away mid-upload', async () => {
    const upload = await cutAfterOneMegabyte();
    upload.socket.destroy();
    expect(await tmpIsEmpty(), 'uploads/.tmp is empty').toBe(true);
  });

  it('answers or closes a client that ends its side mid-upload, and removes the partial file', async () => {
    const upload = await cutAfterOneMegabyte();
    upload.socket.end();
    const outcome = await upload.outcome(6000);
    upload.socket.destroy();
    expect(outcome.closed || /^HTTP\/1\.1 4\d\d/.test(outcome.answer), outcome.answer).toBe(true);
    expect(outcome.answer).not.toMatch(/^HTTP\/1\.1 [25]\d\d/);
    expect(await tmpIsEmpty(), 'uploads/.tmp is empty').toBe(true);
  });

  it('removes the stored bytes when the database fails after the upload was received', async () => {
    const uploadsDir = path.join(testApp.env.DATA_DIR, 'uploads');
    const before = await filesIn(uploadsDir);
    await testApp.db.orm.execute(sql`alter table patient_files rename to patient_files_away`);
    try {
      const response = await app.inject({
        method: 'POST',
        url: target(),
        headers: { ...bearer(clinic.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: multipartBody(20_000).body,
      });
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toMatch(/patient_files|relation|select|insert/i);
    } finally {
      await testApp.db.orm.execute(sql`alter table patient_files_away rename to patient_files`);
    }
    expect(await filesIn(uploadsDir)).toEqual(before);
  });

  it('closes a JSON body that stops arriving too', async () => {
    const { hostname, port } = new URL(address);
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const closed = new Promise<boolean>((resolve) => {
      socket.once('close', () => resolve(true));
      setTimeout(() => resolve(false), 5000);
    });
    socket.write(
      `POST /api/auth/sign-in HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 200\r\n\r\n{"email":"ana@',
    );
    expect(await closed, 'the server closes the idle connection').toBe(true);
    socket.destroy();
  });

  it('still stores a slow upload that keeps sending within the idle timeout', async () => {
    const { body, fileStart } = multipartBody(300_000);
    const upload = await startUpload(address, target(), clinic.token, body, fileStart + 100_000);
    // Three pauses of 0.6 s: more than the idle timeout in all, less than it each.
    for (const from of [100_000, 200_000, 300_000]) {
      await new Promise((resolve) => setTimeout(resolve, 600));
      upload.socket.write(body.subarray(fileStart + from, from === 300_000 ? undefined : fileStart + from + 100_000));
    }
    const deadline = Date.now() + 5000;
    let outcome = await upload.outcome(100);
    while (!outcome.answer.includes('files_uploaded') && !outcome.closed && Date.now() < deadline) {
      outcome = await upload.outcome(100);
    }
    upload.socket.destroy();
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 201/);
    expect(await filesIn(tmpDir)).toEqual([]);
  });
});

describe('leftovers in uploads/.tmp at start', () => {
  it('removes the partial files of a previous run, keeps stored files and recent temp files, then those too', async () => {
    const dataDir = path.join(
      (await import('node:os')).tmpdir(),
      `odontia-sweep-${Date.now()}-${Math.random().toString(16).slice(2)}`,
    );
    const tmpDir = path.join(dataDir, 'uploads', '.tmp');
    const storedDir = path.join(dataDir, 'uploads', '01');
    await mkdir(tmpDir, { recursive: true });
    await mkdir(storedDir, { recursive: true });
    const stale = path.join(tmpDir, '0190f5a4-0000-7000-8000-000000000001.part');
    const recent = path.join(tmpDir, '0190f5a4-0000-7000-8000-000000000002.part');
    const stored = path.join(storedDir, '0190f5a4-0000-7000-8000-000000000003');
    const leaveFiles = async () => {
      await writeFile(stale, Buffer.alloc(1_000_008));
      await writeFile(recent, Buffer.alloc(10));
      await writeFile(stored, Buffer.alloc(10));
      const anHourAgo = new Date(Date.now() - 60 * 60_000);
      await utimes(stale, anHourAgo, anHourAgo);
      await utimes(stored, anHourAgo, anHourAgo);
    };

    // The files appear once the database is ready, just before start-up sweeps: on a loaded machine
    // creating the database alone can take longer than two idle timeouts (2 × 2 s).
    const testApp = await createTestApp({
      env: { DATA_DIR: dataDir, BODY_IDLE_TIMEOUT_SECONDS: '2' },
      beforeBuild: leaveFiles,
    });
    try {
      // A temp file touched within two idle timeouts may be another process's upload in flight.
      expect((await filesIn(path.join(dataDir, 'uploads'))).map((file) => file.name).sort()).toEqual([
        path.join('.tmp', path.basename(recent)),
        path.join('01', path.basename(stored)),
      ]);
      // Once it is older than that, the sweep after start removes it too.
      expect(await eventually(async () => (await filesIn(tmpDir)).length === 0, 10_000)).toBe(true);
      expect(await filesIn(storedDir)).toHaveLength(1);
    } finally {
      await testApp.close();
      await (await import('node:fs/promises')).rm(dataDir, { recursive: true, force: true });
    }
  });
});
