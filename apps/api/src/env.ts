import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Plan, plansConfigSchema } from '@odontia/shared/schemas/account';
import { z } from 'zod';

/**
 * The only reader of process.env (ARCHITECTURE §7). Everything else receives an `Env`.
 * A bad value stops start-up with one line naming the variable.
 */

const booleanFlag = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'], {
    error: 'must be one of 1, 0, true, false, on, off, yes, no',
  })
  .transform((value) => ['1', 'true', 'on', 'yes'].includes(value));

const booleanWords = new Set(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no']);

/**
 * Fastify's `trustProxy`: a boolean word (false by default, so X-Forwarded-For cannot be forged
 * to escape the per-IP rate limit) or the proxies' addresses/CIDRs, comma-separated, as given.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value): boolean | string => {
    const trimmed = value?.trim() ?? '';
    if (trimmed === '') return false;
    if (booleanWords.has(trimmed)) return ['1', 'true', 'on', 'yes'].includes(trimmed);
    return trimmed;
  });

const megabytes = z.coerce
  .number({ error: 'must be a number of megabytes' })
  .positive({ error: 'must be greater than 0' })
  .max(10_240, { error: 'must be at most 10240 (10 GB)' });

const envSchema = z
  .object({
    NODE_ENV: z
      .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
      .default('production'),
    PORT: z.coerce
      .number({ error: 'must be a port number' })
      .int({ error: 'must be a whole number' })
      .min(0, { error: 'must be between 0 and 65535' })
      .max(65_535, { error: 'must be between 0 and 65535' })
      .default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1, { error: 'must not be empty' }).default('./data'),
    DATABASE_URL: z
      .string()
      .optional()
      .transform((value) => (value?.trim() ? value.trim() : undefined))
      .refine((value) => value === undefined || /^postgres(ql)?:\/\//.test(value), {
        error: 'must start with postgres:// or postgresql://',
      }),
    /**
     * A streaming replica of DATABASE_URL (issue 20): reports, the dashboard and lists read there
     * when a second of lag is fine; writes and a client's reads after its own writes stay on the
     * primary.
     */
    DATABASE_REPLICA_URL: z
      .string()
      .optional()
      .transform((value) => (value?.trim() ? value.trim() : undefined))
      .refine((value) => value === undefined || /^postgres(ql)?:\/\//.test(value), {
        error: 'must start with postgres:// or postgresql://',
      }),
    BASE_PATH: z
      .string()
      .default('/')
      .refine((value) => /^\/([A-Za-z0-9._~-]+\/?)*$/.test(value), {
        error: 'must be a path such as / or /clinica/',
      })
      .transform((value) => (value.endsWith('/') ? value : `${value}/`)),
    SMTP_URL: z
      .string()
      .optional()
      .transform((value) => (value?.trim() ? value.trim() : undefined))
      .refine((value) => value === undefined || /^smtps?:\/\//.test(value), {
        error: 'must start with smtp:// or smtps://',
      }),
    /** Where users reach the app (mail links), base path included; default http://localhost:PORT + BASE_PATH. */
    PUBLIC_URL: z
      .string()
      .optional()
      .transform((value) => (value?.trim() ? value.trim() : undefined))
      .refine((value) => value === undefined || URL.canParse(value), {
        error: 'must be an absolute URL such as https://odontia.example.com/',
      }),
    MAIL_FROM: z.string().trim().min(1, { error: 'must not be empty' }).default('Odontia <no-reply@odontia.local>'),
    UPLOAD_MAX_MB: megabytes.default(10),
    UPLOAD_TOTAL_MAX_MB: megabytes.default(50),
    /**
     * Seconds a request body may go without a byte before the connection is closed (issue 14):
     * a cut-off upload must not hold its socket and its partial file forever.
     */
    BODY_IDLE_TIMEOUT_SECONDS: z.coerce
      .number({ error: 'must be a number of seconds' })
      .positive({ error: 'must be greater than 0' })
      .max(3600, { error: 'must be at most 3600 (one hour)' })
      .default(30),
    /**
     * Shutting down (issue 20): after SIGTERM, readiness answers 503 for this long before the
     * listener closes, so a load balancer checking it sees the instance leave before its
     * connections are refused. 0 (the default) without one.
     */
    SHUTDOWN_DRAIN_MS: z.coerce
      .number({ error: 'must be a number of milliseconds' })
      .int({ error: 'must be a whole number' })
      .min(0, { error: 'must be 0 or more' })
      .max(60_000, { error: 'must be at most 60000' })
      .default(0),
    /**
     * Server processes on the one port (node:cluster; issue 20). Above 1 needs DATABASE_URL: the
     * embedded database belongs to one process.
     */
    WEB_CONCURRENCY: z.coerce
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(64, { error: 'must be at most 64' })
      .default(1),
    /** The job queue (issue 16): whether this instance runs a worker, and how often it looks for due jobs. */
    JOBS_ENABLED: booleanFlag.default(true),
    JOBS_POLL_MS: z.coerce
      .number({ error: 'must be a number of milliseconds' })
      .int({ error: 'must be a whole number' })
      .min(50, { error: 'must be at least 50' })
      .max(3_600_000, { error: 'must be at most 3600000 (one hour)' })
      .default(5000),
    /**
     * Jobs this instance runs at once, each of another clinic (issue 38: a minute's reminders of many
     * clinics); a clinic's own jobs run one after the other. PostgreSQL only: the embedded database
     * runs one transaction at a time, so there it is 1.
     */
    JOBS_CONCURRENCY: z.coerce
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(32, { error: 'must be at most 32' })
      .default(4),
    /**
     * Most jobs of one kind and clinic a worker runs together in one transaction (issue 38: reminders
     * and their messages, a clinic's chunk at a time); 1 runs every job alone.
     */
    JOBS_BATCH: z.coerce
      .number({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(100, { error: 'must be at most 100' })
      .default(25),
    /** How long a claimed job is held, unrenewed, before another instance may take it again (a crashed one). */
    JOBS_LOCK_MS: z.coerce
      .number({ error: 'must be a number of milliseconds' })
      .int({ error: 'must be a whole number' })
      .min(1000, { error: 'must be at least 1000' })
      .max(3_600_000, { error: 'must be at most 3600000 (one hour)' })
      .default(300_000),
    /**
     * The key that seals the clinics' provider secrets at rest (issue 38): 32 bytes, base64. Without
     * it, a key generated once into DATA_DIR/secrets.key (every instance of one installation shares it).
     */
    SECRETS_KEY: z
      .string()
      .trim()
      .refine((value) => Buffer.from(value, 'base64').length === 32, { error: 'must be 32 bytes in base64' })
      .optional(),
    /** Reports (issue 19): days a finished export's file is kept before it is removed (the export then says expired). */
    REPORT_EXPORT_KEEP_DAYS: z.coerce
      .number({ error: 'must be a number of days' })
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be between 1 and 365' })
      .max(365, { error: 'must be between 1 and 365' })
      .default(7),
    /** The clinic's full export (issue 42): rows a run of its job spools before it commits its progress and hands over. */
    CLINIC_EXPORT_CHUNK_ROWS: z.coerce
      .number({ error: 'must be a number of rows' })
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(100_000, { error: 'must be at most 100000' })
      .default(5000),
    /** Reports (issue 19): rows an export job writes per chunk (each chunk a short transaction that moves its progress). */
    REPORT_EXPORT_CHUNK_ROWS: z.coerce
      .number({ error: 'must be a number of rows' })
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(100_000, { error: 'must be at most 100000' })
      .default(5000),
    /** Importing data (issue 42): rows an import job checks or writes per chunk (one transaction each). */
    IMPORT_CHUNK_ROWS: z.coerce
      .number({ error: 'must be a number of rows' })
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(50_000, { error: 'must be at most 50000' })
      .default(5000),
    /**
     * Reports (issue 19): rows a GET with `format` answers at once; a larger report answers 409
     * report_export_too_large and is exported as a job. Lower only (the e2e suite sees a job on the
     * demo clinic's small data); the direct answer is built in memory, so never above 5000.
     */
    REPORT_DIRECT_EXPORT_MAX_ROWS: z.coerce
      .number({ error: 'must be a number of rows' })
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be at least 1' })
      .max(5000, { error: 'must be at most 5000' })
      .default(5000),
    /**
     * Electronic invoicing (issue 39): each clinic chooses its regime and environment in its
     * settings. The installation may point the homologation environment (never production) at
     * other services: ARCA_HOMOLOGATION_URL serves WSAA and WSFEv1 at their real paths,
     * VERIFACTU_TEST_URL is the AEAT's Verifactu SOAP endpoint, VERIFACTU_TEST_CA_FILE the CA it
     * presents (the local services of the tests and the demo, apps/api/src/dev/fake-*.ts).
     */
    ARCA_HOMOLOGATION_URL: z.url({ error: 'must be a URL' }).optional(),
    VERIFACTU_TEST_URL: z.url({ error: 'must be a URL' }).optional(),
    VERIFACTU_TEST_CA_FILE: z.string().optional(),
    /** How long a call to a tax authority may take before its answer counts as lost (asked for again). */
    EINVOICE_TIMEOUT_MS: z.coerce
      .number({ error: 'must be a number of milliseconds' })
      .int({ error: 'must be a whole number' })
      .min(500, { error: 'must be at least 500' })
      .max(120_000, { error: 'must be at most 120000' })
      .default(20_000),
    /**
     * Webhooks (issue 42): allow subscriptions to plain http and to loopback or private hosts
     * (127.0.0.0/8, 10/8, 172.16/12, 192.168/16, ::1, fc00::/7, localhost). Off in production: an
     * administrator could otherwise make the server call the installation's own network. Tests and
     * the development setup turn it on to reach a receiver on this machine.
     */
    WEBHOOKS_ALLOW_PRIVATE_HTTP: booleanFlag.default(false),
    /** Webhooks (issue 42): how long a receiver may take to answer before the attempt counts as failed. */
    WEBHOOK_TIMEOUT_MS: z.coerce
      .number({ error: 'must be a number of milliseconds' })
      .int({ error: 'must be a whole number' })
      .min(200, { error: 'must be at least 200' })
      .max(60_000, { error: 'must be at most 60000' })
      .default(10_000),
    /**
     * My account (issue 19): the installation's plans as JSON (PLANS) or a JSON file (PLANS_FILE);
     * none: a self-hosted installation, no limits and no due dates enforced.
     */
    PLANS: z
      .string()
      .optional()
      .transform((value) => (value?.trim() ? value.trim() : undefined)),
    PLANS_FILE: z
      .string()
      .optional()
      .transform((value) => (value?.trim() ? value.trim() : undefined)),
    /** Days a clinic keeps writing after its due date before it becomes read-only. */
    ACCOUNT_GRACE_DAYS: z.coerce
      .number({ error: 'must be a number of days' })
      .int({ error: 'must be a whole number' })
      .min(0, { error: 'must be between 0 and 365' })
      .max(365, { error: 'must be between 0 and 365' })
      .default(15),
    /** The payment provider renewals go through (features/account/payment-adapters.ts). */
    PAYMENT_ADAPTER: z.enum(['manual']).default('manual'),
    /**
     * Where a clinic transfers a renewal's payment under the manual adapter (issue 35): the
     * installation's bank account as shown to the clinic, one item per line ("Titular: …\nCBU: …").
     * "\n" in the variable is a line break. Unset: the page tells the clinic to ask for them.
     */
    PAYMENT_TRANSFER_DETAILS: z
      .string()
      .max(500, { error: 'must be at most 500 characters' })
      .optional()
      .transform((value) => (value?.trim() ? value.trim().replaceAll('\\n', '\n') : undefined)),
    /**
     * The scheduled backup (issue 20), made by the server: unset → on for the embedded database,
     * off with DATABASE_URL (a server's own backups usually cover it; set true to have Odontia
     * run pg_dump too). Archives go to BACKUP_DIR (default DATA_DIR/backups), one when the newest
     * is BACKUP_INTERVAL_HOURS old, and the newest BACKUP_KEEP are kept.
     */
    BACKUP_ENABLED: booleanFlag.optional(),
    BACKUP_DIR: z
      .string()
      .optional()
      .transform((value) => (value?.trim() ? value.trim() : undefined)),
    BACKUP_KEEP: z.coerce
      .number({ error: 'must be a number of backups' })
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be between 1 and 365' })
      .max(365, { error: 'must be between 1 and 365' })
      .default(7),
    BACKUP_INTERVAL_HOURS: z.coerce
      .number({ error: 'must be a number of hours' })
      .min(1, { error: 'must be between 1 and 720' })
      .max(720, { error: 'must be between 1 and 720' })
      .default(24),
    SEED_DEMO: booleanFlag.optional(),
    /**
     * The demo's SMS and WhatsApp (issue 38): a local fake provider started with the server, to which
     * the demo clinic's accounts point (default: wherever the demo is seeded). Its port (0: any free
     * one) is where tests post a patient's reply (`POST /_fake/whatsapp/reply`).
     */
    DEMO_MESSAGING: booleanFlag.optional(),
    DEMO_MESSAGING_PORT: z.coerce
      .number({ error: 'must be a port number' })
      .int({ error: 'must be a whole number' })
      .min(0, { error: 'must be between 0 and 65535' })
      .max(65535, { error: 'must be between 0 and 65535' })
      .default(0),
    TRUST_PROXY: trustProxy,
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
    WEB_DIST_DIR: z.string().optional(),
  })
  .refine((env) => env.UPLOAD_TOTAL_MAX_MB >= env.UPLOAD_MAX_MB, {
    path: ['UPLOAD_TOTAL_MAX_MB'],
    error: 'must be at least UPLOAD_MAX_MB',
  })
  .refine((env) => !env.DATABASE_REPLICA_URL || env.DATABASE_URL, {
    path: ['DATABASE_REPLICA_URL'],
    error: 'needs DATABASE_URL (a replica of the PostgreSQL server it names)',
  })
  .refine((env) => env.WEB_CONCURRENCY === 1 || env.DATABASE_URL, {
    path: ['WEB_CONCURRENCY'],
    error: 'must be 1 without DATABASE_URL (the embedded database belongs to one process)',
  });

