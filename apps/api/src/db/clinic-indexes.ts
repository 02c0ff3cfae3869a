import { sql } from 'drizzle-orm';
import type { Database } from './client.ts';

/**
 * The installation-scale rule (issue 21, docs/decisions.md "A clinic among 500"): a clinic's
 * queries must cost what its own data costs, so every index of a clinic-owned table (one with
 * `account_id`) leads with the clinic — as its first column, or as the first argument of the
 * expression that makes its keys (the clinic's search keys) — unless it is declared here as a
 * global look-up: a unique key found before the clinic is known, whose cost is one descent of
 * the index however many clinics there are. `clinic-indexes.int.test.ts` reads the catalogue.
 */
export const globalLookups: Record<string, string> = {
  users_login_unique:
    "sign-in and the clinic switch find a person's memberships across clinics (one per clinic: two or three)",
  sessions_token_hash_unique: 'every request finds its session by the token hash before the clinic is known',
  api_tokens_token_hash_unique: "an integrator's request finds its API token by the hash before the clinic is known",
  auth_tokens_token_hash_unique: 'an invitation, activation or reset link finds its token before the clinic is known',
  appointment_links_token_hash_unique:
    "a reminder's confirm or cancel link finds its token before the clinic is known (no sign-in)",
  online_booking_holds_token_hash_unique:
    "a public booking's confirmation link finds its hold before the clinic is known (no sign-in)",
  waiting_list_offers_token_hash_unique:
    "a waiting-list offer's link finds its offer before the clinic is known (no sign-in)",
  signing_requests_token_hash_unique: 'a remote signing link finds its request before the clinic is known (no sign-in)',
  messaging_channels_webhook_key_unique:
    "an SMS or WhatsApp provider's webhook finds the clinic's account by the key in its address (issue 38)",
  messages_opt_out_token_unique: 'a message\'s "no more messages" link finds its message before the clinic is known',
};

/**
 * Partial indexes over work waiting across clinics (issue 16): the job workers pick due work of
 * every clinic, oldest first. Only queued and running rows are in them, so they stay the size of
 * the queue, not of the clinics' history.
 */
export const workQueues: Record<string, string> = {
  jobs_due_idx: 'the job workers claim due jobs of every clinic, oldest first',
};

/** Tables without `account_id`: they belong to the installation, not to a clinic. */
export const installationTables: Record<string, string> = {
  accounts: 'the clinics themselves (one row each, by id)',
  logins: "a person's e-mail and password, shared by their memberships in several clinics (issue 19)",
  auth_failures: 'the sign-in and password throttle, by a hash of the e-mail or address, before any clinic is known',
};

export type IndexOffence = {
  table: string;
  index: string;
  definition: string;
};

/** An expression index whose keys are made per clinic: `some_function(account_id, …)`. */
const clinicScopedExpression = String.raw`^\w+\(account_id,`;

/** Indexes of clinic-owned tables that neither lead with the clinic nor are declared global look-ups. */
export async function indexesNotLedByClinic(db: Database): Promise<IndexOffence[]> {
  const { rows } = await db.orm.execute<IndexOffence & { leadsWithClinic: boolean }>(sql`
    select t.relname as "table", i.relname as "index", pg_get_indexdef(x.indexrelid) as definition,
      (x.indkey[0] <> 0 and a.attname = 'account_id')
        or (x.indkey[0] = 0 and pg_get_indexdef(x.indexrelid, 1, false) ~ ${clinicScopedExpression}) as "leadsWithClinic"
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_class t on t.oid = x.indrelid
    left join pg_attribute a on a.attrelid = t.oid and a.attnum = x.indkey[0]
    where t.relnamespace = 'public'::regnamespace and t.relkind in ('r', 'p')
      and exists (select 1 from pg_attribute c where c.attrelid = t.oid and c.attname = 'account_id' and not c.attisdropped)
    order by 1, 2`);
  return rows
    .filter((row) => !row.leadsWithClinic && !(row.index in globalLookups) && !(row.index in workQueues))
    .map(({ table, index, definition }) => ({ table, index, definition }));
}

/** Tables of the public schema without `account_id` that are not declared installation tables. */
export async function undeclaredInstallationTables(db: Database): Promise<string[]> {
  const { rows } = await db.orm.execute<{ table: string }>(sql`
    select t.relname as "table" from pg_class t
    where t.relnamespace = 'public'::regnamespace and t.relkind in ('r', 'p')
      and not exists (select 1 from pg_attribute c where c.attrelid = t.oid and c.attname = 'account_id' and not c.attisdropped)
    order by 1`);
  return rows.map((row) => row.table).filter((table) => !(table in installationTables));
}
