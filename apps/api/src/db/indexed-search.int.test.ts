import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { availableBackends, useTestDatabase } from '../../test/test-database.ts';
import { newId } from '../lib/ids.ts';

/**
 * The clinic's search keys (migration 0010) only narrow the rows LIKE then checks: they must hold
 * every key of every piece of text LIKE can find (no match is ever lost), and be the clinic's own.
 */
describe.each(availableBackends())('clinic search keys on %s', (backend) => {
  const clinicA = newId();
  const clinicB = newId();
  // Search keys as odontia_search_text makes them: names, ID numbers, e-mails, phones, other scripts.
  const samples = [
    ['María José', 'Pérez-Núñez', '30.999.888', 'P-000042', 'maria.jose+1@correo.test', '+54', '11 4321-0001'],
    ['Иван', 'Петров', 'Ιωάννης Παπαδόπουλος', '李小龍', 'Straße Ærøskøbing Œuvre', '🦷 emoji'],
    ['Lidocaína 2% c/epinefrina', 'SKU_100%', '7790000000042', 'a\\b'],
    ['ab', '', 'x'],
  ];

  const t = useTestDatabase(backend);

  /** Every piece of each sample (1 to 12 characters, no spaces) for which `failing` holds. */
  const pieces = (failing: ReturnType<typeof sql>) =>
    t.db.orm.execute<{ text: string; piece: string }>(sql`
      with samples as (
        select odontia_search_text(variadic parts) as text
        from jsonb_array_elements(${JSON.stringify(samples)}::jsonb) as s(value),
          lateral (select array(select jsonb_array_elements_text(s.value)) as parts) p
      ), cut as (
        select text, substr(text, i, n) as piece
        from samples, generate_series(1, length(text)) as i, generate_series(1, 12) as n
        where i + n - 1 <= length(text)
      )
      select text, piece from cut where position(' ' in piece) = 0 and ${failing}`);

  it('a row holds the keys of every piece of its text: the index never hides a match', async () => {
    const { rows } = await pieces(
      sql`not (odontia_clinic_search_keys(${clinicA}::uuid, text) @> odontia_clinic_search_query(${clinicA}::uuid, array[piece]))`,
    );
    expect(rows).toEqual([]);
    const { rows: all } = await pieces(sql`true`);
    expect(all.length).toBeGreaterThan(900);
  });

  it("another clinic's row holds none of the keys of a piece of three characters or more", async () => {
    const { rows } = await pieces(
      sql`length(piece) >= 3 and odontia_clinic_search_keys(${clinicB}::uuid, text) @> odontia_clinic_search_query(${clinicA}::uuid, array[piece])`,
    );
    expect(rows).toEqual([]);
  });

  it('a search without a trigram asks for the clinic only, which every row of the clinic holds', async () => {
    const { rows } = await t.db.orm.execute<{ mine: boolean; theirs: boolean; empty: boolean }>(sql`
      select odontia_clinic_search_keys(${clinicA}::uuid, 'ana lopez') @> odontia_clinic_search_query(${clinicA}::uuid, array['an', 'lo']) as mine,
        odontia_clinic_search_keys(${clinicB}::uuid, 'ana lopez') @> odontia_clinic_search_query(${clinicA}::uuid, array['an', 'lo']) as theirs,
        odontia_clinic_search_keys(${clinicA}::uuid, null) @> odontia_clinic_search_query(${clinicA}::uuid, null) as empty`);
    expect(rows).toEqual([{ mine: true, theirs: false, empty: true }]);
  });
});
