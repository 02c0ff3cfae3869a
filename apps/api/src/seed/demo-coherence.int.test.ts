import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useDemoClinic } from '../../test/demo-clinic.ts';
import { pdfText } from '../../test/pdf-text.ts';

/**
 * The demo clinic tells the truth (issue 34, major 7): every area of a patient's record has data
 * (prescriptions with the professional's licence, signed consents with their PDF, files with their
 * thumbnails), every appointment marked attended has the attendance that closed it, and the
 * README's figures are the seed's.
 */
const readme = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../README.md');

describe('demo clinic coherence', () => {
  const demo = useDemoClinic();
  const count = async (query: ReturnType<typeof sql>) =>
    Number((await demo.db().orm.execute<{ n: number }>(query)).rows[0]?.n);

  it('has prescriptions, each with the licence of the professional who signed it', async () => {
    const { rows } = await demo
      .db()
      .orm.execute<{ id: string; patient_id: string; professional_license: string | null }>(
        sql`select id, patient_id, professional_license from prescriptions where deleted_at is null`,
      );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.professional_license).toMatch(/^M[NP] \d/);
    const [first] = rows;
    const pdf = await demo.get(`/api/patients/${first?.patient_id}/prescriptions/${first?.id}/pdf`);
    expect(pdfText(pdf.rawPayload)).toContain(first?.professional_license);
  });

  it('has signed consents whose PDF carries the signature, and one waiting to be signed', async () => {
    const { rows } = await demo
      .db()
      .orm.execute<{ id: string; patient_id: string; status: string }>(
        sql`select id, patient_id, status from treatment_authorizations where deleted_at is null`,
      );
    const signed = rows.filter((row) => row.status === 'signed');
    expect(signed.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.status === 'unsigned')).toBe(true);
    for (const row of signed) {
      const pdf = await demo.get(`/api/patients/${row.patient_id}/authorizations/${row.id}/pdf`);
      expect(pdf.headers['content-type']).toContain('application/pdf');
      expect(pdfText(pdf.rawPayload)).toMatch(/Firma|firma/);
      const verified = await demo.get(`/api/patients/${row.patient_id}/authorizations/${row.id}/verify`);
      expect(verified.json().data).toMatchObject({ valid: true });
    }
  });

  it('has files in the patients’ records, each image with its thumbnail', async () => {
    const { rows } = await demo
      .db()
      .orm.execute<{ id: string; patient_id: string; mime_type: string }>(
        sql`select id, patient_id, mime_type from patient_files where deleted_at is null`,
      );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const listed = (await demo.get(`/api/patients/${row.patient_id}/files/${row.id}`)).json().data;
      if (!row.mime_type.startsWith('image/')) continue;
      expect(listed.hasThumbnail).toBe(true);
      const thumbnail = await demo.get(`/api/patients/${row.patient_id}/files/${row.id}/thumbnail`);
      expect(thumbnail.headers['content-type']).toContain('image/jpeg');
      expect(thumbnail.rawPayload.length).toBeGreaterThan(500);
      const content = await demo.get(`/api/patients/${row.patient_id}/files/${row.id}/content`);
      expect(content.rawPayload.length).toBeGreaterThan(thumbnail.rawPayload.length / 2);
    }
  });

  it('has an attendance for every appointment marked attended, linked as "Iniciar atención" links it', async () => {
    const attended = await count(
      sql`select count(*)::int as n from appointments where status = 'completed' and deleted_at is null`,
    );
    expect(attended).toBeGreaterThan(0);
    const { rows } = await demo.db().orm.execute<{ id: string }>(sql`
      select ap.id from appointments ap
      left join attendances at on at.account_id = ap.account_id and at.id = ap.attendance_id
        and at.deleted_at is null and at.patient_id = ap.patient_id
      where ap.status = 'completed' and ap.deleted_at is null and at.id is null`);
    expect(rows).toEqual([]);
  });

  it('says in its README (both languages) the numbers the seed makes', async () => {
    const text = await readFile(readme, 'utf8');
    const [spanish, english] = text.split(/^## English/m) as [string, string];
    expect(english, 'README has an English part').toBeTruthy();
    const words: Record<string, number> = { dos: 2, tres: 3, cuatro: 4, two: 2, three: 3, four: 4 };
    const numberIn = (part: string, pattern: RegExp) => {
      const found = part.match(pattern)?.[1];
      expect(found, `${pattern} in the README`).toBeTruthy();
      return words[found as string] ?? Number(found);
    };
    const treatments = await count(sql`select count(*)::int as n from treatments where deleted_at is null`);
    const patients = await count(sql`select count(*)::int as n from patients where deleted_at is null`);
    const chairs = await count(sql`select count(*)::int as n from chairs where deleted_at is null`);
    // The clinic's suppliers; a settled professional's own provider record (issue 40) is not one of them.
    const providers = await count(
      sql`select count(*)::int as n from providers p where p.deleted_at is null
        and not exists (select 1 from professional_providers pp where pp.account_id = p.account_id and pp.provider_id = p.id)`,
    );
    expect(numberIn(spanish, /(\d+)\s+tratamientos/)).toBe(treatments);
    expect(numberIn(english, /(\d+)\s+treatments/)).toBe(treatments);
    expect(numberIn(spanish, /(\d+)\s+pacientes/)).toBe(patients);
    expect(numberIn(english, /(\d+)\s+patients/)).toBe(patients);
    expect(numberIn(spanish, /(dos|tres|\d+)\s+sillones/)).toBe(chairs);
    expect(numberIn(english, /(two|three|\d+)\s+chairs/)).toBe(chairs);
    expect(numberIn(spanish, /(dos|tres|cuatro|\d+)\s+proveedores/)).toBe(providers);
    expect(numberIn(english, /(two|three|four|\d+)\s+providers/)).toBe(providers);
  });

  it('credits its production to the professionals who did it, not to "Sin profesional" (issue 35)', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const report = await demo.get(`/api/reports/production-by-professional?from=${day(-300)}&to=${day(30)}`);
    const rows = report.json().data.rows as { professional: string | null; net: string }[];
    const total = Number(report.json().data.totals.net);
    const unassigned = rows.filter((row) => row.professional === null).reduce((sum, row) => sum + Number(row.net), 0);
    expect(rows.filter((row) => row.professional !== null).length).toBeGreaterThanOrEqual(3);
    expect(total).toBeGreaterThan(0);
    expect(unassigned).toBe(0);
  });

  it('has a collection split across cash and a card, on one receipt (issue 35)', async () => {
    const { rows } = await demo
      .db()
      .orm.execute<{ id: string; number: string }>(
        sql`select id, number from payments where side = 'customer' and jsonb_array_length(parts) > 1`,
      );
    expect(rows).toHaveLength(1);
    const collection = (await demo.get(`/api/collections/${rows[0]?.id}`)).json().data;
    expect(collection.parts.map((part: { method: string }) => part.method)).toEqual(['cash_payment', 'debit_card']);
    const receipt = pdfText((await demo.get(`/api/collections/${rows[0]?.id}/receipt`)).rawPayload);
    expect(receipt).toContain('Efectivo');
    expect(receipt).toContain('Tarjeta de débito');
  });
});
