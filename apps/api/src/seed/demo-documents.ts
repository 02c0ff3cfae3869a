import { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import { createAuthorizationRequestSchema } from '@odontia/shared/schemas/authorizations';
import { createPrescriptionRequestSchema } from '@odontia/shared/schemas/prescriptions';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { PNG } from 'pngjs';
import sharp from 'sharp';
import type { Actor, RequestContext } from '../context.ts';
import { attendances, authorizationTemplates, inventoryItems, patients } from '../db/schema/index.ts';
import type { TenantTx } from '../db/tenancy.ts';
import { authorizationsService } from '../features/authorizations/authorizations.service.ts';
import type { FilesService } from '../features/files/files.service.ts';
import { prescriptionsService } from '../features/prescriptions/prescriptions.service.ts';
import { type DemoStaff, firstDemoPatients } from './demo-patients.ts';
import { demoDay, demoTimeZone } from './demo-time.ts';

/**
 * The demo clinic's documents (issue 34: a demo that showed 0 prescriptions, 0 consents and 0
 * files): prescriptions signed with the professional's licence, informed consents signed on the
 * pad with their PDF, and images of the patients' files with their thumbnails — each through its
 * service, as the screens write them (validated, coded, audited).
 */

const context = (tx: TenantTx, accountId: string, userId: string): RequestContext => ({
  tx,
  accountId,
  userId,
  level: 'supervisor',
  timeZone: demoTimeZone,
  ip: '127.0.0.1',
});

/** A handwritten-looking signature: a few dark strokes on a transparent pad, as a PNG. */
export function demoSignature(seed: number): string {
  const width = 360;
  const height = 120;
  const png = new PNG({ width, height });
  const ink = (x: number, y: number) => {
    for (let dx = -1; dx <= 1; dx += 1) {
      for (let dy = -1; dy <= 1; dy += 1) {
        const px = Math.round(x) + dx;
        const py = Math.round(y) + dy;
        if (px < 0 || py < 0 || px >= width || py >= height) continue;
        const at = (py * width + px) * 4;
        png.data[at] = 20;
        png.data[at + 1] = 30;
        png.data[at + 2] = 90;
        png.data[at + 3] = 255;
      }
    }
  };
  for (let x = 20; x < width - 20; x += 0.5) {
    const t = (x - 20) / (width - 40);
    ink(x, height / 2 + Math.sin(t * Math.PI * (5 + seed)) * 30 * (1 - t * 0.6) + Math.cos(t * 17 + seed) * 6);
  }
  for (let x = 60; x < width - 60; x += 0.5) ink(x, height - 25 + Math.sin(x / 40 + seed) * 3);
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

/**
 * Prescriptions and consents of the first patients, after their attendances (demo-clinical,
 * demo-agenda) and the consent templates (demo-authorizations).
 */
export async function seedDemoDocuments(tx: TenantTx, accountId: string, people: DemoStaff): Promise<void> {
  const patientIds = await firstDemoPatients(tx, accountId, 4);
  if (!patientIds) return;
  const [first, second, third, fourth] = patientIds as [string, string, string, string];
  const ctx = context(tx, accountId, people.supervisorId);
  const medication = async (name: string) => {
    const [row] = await tx
      .select({ id: inventoryItems.id })
      .from(inventoryItems)
      .where(and(eq(inventoryItems.accountId, accountId), eq(inventoryItems.name, name)));
    return row?.id ?? null;
  };
  const attendanceOf = async (patientId: string) => {
    const [row] = await tx
      .select({ id: attendances.id })
      .from(attendances)
      .where(
        and(eq(attendances.accountId, accountId), eq(attendances.patientId, patientId), isNull(attendances.deletedAt)),
      )
      .orderBy(sql`${attendances.date} desc`)
      .limit(1);
    return row?.id ?? null;
  };
  const nameOf = async (patientId: string) => {
    const [row] = await tx
      .select({ firstName: patients.firstName, lastName: patients.lastName })
      .from(patients)
      .where(and(eq(patients.accountId, accountId), eq(patients.id, patientId)));
    return row ? `${row.firstName} ${row.lastName}` : 'Paciente';
  };
  const prescribe = (patientId: string, input: Record<string, unknown>) =>
    prescriptionsService.create({ ctx, patientId, input: createPrescriptionRequestSchema.parse(input) });

  await prescribe(second, {
    date: demoDay(12),
    professionalId: people.supervisorId,
    diagnosis: 'Pulpitis irreversible en pieza 46',
    attendanceId: await attendanceOf(second),
    lines: [
      {
        medicationId: await medication('Amoxicilina 500 mg'),
        medicine: 'Amoxicilina 500 mg',
        dose: '1 comprimido',
        frequency: 'cada 8 horas',
        duration: '7 días',
        quantity: '21 comprimidos',
        instructions: 'Tomar con agua, sin suspender aunque ceda el dolor.',
      },
      {
        medicationId: await medication('Ibuprofeno 400 mg'),
        medicine: 'Ibuprofeno 400 mg',
        dose: '1 comprimido',
        frequency: 'cada 8 horas si hay dolor',
        duration: '3 días',
        quantity: '10 comprimidos',
        instructions: 'Después de las comidas.',
      },
    ],
  });
  await prescribe(first, {
    date: demoDay(6),
    professionalId: people.supervisorId,
    diagnosis: 'Caries de dentina en pieza 36',
    attendanceId: await attendanceOf(first),
    lines: [
      {
        medicationId: await medication('Clorhexidina 0,12% colutorio'),
        medicine: 'Clorhexidina 0,12% colutorio',
        dose: '15 ml',
        frequency: 'dos veces por día',
        duration: '10 días',
        quantity: '1 frasco',
        instructions: 'Enjuagar 30 segundos sin diluir; no comer ni beber en la media hora siguiente.',
      },
    ],
  });
  await prescribe(fourth, {
    date: demoDay(20),
    professionalId: people.administratorId,
    diagnosis: 'Bruxismo',
    lines: [
      {
        medicationId: null,
        medicine: 'Placa miorrelajante',
        dose: null,
        frequency: 'uso nocturno',
        duration: '6 meses',
        quantity: '1',
        instructions: 'Traer la placa a cada control.',
      },
    ],
  });

  // Consents from the clinic's templates: two signed on the pad (their PDF carries the signature), one waiting.
  const templates = new Map(
    (
      await tx
        .select({ id: authorizationTemplates.id, title: authorizationTemplates.title })
        .from(authorizationTemplates)
        .where(eq(authorizationTemplates.accountId, accountId))
        .orderBy(asc(authorizationTemplates.title))
    ).map((row) => [row.title, row.id]),
  );
  const consent = async (patientId: string, title: string, input: Record<string, unknown>) => {
    const templateId = templates.get(title);
    if (!templateId) throw new Error(`demo consent template "${title}" missing`);
    return authorizationsService.create({
      ctx,
      patientId,
      input: createAuthorizationRequestSchema.parse({ templateId, ...input }),
    });
  };
  const rootCanal = await consent(second, 'Consentimiento informado para tratamiento de conducto', {
    date: demoDay(12),
    professionalId: people.supervisorId,
    treatment: 'Tratamiento de conducto de la pieza 46',
    risks: 'Dolor posoperatorio, fractura de instrumental, necesidad de retratamiento.',
    alternatives: 'Extracción de la pieza.',
    costEstimate: '180000',
  });
  await authorizationsService.sign({
    ctx,
    patientId: second,
    id: rootCanal.id,
    input: { signerName: await nameOf(second), signerIdNumber: '30.123.456', signature: demoSignature(1) },
  });
  const general = await consent(first, 'Consentimiento informado para tratamiento odontológico', {
    date: demoDay(40),
    professionalId: people.administratorId,
    treatment: 'Control, limpieza y obturaciones que el plan de tratamiento indique',
    risks: null,
    alternatives: null,
    costEstimate: null,
  });
  await authorizationsService.sign({
    ctx,
    patientId: first,
    id: general.id,
    input: { signerName: await nameOf(first), signerIdNumber: '27.654.321', signature: demoSignature(2) },
  });
  await consent(third, 'Consentimiento informado para extracción dentaria', {
    date: demoDay(0),
    professionalId: people.supervisorId,
    treatment: 'Extracción de la pieza 38 (tercer molar inferior izquierdo)',
    risks: 'Inflamación, hematoma, alveolitis, parestesia transitoria del labio.',
    alternatives: 'Control radiográfico periódico.',
    costEstimate: '70000',
  });
}

/** A small picture drawn at seed time: a panoramic-looking radiograph or an intraoral photo, as JPEG. */
async function demoImage(kind: 'radiograph' | 'photo'): Promise<Buffer> {
  const teeth = Array.from({ length: 14 }, (_, index) => {
    const x = 70 + index * 36;
    return kind === 'radiograph'
      ? `<rect x="${x}" y="120" width="26" height="70" rx="10" fill="#e5e7eb" opacity="0.85"/><rect x="${x}" y="200" width="26" height="70" rx="10" fill="#d1d5db" opacity="0.8"/>`
      : `<rect x="${x}" y="130" width="28" height="55" rx="12" fill="#fafaf5"/><rect x="${x}" y="205" width="28" height="50" rx="12" fill="#f5f5ee"/>`;
  }).join('');
  const background = kind === 'radiograph' ? '#111827' : '#b4535a';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400">
    <rect width="640" height="400" fill="${background}"/>
    <ellipse cx="320" cy="195" rx="280" ry="120" fill="${kind === 'radiograph' ? '#374151' : '#8b2f3a'}"/>
    ${teeth}
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/** One multipart upload as the browser sends it: the metadata, then the files. */
async function* uploadParts(
  files: { name: string; bytes: Buffer; fileType: string; note: string; takenOn: string }[],
): AsyncIterableIterator<Multipart> {
  const metadata = files.map(({ fileType, note, takenOn }) => ({ fileType, note, takenOn }));
  yield { type: 'field', fieldname: 'metadata', value: JSON.stringify(metadata) } as unknown as Multipart;
  for (const file of files) {
    yield {
      type: 'file',
      fieldname: 'files',
      filename: file.name,
      mimetype: 'image/jpeg',
      file: Readable.from([file.bytes]),
    } as unknown as Multipart;
  }
}

/**
 * Images of the first patients' files, uploaded through the files service like the screen's
 * upload (stored, typed by their bytes, thumbnailed, audited). It runs its own transactions, so
 * it comes after the demo's transaction has committed.
 */
export async function seedDemoFiles(files: FilesService, actor: Actor, patientIds: string[]): Promise<void> {
  const [first, second] = patientIds;
  if (!first || !second) return;
  const panoramic = await demoImage('radiograph');
  const photo = await demoImage('photo');
  await files.upload({
    actor,
    patientId: first,
    parts: () =>
      uploadParts([
        {
          name: 'panoramica.jpg',
          bytes: panoramic,
          fileType: 'dental_radiography',
          note: 'Panorámica de control',
          takenOn: demoDay(40),
        },
        {
          name: 'foto-intraoral.jpg',
          bytes: photo,
          fileType: 'photo',
          note: 'Antes del tratamiento',
          takenOn: demoDay(6),
        },
      ]),
  });
  await files.upload({
    actor,
    patientId: second,
    parts: () =>
      uploadParts([
        {
          name: 'periapical-46.jpg',
          bytes: panoramic,
          fileType: 'dental_radiography',
          note: 'Periapical de la pieza 46',
          takenOn: demoDay(12),
        },
      ]),
  });
}
