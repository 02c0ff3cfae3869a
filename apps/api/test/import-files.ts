/** A patients' export of another system with `rows` rows (issue 42's bench and large test): ';', UTF-8, DD/MM/YYYY. */
export function patientsExport(rows: number, prefix = 'B'): Buffer {
  const lines = ['Nº Historia;Apellidos;Nombre;F. Nacimiento;Sexo;Teléfono móvil;Población;Observaciones'];
  for (let index = 1; index <= rows; index += 1) {
    const day = String((index % 28) + 1).padStart(2, '0');
    const month = String((index % 12) + 1).padStart(2, '0');
    const year = 1940 + (index % 80);
    lines.push(
      `${prefix}-${index};Núñez ${index % 997};Íñigo ${index};${day}/${month}/${year};${index % 2 ? 'H' : 'M'};6${String(index).padStart(8, '0')};Logroño;Paciente ${index}`,
    );
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}

/** The multipart body of an upload to /api/imports. */
export async function importUploadBody(parts: { kind?: string; source?: string; name: string; content: Buffer }) {
  const form = new FormData();
  form.append('kind', parts.kind ?? 'patients');
  form.append('source', parts.source ?? 'GesDent');
  form.append('file', new Blob([new Uint8Array(parts.content)], { type: 'text/csv' }), parts.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type') ?? '' };
}

interface ImportAnswer {
  [key: string]: unknown;
  run: { id: string };
  encoding: string;
  suggestedMapping: Record<string, number>;
  state: string;
  counts: { created: number; updated: number; unchanged: number; refused: number };
}

/**
 * Uploads, checks with the suggested mapping and imports through the app, driving the job queue:
 * the run as it ended and the seconds each pass took.
 */
export async function importThroughApp(
  app: {
    inject: (options: object) => Promise<{ statusCode: number; body: string; json: () => { data: ImportAnswer } }>;
    jobs: { runDue: () => Promise<unknown> };
  },
  headers: Record<string, string>,
  content: Buffer,
  source = 'GesDent',
) {
  const body = await importUploadBody({ name: 'export.csv', content, source });
  const started = performance.now();
  const uploaded = await app.inject({
    method: 'POST',
    url: '/api/imports',
    headers: { ...headers, 'content-type': body.contentType },
    payload: body.payload,
  });
  if (uploaded.statusCode !== 201) throw new Error(`upload answered ${uploaded.statusCode}: ${uploaded.body}`);
  const preview = uploaded.json().data;
  const id = preview.run.id as string;
  const settle = async () => {
    for (;;) {
      const run = (await app.inject({ method: 'GET', url: `/api/imports/${id}`, headers })).json().data;
      if (run.state !== 'checking' && run.state !== 'importing') return run;
      await app.jobs.runDue();
    }
  };
  const check = await app.inject({
    method: 'POST',
    url: `/api/imports/${id}/check`,
    headers,
    payload: { encoding: preview.encoding, mapping: preview.suggestedMapping },
  });
  if (check.statusCode !== 200) throw new Error(`check answered ${check.statusCode}: ${check.body}`);
  const checked = await settle();
  const checkedAt = performance.now();
  const run = await app.inject({
    method: 'POST',
    url: `/api/imports/${id}/run`,
    headers: { ...headers, 'idempotency-key': `import-${id}` },
  });
  if (run.statusCode !== 200) throw new Error(`run answered ${run.statusCode}: ${run.body}`);
  const done = await settle();
  const ended = performance.now();
  return {
    checked,
    done,
    checkSeconds: (checkedAt - started) / 1000,
    importSeconds: (ended - checkedAt) / 1000,
    totalSeconds: (ended - started) / 1000,
  };
}
