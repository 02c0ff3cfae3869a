import { count, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { accounts, logins, users } from '../db/schema/index.ts';
import { appRole, type TenantTx } from '../db/tenancy.ts';
import { createFilesService } from '../features/files/files.service.ts';
import { seedPortalAccess } from '../features/portal/portal-access.service.ts';
import { createDiskStorage, uploadsDirOf } from '../lib/file-storage.ts';
import { newId } from '../lib/ids.ts';
import { hashPassword } from '../lib/passwords.ts';
import { createSealer, installationKey, type Sealer } from '../lib/secrets.ts';
import { seedDemoAccount } from './demo-account.ts';
import { seedDemoAgenda } from './demo-agenda.ts';
import { seedDemoAuthorizationTemplates } from './demo-authorizations.ts';
import { seedDemoCashRegisters } from './demo-cash-registers.ts';
import { seedDemoCertificates } from './demo-certificates.ts';
import { seedDemoClinical } from './demo-clinical.ts';
import { seedDemoCommercial } from './demo-commercial.ts';
import { seedDemoDocuments, seedDemoFiles } from './demo-documents.ts';
import { seedDemoImport } from './demo-import.ts';
import { seedDemoIntegrations } from './demo-integrations.ts';
import { seedDemoInventory } from './demo-inventory.ts';
import { seedDemoLabCases } from './demo-lab-cases.ts';
import { seedDemoMessaging } from './demo-messaging.ts';
import { seedDemoOdontogram } from './demo-odontogram.ts';
import { firstDemoPatients, seedDemoPatients } from './demo-patients.ts';
// Issue 40: third-party payers.
import { seedDemoPayers } from './demo-payers.ts';
import { seedDemoPaymentPlans } from './demo-payment-plans.ts';
import { seedDemoPerio } from './demo-perio.ts';
import { seedDemoRecalls } from './demo-recalls.ts';
import { seedDemoSales } from './demo-sales.ts';
import { seedDemoSchedules } from './demo-schedules.ts';
import { seedDemoSettlements } from './demo-settlements.ts';
import { demoTimeZone } from './demo-time.ts';
import { seedDemoTreatmentPlans } from './demo-treatment-plans.ts';
import { seedDemoWaitingList } from './demo-waiting-list.ts';

/**
 * The demo clinic (issue 3): "Clínica Dental Sonrisa", Buenos Aires, pesos, with an
 * administrator, a supervisor and a user, all activated, and its pharmacy and supplies with
 * stock (issue 4, demo-inventory.ts), its three providers (issue 17, demo-commercial.ts) and 30 patients (issue 5, demo-patients.ts). Created only on a database without
 * any clinic; by default only on the embedded database (`SEED_DEMO` overrides).
 */

export const demoPassword = 'sonrisa-demo-2026';
/** The three people, each a professional of the agenda with the licence their prescriptions print. */
export const demoUsers = [
  {
    email: 'administrador@sonrisa.demo',
    completeName: 'Laura Gómez',
    level: 'administrator',
    licenseNumber: 'MN 34.567',
    specialty: 'Odontóloga',
  },
  {
    email: 'supervisor@sonrisa.demo',
    completeName: 'Martín Sosa',
    level: 'supervisor',
    licenseNumber: 'MN 41.208',
    specialty: 'Odontólogo, especialista en endodoncia',
  },
  {
    email: 'usuario@sonrisa.demo',
    completeName: 'Carla Díaz',
    level: 'user',
    licenseNumber: 'MP 12.905',
    specialty: 'Odontóloga, ortodoncista',
  },
] as const;

/**
 * The patient portal (issue 37): the demo's first two patients enter it at /p/sonrisa with their
 * e-mail and this password (README, demo section).
 */
export const demoPortalPassword = 'sonrisa-paciente-2026';
export const demoPortalPatients = ['maria.gonzalez@correo.demo', 'jose.perez@correo.demo'] as const;

export type DemoSeedResult = 'created' | 'exists' | 'skipped';

/**
 * Seeds the demo in one transaction, then uploads its patients' images through the files service
 * (which runs its own transactions) into `DATA_DIR/uploads`, where the app reads them.
 */
export async function seedDemoClinic(
  db: Database,
  { dataDir, secretsKey }: { dataDir: string; secretsKey?: string | undefined },
): Promise<DemoSeedResult> {
  const passwordHash = await hashPassword(demoPassword);
  // The demo's SMS and WhatsApp secrets, sealed with the installation's key as the settings page would.
  const sealer = createSealer(installationKey({ secretsKey, dataDir }));
  const seeded = await seedDemoRows(db, passwordHash, sealer);
  if (seeded === 'exists' || seeded === 'skipped') return seeded;
  // Through the portal's own service: the same membership an invitation makes, with a password.
  const portalHash = await hashPassword(demoPortalPassword);
  await db.withSystem(async (tx) => {
    for (const patientId of seeded.patientIds)
      await seedPortalAccess(tx, { accountId: seeded.accountId, patientId, passwordHash: portalHash });
  });
  const files = createFilesService({
    db,
    storage: createDiskStorage(uploadsDirOf(dataDir)),
    limits: { maxFileBytes: 10 * 1024 * 1024, maxTotalBytes: 20 * 1024 * 1024 },
  });
  await seedDemoFiles(
    files,
    {
      accountId: seeded.accountId,
      userId: seeded.supervisorId,
      level: 'supervisor',
      timeZone: demoTimeZone,
      ip: '127.0.0.1',
    },
    seeded.patientIds,
  );
  // Issue 42: the previous system's export, checked in the import wizard (the same storage folder as the app's).
  await seedDemoImport(db, dataDir, {
    accountId: seeded.accountId,
    userId: seeded.administratorId,
    level: 'administrator',
    timeZone: demoTimeZone,
    ip: '127.0.0.1',
  });
  return 'created';
}

async function seedDemoRows(
  db: Database,
  passwordHash: string,
  /** Seals the demo's SMS and WhatsApp secrets (issue 38) and its webhook's (issue 42). */
  sealer: Sealer,
): Promise<
  'exists' | 'skipped' | { accountId: string; administratorId: string; supervisorId: string; patientIds: string[] }
> {
  return db.withSystem(async (tx) => {
    // One seeding at a time when several processes start together on one server.
    await tx.execute(sql`select pg_advisory_xact_lock(7240771002)`);
    const [existing] = await tx.select({ n: count() }).from(accounts);
    if ((existing?.n ?? 0) > 0) {
      const { rows } = await tx.execute(sql`select 1 from users where email = ${demoUsers[0].email}`);
      return rows.length > 0 ? 'exists' : 'skipped';
    }
    const accountId = newId();
    const now = new Date();
    await tx.insert(accounts).values({
      id: accountId,
      clinicName: 'Clínica Dental Sonrisa',
      // The patient portal's address (issue 37): /p/sonrisa.
      publicSlug: 'sonrisa',
      contact: '+54 11 4321-5678',
      plan: 'demo',
      planEndsAt: null,
      systemCurrency: 'argentine_peso',
      timeZone: demoTimeZone,
      activatedAt: now,
    });
    const userIds = demoUsers.map(() => newId());
    // Each demo person's sign-in (issue 19), with the same id as their membership.
    await tx.insert(logins).values(
      demoUsers.map((user, index) => ({
        id: userIds[index] as string,
        email: user.email,
        passwordHash,
        lastAccountId: accountId,
      })),
    );
    await tx.insert(users).values(
      demoUsers.map((user, index) => ({
        accountId,
        id: userIds[index] as string,
        loginId: userIds[index] as string,
        ...user,
        systemLanguage: 'es',
        dateFormat: 'DD/MM/YYYY',
        systemCurrency: 'argentine_peso',
        activatedAt: now,
      })),
    );
    // The clinic's own rows are written in its tenant context (RLS), in this same transaction.
    await tx.execute(
      sql`select set_config('role', ${appRole}, true), set_config('app.account_id', ${accountId}, true)`,
    );
    const tenantTx = tx as unknown as TenantTx;
    const administratorId = userIds[0] as string;
    const supervisorId = userIds[1] as string;
    await seedDemoInventory(tenantTx, accountId, { administratorId, supervisorId });
    await seedDemoCommercial(tenantTx, accountId, { administratorId });
    await seedDemoPatients(tenantTx, accountId, { administratorId, userId: userIds[2] as string });
    await seedDemoClinical(tenantTx, accountId, { administratorId, supervisorId });
    await seedDemoOdontogram(tenantTx, accountId, { administratorId, supervisorId });
    await seedDemoPerio(tenantTx, accountId, { administratorId, supervisorId });
    await seedDemoAuthorizationTemplates(tenantTx, accountId, { administratorId });
    await seedDemoCertificates(tenantTx, accountId, { supervisorId });
    await seedDemoDocuments(tenantTx, accountId, { administratorId, supervisorId });
    await seedDemoSchedules(tenantTx, accountId, { administratorId, supervisorId });
    await seedDemoAgenda(tenantTx, accountId, { administratorId, professionalIds: userIds });
    await seedDemoWaitingList(tenantTx, accountId, { administratorId, professionalIds: userIds });
    await seedDemoSales(tenantTx, accountId, { administratorId, professionalIds: userIds });
    await seedDemoSettlements(tenantTx, accountId, { administratorId, professionalIds: userIds });
    await seedDemoRecalls(tenantTx, accountId, { administratorId, professionalIds: userIds });
    // Issue 40: an obra social with a plan, affiliated patients, split invoices, a presentation.
    await seedDemoPayers(tenantTx, accountId, { administratorId });
    await seedDemoPaymentPlans(tenantTx, accountId, { administratorId, professionalIds: userIds });
    // Issue 41: an accepted plan in progress and a presented one with two alternatives.
    await seedDemoTreatmentPlans(tenantTx, accountId, { administratorId, professionalIds: userIds });
    // Issue 41: the dental lab and its cases in every state, one not back for tomorrow's seating.
    await seedDemoLabCases(tenantTx, accountId, { administratorId, professionalIds: userIds });
    await seedDemoMessaging(tenantTx, accountId, { administratorId }, (secret) => sealer.seal(secret));
    await seedDemoAccount(tenantTx, accountId, { administratorId });
    // Issue 40: the registers, past closings and today's open session.
    await seedDemoCashRegisters(tenantTx, accountId, { administratorId, professionalId: supervisorId });
    // Issue 42: the lab's and the administrator's API tokens, and a paused webhook to a CRM (last:
    // the seed's own writes are no events of it).
    await seedDemoIntegrations(tenantTx, accountId, { administratorId }, sealer);
    const patientIds = (await firstDemoPatients(tenantTx, accountId, 2)) ?? [];
    return { accountId, administratorId, supervisorId, patientIds };
  });
}

/** Start-up: seeds when asked (default: embedded database) and logs the demo sign-in. */
export async function seedDemoAtStartup(
  db: Database,
  seedDemo: boolean | undefined,
  log: { info(fields: object, message: string): void },
  dataDir: string,
  secretsKey?: string,
): Promise<DemoSeedResult> {
  if (!(seedDemo ?? db.kind === 'pglite')) return 'skipped';
  const result = await seedDemoClinic(db, { dataDir, secretsKey });
  if (result !== 'skipped') {
    log.info(
      { clinic: 'Clínica Dental Sonrisa', users: demoUsers.map((user) => user.email), password: demoPassword },
      `Demo clinic ${result === 'created' ? 'created' : 'ready'}: sign in as ${demoUsers[0].email} / ${demoPassword}`,
    );
  }
  return result;
}