type ParsedEnv = z.infer<typeof envSchema>;

export interface Env extends Omit<ParsedEnv, 'DATA_DIR' | 'WEB_DIST_DIR' | 'PUBLIC_URL' | 'PLANS' | 'BACKUP_DIR'> {
  /** The installation's plans (PLANS or PLANS_FILE); empty: self-hosted, no limits. */
  PLANS: Plan[];
  /** Absolute, ends with '/': mail links are `${PUBLIC_URL}auth/...`. */
  PUBLIC_URL: string;
  /** Absolute. */
  DATA_DIR: string;
  /** Absolute: BACKUP_DIR, or DATA_DIR/backups. */
  BACKUP_DIR: string;
  /** Absolute folder of the built web app. */
  WEB_DIST_DIR: string;
}

export class EnvError extends Error {
  constructor(
    readonly variable: string,
    readonly reason: string,
    readonly received: string | undefined,
  ) {
    super(
      `Invalid configuration: ${variable} ${reason}${received === undefined ? '' : ` (got ${JSON.stringify(received)})`}`,
    );
    this.name = 'EnvError';
  }
}

const secretVariables = new Set(['DATABASE_URL', 'DATABASE_REPLICA_URL', 'SMTP_URL']);

const defaultWebDist = path.resolve(import.meta.dirname, '../../web/dist');

