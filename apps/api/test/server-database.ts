import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A new database on the PostgreSQL server of `serverUrl`, named `<prefix>_<random hex>` (a copy
 * of `template` when given), for the tests and the benches. Answers its name, its URL and the
 * administrative connection that created it (still open: the caller drops the database with it
 * and ends it).
 */
export async function createServerDatabase(serverUrl: string, prefix: string, template?: string) {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), admin };
}
