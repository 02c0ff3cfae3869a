import { emptyTooth, isMultiRooted, type PerioTooth, perioSites } from '@odontia/shared/perio';
import type { TenantTx } from '../db/tenancy.ts';
import { perioService } from '../features/perio/perio.service.ts';
import { demoCommercialContext } from './demo-commercial.ts';
import { type DemoStaff, firstDemoPatients } from './demo-patients.ts';
import { demoDay } from './demo-time.ts';

/**
 * The demo clinic's periodontal charts (issue 41): the first patient has a closed exam four
 * months ago and a draft one last week, so the comparison shows change — the lower molars went
 * deeper and lost attachment, the front teeth bleed less after the cleaning. Written through the
 * service (audit, indices, the odontogram's missing teeth skipped). Runs after the odontograms.
 */

/** A plausible site: deeper on molars and interproximally, the given change on some teeth. */
function chartedTooth(tooth: number, visit: 'before' | 'after', implant: boolean): PerioTooth {
  const charted = emptyTooth(tooth);
  charted.implant = implant;
  const molar = isMultiRooted(tooth);
  const worse = visit === 'after' && (tooth === 36 || tooth === 46 || tooth === 47);
  const front = tooth % 10 <= 3;
  for (const [index, site] of perioSites.entries()) {
    const interproximal = site !== 'buccal' && site !== 'lingual';
    const depth = (molar ? 4 : 2) + (interproximal ? 1 : 0) + (worse ? 2 : 0) - (visit === 'after' && front ? 1 : 0);
    const margin = molar ? -1 - (worse ? 1 : 0) : 0;
    charted.sites[site] = {
      depth: Math.max(1, depth),
      margin,
      bleeding: visit === 'before' ? interproximal && (front || molar) : worse && interproximal,
      plaque: visit === 'before' ? index % 2 === 0 : index === 0 && molar,
      suppuration: worse && site === 'mesiobuccal' && tooth === 46,
    };
  }
  if (molar) charted.furcation = worse ? 2 : tooth === 46 || tooth === 36 ? 1 : null;
  charted.mobility = worse && tooth === 46 ? 1 : 0;
  return charted;
}

export async function seedDemoPerio(tx: TenantTx, accountId: string, users: DemoStaff): Promise<void> {
  const patientIds = await firstDemoPatients(tx, accountId, 1);
  const patientId = patientIds?.[0];
  if (!patientId) return;
  const ctx = demoCommercialContext(tx, accountId, users.supervisorId);
  const teeth = await perioService.teeth({ ctx, patientId, dentition: 'adult' });
  const chart = (visit: 'before' | 'after') =>
    teeth.present.map((tooth) => chartedTooth(tooth, visit, teeth.implants.includes(tooth)));
  const older = await perioService.create({
    ctx,
    patientId,
    input: {
      date: demoDay(120),
      professionalId: users.supervisorId,
      dentition: 'adult',
      notes: 'Periodontitis estadio II: raspado y alisado radicular por cuadrantes.',
      teeth: chart('before'),
    },
  });
  await perioService.close({ ctx, patientId, id: older.id, version: older.version });
  await perioService.create({
    ctx,
    patientId,
    input: {
      date: demoDay(6),
      professionalId: users.supervisorId,
      dentition: 'adult',
      notes: 'Reevaluación tras el tratamiento básico.',
      teeth: chart('after'),
    },
  });
}
