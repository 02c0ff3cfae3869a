// A client's workflow written against the types openapi-typescript generates from the API's
// OpenAPI document (`npm run openapi:client` type-checks it; issue 35). It is compiled, not run:
// if the document loses a named record, a media type, a required header or a field's type, this
// file stops compiling. `./api` is the generated file, written next to a copy of this one.
import type { components, operations } from './api';

export type Patient = components['schemas']['Patient'];
export type Sale = components['schemas']['Sale'];
export type ApiError = components['schemas']['ApiError'];

type Json<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;

type SignIn = operations['postAuthSignIn'];
type CreatePatient = operations['postPatients'];
type CreateSale = operations['postSales'];
type SalePdf = operations['getSalesPdf'];

/** A PDF is bytes (`format: binary`), declared as `application/pdf`: read as a Blob, never as text. */
type PdfAnswer = SalePdf['responses'][200]['content']['application/pdf'];

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError,
  ) {
    super(`${body.code}: ${body.message}`);
  }
}

async function call(base: string, path: string, init: RequestInit): Promise<Response> {
  const response = await fetch(`${base}${path}`, init);
  // Every error, Fastify's own too, is `{ code, message, details? }`.
  if (!response.ok) throw new ApiFailure(response.status, (await response.json()) as ApiError);
  return response;
}

const json = (token?: string): Record<string, string> => ({
  'content-type': 'application/json',
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});

export async function signIn(base: string, body: Json<SignIn['requestBody']>): Promise<string> {
  const response = await call(base, '/api/auth/sign-in', {
    method: 'POST',
    headers: json(),
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Json<SignIn['responses'][200]>;
  const expiresAt: Date = new Date(answer.data.expiresAt);
  if (expiresAt.getTime() < Date.now()) throw new Error('the session is already over');
  return answer.data.token;
}

export async function createPatient(
  base: string,
  token: string,
  body: Json<CreatePatient['requestBody']>,
): Promise<Patient> {
  const response = await call(base, '/api/patients', {
    method: 'POST',
    headers: json(token),
    body: JSON.stringify(body),
  });
  return ((await response.json()) as Json<CreatePatient['responses'][201]>).data;
}

/** A money write: its Idempotency-Key is a required header of the operation. */
export async function createSale(
  base: string,
  token: string,
  headers: CreateSale['parameters']['header'],
  body: Json<CreateSale['requestBody']>,
): Promise<Sale> {
  const response = await call(base, '/api/sales', {
    method: 'POST',
    headers: { ...json(token), ...headers },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as Json<CreateSale['responses'][201]>).data;
}

export async function salePdf(base: string, token: string, id: SalePdf['parameters']['path']['id']): Promise<Blob> {
  const response = await call(base, `/api/sales/${id}/pdf`, { headers: { authorization: `Bearer ${token}` } });
  const pdf: Blob = await response.blob();
  return pdf;
}

/** Sign in, create a patient, create and issue an invoice for them, download its PDF. */
export async function workflow(base: string): Promise<{ patient: Patient; sale: Sale; pdf: Blob }> {
  const token = await signIn(base, { email: 'admin@clinic.example', password: 'a long pass phrase' });
  const patient = await createPatient(base, token, {
    firstName: 'Ana',
    lastName: 'García',
    sex: 'female',
    birthdate: '1990-04-12',
  });
  const sale = await createSale(
    base,
    token,
    { 'idempotency-key': crypto.randomUUID() },
    {
      documentType: 'invoice',
      patientId: patient.id,
      pointOfService: '0001',
      date: '2026-11-29',
      currency: 'argentine_peso',
      lines: [{ description: 'Limpieza', quantity: 1, unitPrice: '15000.00', vatRate: '21' }],
      issue: true,
    },
  );
  // Amounts are decimal strings ('18150.00'), dates 'YYYY-MM-DD', instants ISO 8601.
  const total: string = sale.total;
  const issuedOn: string = sale.date;
  const age: number = patient.age;
  // A nullable record is the record or null; a nullable enum lists null.
  const related: Sale['relatedDocument'] = sale.relatedDocument ?? null;
  const method: Sale['paymentMethod'] = null;
  if (!total || !issuedOn || age < 0 || (related && method)) throw new Error('unexpected answer');
  const pdf = await salePdf(base, token, sale.id);
  return { patient, sale, pdf };
}

// What the types must refuse: a money write without its Idempotency-Key, a PDF read as JSON, an
// amount used as a number.
// @ts-expect-error the Idempotency-Key of a sale is required
const withoutKey: CreateSale['parameters']['header'] = {};
// @ts-expect-error the PDF has no JSON form
type PdfAsJson = SalePdf['responses'][200]['content']['application/json'];
// @ts-expect-error an amount is a decimal string, not a number
const totalAsNumber: number = ({} as Sale).total;
const pdfIsBytes: PdfAnswer = '';
export const refused = { withoutKey, totalAsNumber, pdfIsBytes } as const;
export type Refused = PdfAsJson;