/** Parses the environment; throws `EnvError` naming the first bad variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    // Connection strings carry passwords: never echo them.
    const received = secretVariables.has(variable) ? undefined : source[variable];
    throw new EnvError(variable, issue?.message ?? 'is invalid', received);
  }
  const env = result.data;
  const plans = loadPlans(env.PLANS, env.PLANS_FILE);
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.PORT}${env.BASE_PATH}`;
  return {
    ...env,
    PLANS: plans,
    PUBLIC_URL: publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`,
    DATA_DIR: path.resolve(env.DATA_DIR),
    BACKUP_DIR: path.resolve(env.BACKUP_DIR ?? path.join(env.DATA_DIR, 'backups')),
    WEB_DIST_DIR: path.resolve(env.WEB_DIST_DIR ?? defaultWebDist),
  };
}

/** The plans of PLANS (JSON) or, when unset, of the file PLANS_FILE; a bad one names its variable. */
function loadPlans(inline: string | undefined, file: string | undefined): Plan[] {
  const variable = inline ? 'PLANS' : 'PLANS_FILE';
  let text = inline;
  if (!text && file) {
    try {
      text = readFileSync(path.resolve(file), 'utf8');
    } catch {
      throw new EnvError('PLANS_FILE', 'must be a readable JSON file', file);
    }
  }
  if (!text) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new EnvError(variable, 'must be JSON: an array of plans', undefined);
  }
  const parsed = plansConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` (at ${issue.path.join('.')})` : '';
    throw new EnvError(variable, `is not a valid list of plans${where}: ${issue?.message ?? 'invalid'}`, undefined);
  }
  return parsed.data;
}

/** The environment of a command-line tool (backup, restore, operator): a bad one is said and exits 1. */
export function loadCommandEnv(): Env {
  try {
    return loadEnv();
  } catch (error) {
    console.error(error instanceof EnvError ? error.message : String(error));
    process.exit(1);
  }
}

/** Where a command-line tool writes: its lines to stdout, its errors to stderr. */
export const consoleOutput = {
  out: (line: string) => console.log(line),
  err: (line: string) => console.error(line),
};
