import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import type { FakeMessagingProvider } from '../src/dev/fake-messaging-provider.ts';
import { newId } from '../src/lib/ids.ts';
import type { Sealer } from '../src/lib/secrets.ts';
import { newToken } from '../src/lib/tokens.ts';

/**
 * Clinics that remind by SMS or WhatsApp through the local fake provider, written in bulk with SQL
 * (issue 38: `npm run bench -- messages` and messages-cluster.int.test.ts). Each clinic has an
 * administrator who is also the professional, both provider accounts (secrets sealed with the
 * servers' SECRETS_KEY, quiet hours off), `patients` patients with a mobile number and a yes to the
 * clinic's channel, and its share of `reminders` appointments whose `appointment_reminder` jobs
 * are due at `runAt` — one appointment per patient while there are patients, so every message goes
 * to a number of its own. Even clinics remind by WhatsApp, odd ones by SMS. On a superuser
 * connection (row-level security does not apply); the appointments' triggers are off for the load
 * and the day figures rebuilt from the rows.
 */

export interface SeededMessagingClinic {
  accountId: string;
  channel: 'sms' | 'whatsapp';
  sms: { accountSid: string; authToken: string; number: string; webhookKey: string };
  whatsapp: { phoneNumberId: string; accessToken: string; appSecret: string; webhookKey: string };
}

export interface MessagingSeedOptions {
  clinics: number;
  patients: number;
  reminders: number;
  /** The fake provider's URL (both channels' API root; WhatsApp's under /v21.0). */
  providerUrl: string;
  /** Seals the secrets as the servers will unseal them (createSealer with their SECRETS_KEY). */
  sealer: Sealer;
  /** When the reminder jobs are due. */
  runAt: Date;
}

const zone = 'America/Argentina/Buenos_Aires';

export async function seedMessagingClinics(
  db: Database,
  options: MessagingSeedOptions,
): Promise<SeededMessagingClinic[]> {
  const clinics: SeededMessagingClinic[] = Array.from({ length: options.clinics }, (_, index) => ({
    accountId: newId(),
    channel: index % 2 === 0 ? 'whatsapp' : 'sms',
    sms: {
      accountSid: `AC${randomBytes(16).toString('hex')}`,
      authToken: randomBytes(16).toString('hex'),
      number: `+1500555${String(index).padStart(4, '0')}`,
      webhookKey: newToken(),
    },
    whatsapp: {
      phoneNumberId: String(100_000_000_000 + index),
      accessToken: randomBytes(16).toString('hex'),
      appSecret: randomBytes(16).toString('hex'),
      webhookKey: newToken(),
    },
  }));
  const rows = clinics.map((clinic, index) => ({
    n: index,
    account_id: clinic.accountId,
    channel: clinic.channel,
    sms_ref: clinic.sms.accountSid,
    sms_sender: clinic.sms.number,
    sms_secret: options.sealer.seal(clinic.sms.authToken),
    sms_key: clinic.sms.webhookKey,
    wa_ref: clinic.whatsapp.phoneNumberId,
    wa_secret: options.sealer.seal(clinic.whatsapp.accessToken),
    wa_webhook_secret: options.sealer.seal(clinic.whatsapp.appSecret),
    wa_key: clinic.whatsapp.webhookKey,
  }));
  const perClinic = Math.ceil(options.reminders / options.clinics);
  await db.orm.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`
      create temporary table seed_clinics on commit drop as
      select * from json_to_recordset(${JSON.stringify(rows)}::json) as r(n int, account_id uuid, channel text,
        sms_ref text, sms_sender text, sms_secret text, sms_key text, wa_ref text, wa_secret text,
        wa_webhook_secret text, wa_key text)`);
    await tx.execute(sql`
      insert into accounts (id, clinic_name, contact, system_currency, time_zone, activated_at, reminder_channels,
        quiet_hours_start, quiet_hours_end, public_slug)
      select account_id, 'Clínica ' || (n + 1), '+54 11 5555-0000', 'argentine_peso', ${zone}, now(),
        array[channel], null, null, 'clinica-' || replace(account_id::text, '-', '')
      from seed_clinics`);
    // The administrator of each clinic (who also sees the patients): user id = login id = account id.
    await tx.execute(sql`
      insert into logins (id, email, last_account_id)
      select account_id, 'admin.' || account_id || '@odontia.bench', account_id from seed_clinics`);
    await tx.execute(sql`
      insert into users (account_id, id, login_id, complete_name, email, level, system_language, date_format,
        system_currency, activated_at)
      select account_id, account_id, account_id, 'Dra. Profesional ' || (n + 1), 'admin.' || account_id || '@odontia.bench',
        'administrator', 'es', 'DD/MM/YYYY', 'argentine_peso', now()
      from seed_clinics`);
    await tx.execute(sql`
      insert into messaging_channels (account_id, channel, enabled, api_url, account_ref, sender, secret_sealed,
        webhook_secret_sealed, webhook_key)
      select account_id, 'sms', true, ${options.providerUrl}, sms_ref, sms_sender, sms_secret, null, sms_key from seed_clinics
      union all
      select account_id, 'whatsapp', true, ${`${options.providerUrl}/v21.0`}, wa_ref, '+15005550007', wa_secret,
        wa_webhook_secret, wa_key from seed_clinics`);
    // Patients: a number of their own each (+54 11 4nnn nnnn), no e-mail.
    await tx.execute(sql`
      insert into patients (account_id, id, sku_patient, first_name, last_name, phone_area, phone, sex, birthdate,
        created_by, updated_by)
      select c.account_id, uuid_generate_v7_bench(c.n::bigint * 100000 + p), 'P-' || lpad(p::text, 6, '0'),
        'Paciente', 'Número ' || p, '+54', '11 4' || lpad((c.n * ${options.patients} + p)::text, 7, '0'),
        case when p % 2 = 0 then 'female' else 'male' end, date '1960-01-01' + p, c.account_id, c.account_id
      from seed_clinics c cross join generate_series(1, ${options.patients}) as p`);
    await tx.execute(sql`
      insert into account_counters (account_id, name, value)
      select account_id, 'patient', ${options.patients} from seed_clinics`);
    await tx.execute(sql`
      insert into patient_channel_consents (account_id, id, patient_id, channel, granted, source, recorded_by)
      select p.account_id, uuid_generate_v7_bench(c.n::bigint * 100000 + row_number() over (partition by p.account_id order by p.id)),
        p.id, c.channel, true, 'staff', c.account_id
      from patients p join seed_clinics c on c.account_id = p.account_id`);
    // The appointments: 30 minutes apart from tomorrow at this hour (whole minutes), all scheduled.
    await tx.execute(sql`
      create temporary table seed_appointments on commit drop as
      with numbered as (
        select c.account_id, c.n, g,
          date_trunc('minute', now()) + interval '1 day' + make_interval(mins => 30 * g) as starts_at
        from seed_clinics c cross join generate_series(0, ${perClinic} - 1) as g
        where c.n * ${perClinic} + g < ${options.reminders}
      ), pats as (
        select account_id, array_agg(id order by sku_patient) as ids from patients group by account_id
      )
      select uuid_generate_v7_bench(1000000000 + numbered.n::bigint * 100000 + g) as id, numbered.account_id,
        pats.ids[1 + g % cardinality(pats.ids)] as patient_id, starts_at
      from numbered join pats on pats.account_id = numbered.account_id`);
    await tx.execute(sql`
      insert into appointments (account_id, id, patient_id, professional_id, starts_at, ends_at, time_zone, status,
        reason, reminder_state, created_by, updated_by)
      select account_id, id, patient_id, account_id, starts_at, starts_at + interval '30 minutes', ${zone}, 'scheduled',
        'Control', 'planned', account_id, account_id
      from seed_appointments`);
    // The jobs in the order the clinics booked them, interleaved (as appointments are booked over
    // weeks), not clinic after clinic.
    await tx.execute(sql`
      insert into jobs (account_id, id, kind, key, payload, run_at)
      select account_id, uuid_generate_v7_bench(2000000000 + row_number() over (order by starts_at, account_id)),
        'appointment_reminder',
        id::text, jsonb_build_object('appointmentId', id,
          'startsAt', to_char(starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), ${options.runAt}
      from seed_appointments order by starts_at, account_id`);
  });
  await db.orm.execute(sql`select odontia_rebuild_day_figures(id) from accounts`);
  for (const table of [
    'accounts',
    'patients',
    'patient_channel_consents',
    'appointments',
    'jobs',
    'messaging_channels',
  ])
    await db.orm.execute(sql.raw(`vacuum analyze ${table}`));
  return clinics;
}

