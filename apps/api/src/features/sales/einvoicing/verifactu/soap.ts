import https from 'node:https';
import { XMLParser } from 'fast-xml-parser';
import { aeatDate, el, isoDate, NS, type VerifactuEnvironment } from './records.ts';

/**
 * The SOAP 1.1 binding of the AEAT WSDL SistemaFacturacion.wsdl (port SistemaVerifactu /
 * SistemaVerifactuPruebas, document/literal, empty SOAPAction): RegFactuSistemaFacturacion to
 * submit records and ConsultaFactuSistemaFacturacion to read back what the AEAT holds.
 */

const ENDPOINTS: Record<VerifactuEnvironment, string> = {
  test: 'https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
  production: 'https://www1.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP',
};

export function verifactuEndpoint(env: VerifactuEnvironment): string {
  return ENDPOINTS[env];
}

export const MAX_RECORDS_PER_SUBMISSION = 1000;

export interface Obligado {
  nif: string;
  nombre: string;
}

/** The RegFactuSistemaFacturacion element alone, namespaces declared on it (what the XSD validates). */
export function regFactuBody(obligado: Obligado, records: string[]): string {
  if (records.length < 1 || records.length > MAX_RECORDS_PER_SUBMISSION) {
    throw new Error(`A submission takes 1 to ${MAX_RECORDS_PER_SUBMISSION} records, got ${records.length}`);
  }
  return (
    `<sum:RegFactuSistemaFacturacion xmlns:sum="${NS.sum}" xmlns:sum1="${NS.sum1}">` +
    `<sum:Cabecera><sum1:ObligadoEmision>${el('sum1:NombreRazon', obligado.nombre)}${el('sum1:NIF', obligado.nif)}</sum1:ObligadoEmision></sum:Cabecera>` +
    records.join('') +
    '</sum:RegFactuSistemaFacturacion>'
  );
}

