import { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { Actor } from '../context.ts';
import type { Database } from '../db/client.ts';
import { createImportsService } from '../features/imports/imports.service.ts';
import type { ClaimedJob } from '../features/jobs/jobs.worker.ts';
import { createDiskStorage, importsDirOf } from '../lib/file-storage.ts';
import { inTransaction } from '../plugins/routes.ts';

/**
 * The demo's import history (issue 42): the export of the clinic's previous system, uploaded by
 * the administrator and checked (the dry run) through the wizard's own service, not imported yet —
 * the history shows it ready, and "Importar" on the demo really brings its 8 patients in. Latin-1
 * with `;` and the old system's own column names, as such exports come; two rows the dry run
 * refuses (a date that does not exist, no sex), each with its reason.
 */
export const demoImport = {
  source: 'Sistema anterior',
  fileName: 'pacientes-sistema-anterior.csv',
  rows: [
    'Nro Ficha;Apellido;Nombres;DNI;Fecha Nac.;Sexo;Celular;E-mail;Localidad;Observaciones',
    'F-1041;Giménez;Rocío Belén;30111222;14/02/1984;Femenino;11 5566-1041;rocio.gimenez@correo.demo;Quilmes;Prefiere turnos por la tarde',
    'F-1042;Acuña;Tomás;28444555;03/07/1980;Masculino;11 5566-1042;;Avellaneda;',
    'F-1043;Peña;Mónica Inés;25666777;21/11/1976;Femenino;11 5566-1043;;Lanús;Alergia a la penicilina',
    'F-1044;Ibáñez;Julián;40111333;09/09/1997;Masculino;11 5566-1044;julian.ibanez@correo.demo;CABA;',
    'F-1045;Núñez;Agustina;42999888;30/01/2001;Femenino;11 5566-1045;;Lomas de Zamora;',
    'F-1046;Castaño;Héctor Raúl;14222111;05/05/1958;Masculino;11 5566-1046;;Banfield;Hipertenso',
    'F-1047;Ledesma;Florencia;35777666;31/02/1990;Femenino;11 5566-1047;;CABA;',
    'F-1048;Quiroga;Esteban;33444999;17/08/1988;;11 5566-1048;;Wilde;',
    'F-1049;Zárate;Lucía;45123456;12/12/2004;Femenino;11 5566-1049;;Bernal;',
    'F-1050;Ojeda;Ramón;20333444;28/03/1969;Masculino;11 5566-1050;;Temperley;',
  ],
  toCreate: 8,
  refused: 2,
} as const;

export async function seedDemoImport(db: Database, dataDir: string, actor: Actor): Promise<string> {
  const imports = createImportsService({
    db,
    storage: createDiskStorage(importsDirOf(dataDir)),
    chunkRows: 500,
  });
  const content = Buffer.from(`${demoImport.rows.join('\r\n')}\r\n`, 'latin1');
  const parts = async function* (): AsyncIterable<Multipart> {
    yield { type: 'field', fieldname: 'kind', value: 'patients' } as unknown as Multipart;
    yield { type: 'field', fieldname: 'source', value: demoImport.source } as unknown as Multipart;
    yield {
      type: 'file',
      fieldname: 'file',
      filename: demoImport.fileName,
      file: Readable.from([content]),
    } as unknown as Multipart;
  };
  const preview = await imports.upload({ actor, parts });
  const importId = preview.run.id;
  await inTransaction(db, actor, (ctx) =>
    imports.check({ ctx, importId, body: { encoding: preview.encoding, mapping: preview.suggestedMapping } }),
  );
  // The dry run's job, run here (the file is one chunk); the queued job then finds it checked.
  const job = { key: importId, payload: { importId } } as unknown as ClaimedJob;
  await inTransaction(db, actor, (ctx) => imports.handler().run(ctx, job));
  return importId;
}