/** Time-ordered ids for generated rows (the benches' function, for a database that has not got it). */
export async function createBenchIdFunction(db: Database): Promise<void> {
  await db.orm.execute(sql`
    create or replace function uuid_generate_v7_bench(n bigint) returns uuid language sql as $$
      select (lpad(to_hex((extract(epoch from clock_timestamp()) * 1000)::bigint), 12, '0')
        || '7' || lpad(to_hex(n % 4096), 3, '0') || '8' || lpad(to_hex(n), 15, '0'))::uuid $$`);
}

/**
 * The clinics' accounts at the fake: SMS status callbacks follow each message's StatusCallback (the
 * sending instance's PUBLIC_URL); WhatsApp's webhook is one per phone number, at `webhookBase(index)`.
 */
export function configureFakeAccounts(
  fake: Pick<FakeMessagingProvider, 'configureTwilio' | 'configureWhatsapp'>,
  clinics: SeededMessagingClinic[],
  webhookBase: (index: number) => string,
): void {
  clinics.forEach((clinic, index) => {
    const base = webhookBase(index);
    fake.configureTwilio({
      accountSid: clinic.sms.accountSid,
      authToken: clinic.sms.authToken,
      number: clinic.sms.number,
      inboundUrl: `${base}api/webhooks/sms/${clinic.sms.webhookKey}/inbound`,
    });
    fake.configureWhatsapp({
      phoneNumberId: clinic.whatsapp.phoneNumberId,
      accessToken: clinic.whatsapp.accessToken,
      appSecret: clinic.whatsapp.appSecret,
      webhookUrl: `${base}api/webhooks/whatsapp/${clinic.whatsapp.webhookKey}`,
    });
  });
}

/** Our message id of each send the fake took: WhatsApp echoes it; Twilio's status URL carries it (`?m=`). */
export function messageIdOf(sent: {
  channel: 'sms' | 'whatsapp';
  callbackData: string | null;
  statusCallback: string | null;
}) {
  if (sent.channel === 'whatsapp') return sent.callbackData;
  if (!sent.statusCallback) return null;
  return new URL(sent.statusCallback).searchParams.get('m');
}
