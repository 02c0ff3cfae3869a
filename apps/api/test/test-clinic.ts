import { randomUUID } from 'node:crypto';
import type { UserLevel } from '@odontia/shared/enums';
import type { SQL } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { z } from 'zod';
import { listAuditEvents } from '../src/features/audit/audit.repository.ts';
import { createTestPatient } from './clinical.ts';
import { bearer, createTestClinic, setLevel, type TestClinic } from './clinics.ts';
import { MemoryMailer } from './mail.ts';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app.ts';
import type { Backend } from './test-database.ts';

/**
 * One line per test file for the usual scene (issue 15): the real app on a fresh database, a
 * clinic signed in as its administrator, another clinic to prove isolation, the mailer, a patient
 * when asked, and `call` to send a request as one of them. It registers its own beforeAll and
 * afterAll; read its fields inside tests or hooks, not while describing.
 *
 *   describe.each(availableBackends())('diagnoses on %s', (backend) => {
 *     const t = useTestClinic(backend, { patient: true });
 *     it('…', async () => {
 *       const created = await t.call('POST', url(), { body });
 *       expect(created.json<Answer<typeof diagnosisResponseSchema>>().data.teeth).toEqual([16, 36]);
 *     });
 *   });
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The answer a shared response schema describes: `json<Answer<typeof patientResponseSchema>>()`. */
export type Answer<Schema extends z.ZodType> = z.output<Schema>;

/**
 * What a test reads from an answer without naming its schema: an error's `{ code, message,
 * details }` or a resource's `{ data, total … }`. Name the schema where the fields matter.
 */
export interface LooseAnswer {
  code: string;
  message: string;
  // biome-ignore lint/suspicious/noExplicitAny: an answer read without its schema; tests name the schema where types matter
  details: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  data: any;
  total: number;
  page: number;
  pageSize: number;
}

export interface TestResponse extends Omit<LightMyRequestResponse, 'json'> {
  json<T = LooseAnswer>(): T;
}

export interface CallOptions {
  /** Whose session sends it; the clinic's administrator by default, `null` for none. */
  token?: string | null;
  /** JSON body (an object) or raw payload. */
  body?: object | string | Buffer;
  headers?: Record<string, string>;
  remoteAddress?: string;
  /**
   * The `Idempotency-Key` of a write (the routes that create or issue a document or move money
   * require one): a fresh key per POST, PUT, PATCH or DELETE by default, as the web makes one per
   * user action; a key to send the same action again; `null` for none. A key in `headers` wins.
   */
  idempotencyKey?: string | null;
}

export interface TestClinicOptions extends Omit<TestAppOptions, 'backend' | 'mailer'> {
  /** Create a patient of the clinic (`t.patientId`), with these fields when an object. */
  patient?: boolean | Record<string, unknown>;
  /** Sign up the clinics (default true); false gives only the app. */
  clinics?: boolean;
  /** Sign-up fields of the clinic (e.g. its administrator's `completeName`). */
  clinic?: Record<string, unknown>;
}

export interface TestClinicContext {
  readonly testApp: TestApp;
  readonly app: FastifyInstance;
  readonly db: TestApp['db'];
  /** Signed up, activated and signed in; its user is an administrator. */
  readonly clinic: TestClinic;
  /** Another clinic of the same installation. */
  readonly other: TestClinic;
  readonly mailer: MemoryMailer;
  readonly patientId: string;
  call(method: Method, url: string, options?: CallOptions): Promise<TestResponse>;
  /** POSTs as `call` does, expects 201 Created (the answer shown when not) and answers the created `data`. */
  created<Data = LooseAnswer['data']>(url: string, options?: CallOptions): Promise<Data>;
  /** A new patient of the clinic (or of the clinic whose token is given); answers its id. */
  newPatient(token?: string, overrides?: Record<string, unknown>): Promise<string>;
  /** A new clinic of the installation. */
  newClinic(overrides?: Record<string, unknown>): Promise<TestClinic>;
  /** Runs `work` with the clinic's user at `level`, then makes it an administrator again. */
  asLevel<T>(level: UserLevel, work: () => Promise<T>, user?: TestClinic): Promise<T>;
  /** The clinic's audit events with this action, oldest first. */
  auditEvents(action: string, clinic?: TestClinic): Promise<Awaited<ReturnType<typeof listAuditEvents>>>;
}

export function useTestClinic(backend?: Backend, options: TestClinicOptions = {}): TestClinicContext {
  const { patient = false, clinics = true, clinic: signUp = {}, ...appOptions } = options;
  const mailer = new MemoryMailer();
  let testApp: TestApp | undefined;
  let clinic: TestClinic | undefined;
  let other: TestClinic | undefined;
  let patientId: string | undefined;

  const ready = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`useTestClinic: ${name} is not ready (read it inside a test or a hook)`);
    return value;
  };

  beforeAll(async () => {
    testApp = await createTestApp({ ...appOptions, ...(backend ? { backend } : {}), mailer });
    if (!clinics) return;
    clinic = await createTestClinic(testApp.app, mailer, signUp);
    other = await createTestClinic(testApp.app, mailer);
    if (patient) patientId = await createTestPatient(testApp.app, clinic.token, patient === true ? {} : patient);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const context: TestClinicContext = {
    get testApp() {
      return ready(testApp, 'testApp');
    },
    get app() {
      return ready(testApp, 'app').app;
    },
    get db() {
      return ready(testApp, 'db').db;
    },
    get clinic() {
      return ready(clinic, 'clinic');
    },
    get other() {
      return ready(other, 'other');
    },
    get patientId() {
      return ready(patientId, 'patientId (ask for { patient: true })');
    },
    mailer,
    async call(method, url, { token, body, headers, remoteAddress, idempotencyKey } = {}) {
      const sender = token === undefined ? context.clinic.token : token;
      const key = idempotencyKey === undefined && method !== 'GET' ? `test-${randomUUID()}` : idempotencyKey;
      const request: InjectOptions = {
        method,
        url,
        headers: { ...(sender ? bearer(sender) : {}), ...(key ? { 'idempotency-key': key } : {}), ...headers },
        ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
        ...(remoteAddress ? { remoteAddress } : {}),
      };
      return (await context.app.inject(request)) as TestResponse;
    },
    async created(url, options) {
      const response = await context.call('POST', url, options);
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data;
    },
    newPatient: (token = context.clinic.token, overrides = {}) => createTestPatient(context.app, token, overrides),
    newClinic: (overrides = {}) => createTestClinic(context.app, mailer, overrides),
    async asLevel(level, work, user = context.clinic) {
      await setLevel(context.db, user.userId, level);
      try {
        return await work();
      } finally {
        await setLevel(context.db, user.userId, 'administrator');
      }
    },
    auditEvents: (action, of = context.clinic) =>
      context.db.withTenant(of.accountId, (tx) => listAuditEvents(tx, { action })),
  };
  return context;
}

/** The app's role may not run `statement` as the clinic: a trigger, a check or a policy refuses it. */
export async function expectRefusedAsClinic(t: TestClinicContext, statement: SQL): Promise<void> {
  await expect(t.db.withTenant(t.clinic.accountId, (tx) => tx.execute(statement))).rejects.toThrow();
}

/** A 400 validation answer naming at least these fields, each with its code. */
export function expectFieldErrors(response: TestResponse, fields: Record<string, unknown>[]): void {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json().details.fields).toEqual(expect.arrayContaining(fields));
}

/** The answer has this status (its body shown when not) and matches `expected`. */
export function expectAnswer(response: TestResponse, status: number, expected: Record<string, unknown>): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json()).toMatchObject(expected);
}
