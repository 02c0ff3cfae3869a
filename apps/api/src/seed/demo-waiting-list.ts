import { waitingListContracts } from '@odontia/shared/schemas/waiting-list';
import { sql } from 'drizzle-orm';
import type { TenantTx } from '../db/tenancy.ts';
import { waitingListService } from '../features/waiting-list/waiting-list.service.ts';
import { demoTimeZone } from './demo-time.ts';

/**
 * The demo's waiting list (issue 38): three patients wait for a freed time, through the service
 * (audited like the front desk's): a cleaning with anyone on Monday, Wednesday and Friday mornings,
 * a check-up with the first professional in the afternoons, and a whitening any day; all of
 * normal priority, so a high-priority entry the front desk adds is offered first. A cancellation
 * on the agenda then offers the time to those it suits.
 */
export async function seedDemoWaitingList(
  tx: TenantTx,
  accountId: string,
  people: { administratorId: string; professionalIds: string[] },
): Promise<void> {
  const ctx = {
    tx,
    accountId,
    userId: people.administratorId,
    level: 'administrator' as const,
    timeZone: demoTimeZone,
    ip: '127.0.0.1',
  };
  const treatments = new Map(
    (
      await tx.execute<{ id: string; name: string }>(
        sql`select id, name from treatments where account_id = ${accountId} and deleted_at is null and active`,
      )
    ).rows.map((row) => [row.name, row.id]),
  );
  // Patients with an e-mail (the offers go by mail), from the end of the demo's list.
  const patients = (
    await tx.execute<{ id: string }>(
      sql`select id from patients where account_id = ${accountId} and deleted_at is null and email is not null
          order by last_name desc, first_name desc limit 3`,
    )
  ).rows.map((row) => row.id);
  if (patients.length < 3) return;
  const entries = [
    {
      treatment: 'Limpieza',
      input: { weekdays: ['monday', 'wednesday', 'friday'], timeRanges: [{ from: '09:00', to: '13:00' }] },
    },
    {
      treatment: 'Revisión',
      input: {
        professionalId: people.professionalIds[0] ?? null,
        timeRanges: [{ from: '15:00', to: '20:00' }],
        notes: 'Prefiere que la llamen antes de las 10.',
      },
    },
    { treatment: 'Blanqueamiento', input: {} },
  ] as const;
  for (const [index, entry] of entries.entries()) {
    const treatmentId = treatments.get(entry.treatment);
    const patientId = patients[index];
    if (!treatmentId || !patientId) continue;
    // Through the contract, as the route does: its defaults fill what the entry leaves out.
    const input = waitingListContracts.create.parse({ patientId, treatmentId, ...entry.input });
    await waitingListService.create({ ctx, input });
  }
}