function soapEnvelope(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv="${NS.soap}"><soapenv:Header/><soapenv:Body>${body}</soapenv:Body></soapenv:Envelope>`;
}

/** The whole SOAP request: Cabecera (ObligadoEmision NIF + name) and 1..1000 RegistroFactura fragments. */
export function submissionEnvelope(obligado: Obligado, records: string[]): string {
  return soapEnvelope(regFactuBody(obligado, records));
}

/** ConsultaFactuSistemaFacturacion filtered by the invoice's period (required) and number. */
export function consultaBody(obligado: Obligado, invoice: { numSerie: string; fecha: string }): string {
  const [year, month] = invoice.fecha.split('-');
  return (
    `<con:ConsultaFactuSistemaFacturacion xmlns:con="${NS.con}" xmlns:sum1="${NS.sum1}">` +
    `<con:Cabecera>${el('sum1:IDVersion', '1.0')}<sum1:ObligadoEmision>${el('sum1:NombreRazon', obligado.nombre)}${el('sum1:NIF', obligado.nif)}</sum1:ObligadoEmision></con:Cabecera>` +
    `<con:FiltroConsulta><con:PeriodoImputacion>${el('sum1:Ejercicio', year ?? '')}${el('sum1:Periodo', month ?? '')}</con:PeriodoImputacion>` +
    `${el('con:NumSerieFactura', invoice.numSerie)}</con:FiltroConsulta>` +
    '</con:ConsultaFactuSistemaFacturacion>'
  );
}

export function consultaEnvelope(obligado: Obligado, invoice: { numSerie: string; fecha: string }): string {
  return soapEnvelope(consultaBody(obligado, invoice));
}

/** The AEAT could not be asked or did not answer (timeout, refused, reset, 5xx without SOAP): outcome unknown. */
export class VerifactuUnreachable extends Error {
  override name = 'VerifactuUnreachable';
}

/** The AEAT refused the whole request (SOAP fault, or the certificate was not accepted): nothing was registered. */
export class VerifactuRefused extends Error {
  override name = 'VerifactuRefused';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type LineEstado = 'Correcto' | 'AceptadoConErrores' | 'Incorrecto';

export interface VerifactuLineAnswer {
  numSerie: string;
  /** YYYY-MM-DD */
  fecha: string;
  operacion: 'Alta' | 'Anulacion';
  estado: LineEstado;
  codigoError: string | null;
  descripcionError: string | null;
  /** Present when the line is refused as duplicate (3000): what the AEAT already holds. */
  duplicado?: { estado: string; idPeticion?: string };
}

export interface VerifactuAnswer {
  csv: string | null;
  estadoEnvio: 'Correcto' | 'ParcialmenteCorrecto' | 'Incorrecto';
  /** Seconds to wait before the next submission (flow control, Orden HAC/1177/2024 art. 16.2). */
  tiempoEsperaEnvio: number;
  lines: VerifactuLineAnswer[];
}

/** What the AEAT holds for one invoice; Anulada once an anulación was accepted, null when it has nothing. */
export interface VerifactuQueryAnswer {
  estado: 'Correcto' | 'AceptadoConErrores' | 'Incorrecto' | 'Anulada' | null;
  huella: string | null;
}

export interface VerifactuClient {
  submit(obligado: Obligado, records: string[]): Promise<VerifactuAnswer>;
  /** ConsultaFactuSistemaFacturacion: what AEAT holds for this invoice (to query before a retry). */
  query(obligado: Obligado, invoice: { numSerie: string; fecha: string }): Promise<VerifactuQueryAnswer>;
  /** A consult that needs no data, proving TLS + certificate are accepted. */
  checkConnection(obligado: Obligado): Promise<{ ok: true }>;
}

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  isArray: (name) => name === 'RespuestaLinea' || name === 'RegistroRespuestaConsultaFactuSistemaFacturacion',
});

type Node = Record<string, unknown>;

function child(node: unknown, name: string): unknown {
  return node && typeof node === 'object' ? (node as Node)[name] : undefined;
}

function text(node: unknown, name: string): string | null {
  const value = child(node, name);
  if (value === undefined || value === null || typeof value === 'object') return null;
  return String(value).trim();
}

/** The Body of a SOAP envelope, or null when the text is not one. */
function soapBody(xml: string): Node | null {
  if (!xml.includes('Envelope')) return null;
  try {
    const body = child(child(parser.parse(xml), 'Envelope'), 'Body');
    return body && typeof body === 'object' ? (body as Node) : null;
  } catch {
    return null;
  }
}

function faultOf(body: Node): VerifactuRefused | null {
  const fault = child(body, 'Fault');
  if (!fault) return null;
  const faultstring = text(fault, 'faultstring') ?? '';
  // The AEAT writes its code into the faultstring: "Codigo[4104].El NIF del titular…"
  const code = /Codigo\[(\d+)\]/.exec(faultstring)?.[1] ?? text(fault, 'faultcode') ?? 'fault';
  return new VerifactuRefused(code, faultstring || 'SOAP fault');
}

export function parseSubmissionAnswer(xml: string): VerifactuAnswer {
  const body = soapBody(xml);
  if (!body) throw new VerifactuUnreachable('The answer is not a SOAP envelope');
  const fault = faultOf(body);
  if (fault) throw fault;
  const answer = child(body, 'RespuestaRegFactuSistemaFacturacion');
  if (!answer) throw new VerifactuUnreachable('The SOAP answer has no RespuestaRegFactuSistemaFacturacion');
  const lines = ((child(answer, 'RespuestaLinea') as unknown[] | undefined) ?? []).map((line): VerifactuLineAnswer => {
    const id = child(line, 'IDFactura');
    const duplicate = child(line, 'RegistroDuplicado');
    const idPeticion = text(duplicate, 'IdPeticionRegistroDuplicado');
    return {
      numSerie: text(id, 'NumSerieFactura') ?? '',
      fecha: isoDate(text(id, 'FechaExpedicionFactura') ?? ''),
      operacion: (text(child(line, 'Operacion'), 'TipoOperacion') as 'Alta' | 'Anulacion' | null) ?? 'Alta',
      estado: text(line, 'EstadoRegistro') as LineEstado,
      codigoError: text(line, 'CodigoErrorRegistro'),
      descripcionError: text(line, 'DescripcionErrorRegistro'),
      ...(duplicate
        ? {
            duplicado: {
              estado: text(duplicate, 'EstadoRegistroDuplicado') ?? '',
              ...(idPeticion ? { idPeticion } : {}),
            },
          }
        : {}),
    };
  });
  return {
    csv: text(answer, 'CSV'),
    estadoEnvio: text(answer, 'EstadoEnvio') as VerifactuAnswer['estadoEnvio'],
    tiempoEsperaEnvio: Number(text(answer, 'TiempoEsperaEnvio') ?? '60'),
    lines,
  };
}

const CONSULTA_ESTADOS: Record<string, VerifactuQueryAnswer['estado']> = {
  Correcta: 'Correcto',
  AceptadaConErrores: 'AceptadoConErrores',
  Anulada: 'Anulada',
};

export function parseQueryAnswer(xml: string, invoice: { numSerie: string; fecha: string }): VerifactuQueryAnswer {
  const body = soapBody(xml);
  if (!body) throw new VerifactuUnreachable('The answer is not a SOAP envelope');
  const fault = faultOf(body);
  if (fault) throw fault;
  const answer = child(body, 'RespuestaConsultaFactuSistemaFacturacion');
  if (!answer) throw new VerifactuUnreachable('The SOAP answer has no RespuestaConsultaFactuSistemaFacturacion');
  const fecha = aeatDate(invoice.fecha);
  const found = (
    (child(answer, 'RegistroRespuestaConsultaFactuSistemaFacturacion') as unknown[] | undefined) ?? []
  ).find((r) => {
    const id = child(r, 'IDFactura');
    return text(id, 'NumSerieFactura') === invoice.numSerie.trim() && text(id, 'FechaExpedicionFactura') === fecha;
  });
  if (!found) return { estado: null, huella: null };
  const estado = text(child(found, 'EstadoRegistro'), 'EstadoRegistro') ?? '';
  return {
    estado: CONSULTA_ESTADOS[estado] ?? null,
    huella: text(child(found, 'DatosRegistroFacturacion'), 'Huella'),
  };
}

export interface VerifactuClientOptions {
  endpoint: string;
  certificatePem: string;
  privateKeyPem: string;
  timeoutMs?: number;
  /** Extra trusted CA (tests trust the fake's); the real AEAT chains to public roots. */
  ca?: string;
}

const TLS_CERTIFICATE_ALERT =
  /ALERT_(BAD_CERTIFICATE|CERTIFICATE_EXPIRED|UNKNOWN_CA|CERTIFICATE_REQUIRED|CERTIFICATE_UNKNOWN|HANDSHAKE_FAILURE|ACCESS_DENIED)/;

export function verifactuClient(options: VerifactuClientOptions): VerifactuClient {
  const agent = new https.Agent({
    cert: options.certificatePem,
    key: options.privateKeyPem,
    ...(options.ca ? { ca: options.ca } : {}),
    keepAlive: true,
    maxSockets: 4,
  });
  const timeoutMs = options.timeoutMs ?? 60_000;
  const url = new URL(options.endpoint);

  function post(envelope: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const payload = Buffer.from(envelope, 'utf8');
      const request = https.request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'text/xml; charset=utf-8',
            'content-length': payload.length,
            soapaction: '""',
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            clearTimeout(deadline);
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
          });
          response.on('error', (error) => fail(error));
        },
      );
      // One deadline for the whole exchange: an answer that never comes is "we do not know".
      const deadline = setTimeout(() => {
        request.destroy(new VerifactuUnreachable(`No answer from the AEAT within ${timeoutMs} ms`));
      }, timeoutMs);
      function fail(error: Error & { code?: string }) {
        clearTimeout(deadline);
        if (error instanceof VerifactuUnreachable) return reject(error);
        if (TLS_CERTIFICATE_ALERT.test(error.code ?? '') || TLS_CERTIFICATE_ALERT.test(error.message)) {
          return reject(
            new VerifactuRefused('certificate', `The AEAT refused the client certificate: ${error.message}`),
          );
        }
        reject(
          new VerifactuUnreachable(`AEAT unreachable: ${error.code ?? ''} ${error.message}`.trim(), { cause: error }),
        );
      }
      request.on('error', fail);
      request.end(payload);
    });
  }

  async function exchange(envelope: string): Promise<string> {
    const { status, body } = await post(envelope);
    if (status === 401 || status === 403) {
      throw new VerifactuRefused('certificate', `The AEAT refused the client certificate (HTTP ${status})`);
    }
    // A SOAP fault comes with 500 and a body: let the parser raise it. Other non-2xx are "unknown".
    if (status >= 300 && !soapBody(body)) throw new VerifactuUnreachable(`AEAT answered HTTP ${status} without SOAP`);
    return body;
  }

  return {
    async submit(obligado, records) {
      return parseSubmissionAnswer(await exchange(submissionEnvelope(obligado, records)));
    },
    async query(obligado, invoice) {
      return parseQueryAnswer(await exchange(consultaEnvelope(obligado, invoice)), invoice);
    },
    async checkConnection(obligado) {
      const today = new Date().toISOString().slice(0, 10);
      // An invoice number nobody uses: the answer proves access without transferring any data.
      parseQueryAnswer(
        await exchange(consultaEnvelope(obligado, { numSerie: 'ODONTIA-CONNECTION-CHECK', fecha: today })),
        {
          numSerie: 'ODONTIA-CONNECTION-CHECK',
          fecha: today,
        },
      );
      return { ok: true };
    },
  };
}
