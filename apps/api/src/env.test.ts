import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from './env.ts';

describe('loadEnv', () => {
  it('reads the plans of PLANS or PLANS_FILE (issue 19); none by default, a bad one names its variable', () => {
    expect(loadEnv({}).PLANS).toEqual([]);
    expect(loadEnv({}).ACCOUNT_GRACE_DAYS).toBe(15);
    expect(loadEnv({}).PAYMENT_ADAPTER).toBe('manual');
    const plans = '[{"id":"basic","name":"Básico","price":"29.9","currency":"euro","limits":{"professionals":3}}]';
    expect(loadEnv({ PLANS: plans }).PLANS[0]).toMatchObject({ id: 'basic', price: '29.90', periodMonths: 1 });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'odontia-plans-'));
    try {
      const file = path.join(dir, 'plans.json');
      writeFileSync(file, plans);
      expect(loadEnv({ PLANS_FILE: file }).PLANS).toHaveLength(1);
      expect(() => loadEnv({ PLANS_FILE: path.join(dir, 'none.json') })).toThrow(
        /PLANS_FILE must be a readable JSON file/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(() => loadEnv({ PLANS: '{not json' })).toThrow(/PLANS must be JSON/);
    expect(() => loadEnv({ PLANS: '[{"id":"x","name":"X","price":"1","currency":"yen"}]' })).toThrow(
      /PLANS is not a valid list of plans \(at 0.currency\)/,
    );
    expect(() => loadEnv({ ACCOUNT_GRACE_DAYS: '400' })).toThrow(EnvError);
    expect(() => loadEnv({ PAYMENT_ADAPTER: 'stripe' })).toThrow(/PAYMENT_ADAPTER/);
  });

  it('reads the scheduled backup (issue 20): on by the database kind unless set, into DATA_DIR/backups, the last 7, daily', () => {
    const env = loadEnv({ DATA_DIR: '/srv/odontia' });
    expect(env).toMatchObject({ BACKUP_DIR: '/srv/odontia/backups', BACKUP_KEEP: 7, BACKUP_INTERVAL_HOURS: 24 });
    expect(env.BACKUP_ENABLED).toBeUndefined();
    expect(loadEnv({ BACKUP_ENABLED: 'off', BACKUP_DIR: '/backups/odontia', BACKUP_KEEP: '30' })).toMatchObject({
      BACKUP_ENABLED: false,
      BACKUP_DIR: '/backups/odontia',
      BACKUP_KEEP: 30,
    });
    expect(() => loadEnv({ BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP must be between 1 and 365/);
    expect(() => loadEnv({ BACKUP_INTERVAL_HOURS: 'daily' })).toThrow(
      /BACKUP_INTERVAL_HOURS must be a number of hours/,
    );
  });

  it('applies the defaults of ARCHITECTURE §7', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      BASE_PATH: '/',
      UPLOAD_MAX_MB: 10,
      UPLOAD_TOTAL_MAX_MB: 50,
      BODY_IDLE_TIMEOUT_SECONDS: 30,
      JOBS_ENABLED: true,
      JOBS_POLL_MS: 5000,
      JOBS_CONCURRENCY: 4,
      EINVOICE_TIMEOUT_MS: 20_000,
      WEB_CONCURRENCY: 1,
      SHUTDOWN_DRAIN_MS: 0,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.SEED_DEMO).toBeUndefined();
    expect(env.DATA_DIR).toBe(path.resolve('./data'));
  });

  it('normalises values', () => {
    const env = loadEnv({ BASE_PATH: '/clinica', SEED_DEMO: 'off', DATABASE_URL: '  ', UPLOAD_MAX_MB: '2.5' });
    expect(env.BASE_PATH).toBe('/clinica/');
    expect(env.SEED_DEMO).toBe(false);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.UPLOAD_MAX_MB).toBe(2.5);
  });

  it('TRUST_PROXY: false by default, boolean words, or the proxies as given', () => {
    expect(loadEnv({}).TRUST_PROXY).toBe(false);
    expect(loadEnv({ TRUST_PROXY: '' }).TRUST_PROXY).toBe(false);
    for (const word of ['1', 'true', 'on', 'yes']) expect(loadEnv({ TRUST_PROXY: word }).TRUST_PROXY).toBe(true);
    for (const word of ['0', 'false', 'off', 'no']) expect(loadEnv({ TRUST_PROXY: word }).TRUST_PROXY).toBe(false);
    expect(loadEnv({ TRUST_PROXY: ' 127.0.0.1,10.0.0.0/8 ' }).TRUST_PROXY).toBe('127.0.0.1,10.0.0.0/8');
  });

  it('derives PUBLIC_URL from PORT and BASE_PATH unless given, always ending with /', () => {
    expect(loadEnv({}).PUBLIC_URL).toBe('http://localhost:3000/');
    expect(loadEnv({ PORT: '8080', BASE_PATH: '/clinica' }).PUBLIC_URL).toBe('http://localhost:8080/clinica/');
    expect(loadEnv({ PUBLIC_URL: 'https://odontia.example.com/clinica' }).PUBLIC_URL).toBe(
      'https://odontia.example.com/clinica/',
    );
    expect(loadEnv({}).MAIL_FROM).toBe('Odontia <no-reply@odontia.local>');
  });

  it.each([
    [
      { PUBLIC_URL: 'odontia.example.com' },
      'Invalid configuration: PUBLIC_URL must be an absolute URL such as https://odontia.example.com/ (got "odontia.example.com")',
    ],
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be a port number (got "abc")'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be between 0 and 65535 (got "70000")'],
    [
      { BASE_PATH: 'clinica' },
      'Invalid configuration: BASE_PATH must be a path such as / or /clinica/ (got "clinica")',
    ],
    [
      { SEED_DEMO: 'maybe' },
      'Invalid configuration: SEED_DEMO must be one of 1, 0, true, false, on, off, yes, no (got "maybe")',
    ],
    [{ UPLOAD_MAX_MB: '0' }, 'Invalid configuration: UPLOAD_MAX_MB must be greater than 0 (got "0")'],
    [{ UPLOAD_MAX_MB: '60' }, 'Invalid configuration: UPLOAD_TOTAL_MAX_MB must be at least UPLOAD_MAX_MB'],
    [
      { BODY_IDLE_TIMEOUT_SECONDS: '0' },
      'Invalid configuration: BODY_IDLE_TIMEOUT_SECONDS must be greater than 0 (got "0")',
    ],
    [{ JOBS_POLL_MS: '10' }, 'Invalid configuration: JOBS_POLL_MS must be at least 50 (got "10")'],
    [{ JOBS_POLL_MS: 'often' }, 'Invalid configuration: JOBS_POLL_MS must be a number of milliseconds (got "often")'],
    [
      { JOBS_ENABLED: 'maybe' },
      'Invalid configuration: JOBS_ENABLED must be one of 1, 0, true, false, on, off, yes, no (got "maybe")',
    ],
    [{ LOG_LEVEL: 'loud' }, expect.stringContaining('Invalid configuration: LOG_LEVEL must be one of')],
    [
      { WEB_CONCURRENCY: '2' },
      'Invalid configuration: WEB_CONCURRENCY must be 1 without DATABASE_URL (the embedded database belongs to one process) (got "2")',
    ],
    [{ SHUTDOWN_DRAIN_MS: '-1' }, 'Invalid configuration: SHUTDOWN_DRAIN_MS must be 0 or more (got "-1")'],
    [
      { DATABASE_REPLICA_URL: 'postgres://replica/odontia' },
      'Invalid configuration: DATABASE_REPLICA_URL needs DATABASE_URL (a replica of the PostgreSQL server it names)',
    ],
  ])('names the bad variable in one line: %o', (source, message) => {
    expect(() => loadEnv(source)).toThrow(EnvError);
    try {
      loadEnv(source);
    } catch (error) {
      expect((error as Error).message).toEqual(message);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('never echoes a connection string, which may hold a password', () => {
    expect(() => loadEnv({ DATABASE_URL: 'mysql://admin:s3cret@db/odontia' })).toThrow(
      'Invalid configuration: DATABASE_URL must start with postgres:// or postgresql://',
    );
    try {
      loadEnv({ SMTP_URL: 'http://user:s3cret@mail' });
    } catch (error) {
      expect((error as Error).message).not.toContain('s3cret');
    }
  });
});
