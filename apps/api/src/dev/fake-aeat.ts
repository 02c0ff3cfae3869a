import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { XMLParser } from 'fast-xml-parser';
import forge from 'node-forge';
import { huellaAlta, huellaAnulacion } from '../features/sales/einvoicing/verifactu/huella.ts';
import { nifIsValid } from '../features/sales/einvoicing/verifactu/nif.ts';
import { escapeXml, isoDate, NS } from '../features/sales/einvoicing/verifactu/records.ts';

/**
 * A local stand-in for the AEAT VERI*FACTU web service (WSDL SistemaFacturacion, port
 * SistemaVerifactuPruebas): HTTPS with a client certificate issued by the fake's own CA,
 * RegFactuSistemaFacturacion checked the way the AEAT does record by record (NIF, huella, chain,
 * duplicates, anulación of unknown invoices) and ConsultaFactuSistemaFacturacion answering what it
 * holds. `fail` queues the faults the real service has: lost answers after registering, outages,
 * refused records, a request processed twice.
 *
 * Run directly (`node --import tsx apps/api/src/dev/fake-aeat.ts --port 4030`) it serves until
 * stopped and prints its URL; another process drives it through `/_fake/…` (fail, state, reset,
 * wait, ca, certificate).
 */

export const FAKE_AEAT_PATH = '/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP';

export type FakeAeatFaultKind = 'timeout' | 'down' | 'reject' | 'duplicate';

export interface FakeAeatRecord {
  numSerie: string;
  /** YYYY-MM-DD */
  fecha: string;
  operacion: 'Alta' | 'Anulacion';
  tipoFactura: string | null;
  /** The alta's huella (an anulación keeps it; its own is in `lastHuella`). */
  huella: string;
  estado: 'Correcta' | 'AceptadaConErrores' | 'Anulada';
  codigoError: string | null;
  idPeticion: string;
  registeredAt: string;
}

export interface FakeAeatIssuerState {
  records: FakeAeatRecord[];
  /** Huella of the issuer's last accepted record: the one the next record must chain to. */
  lastHuella: string | null;
  /** A record received and rejected after the last one registered: the system chained the next one to it. */
  lastRejectedHuella: string | null;
}

export interface FakeAeatOptions {
  port?: number;
  host?: string;
  /** TiempoEsperaEnvio answered, in seconds (AEAT starts at 60). */
  waitSeconds?: number;
}

export interface FakeAeat {
  url: string;
  endpoint: string;
  ca: string;
  issueCertificate(
    nif: string,
    opts?: { expired?: boolean; name?: string },
  ): { certificatePem: string; privateKeyPem: string };
  fail(kind: FakeAeatFaultKind, opts?: { count?: number; code?: string }): void;
  state(): Record<string, FakeAeatIssuerState>;
  setWait(seconds: number): void;
  reset(): void;
  close(): Promise<void>;
}

/** Descriptions of the codes the fake answers (AEAT list errores.properties). */
const ERROR_TEXT: Record<string, string> = {
  '1100': 'Valor o tipo incorrecto del campo.',
  '1105': 'El valor del campo FechaExpedicionFactura es incorrecto.',
  '1108': 'El NIF del IDEmisorFactura debe ser el mismo que el NIF del ObligadoEmision.',
  '1109': 'El NIF no está identificado en el censo de la AEAT.',
  '1123': 'El formato del NIF es incorrecto.',
  '2000': 'El cálculo de la huella suministrada es incorrecta.',
  '2003': 'El contenido de la huella del registro anterior no cumple con las especificaciones.',
  '2007':
    'No debe informarse como primer registro, existen facturas emitidas con el obligado emisión y el sistema informático actual.',
  '3000': 'Registro de facturación duplicado.',
  '3001': 'El registro de facturación ya ha sido dado de baja.',
  '3002': 'No existe el registro de facturación.',
  '4102': 'El XML no cumple el esquema. Falta informar campo obligatorio.',
  '4103': 'Se ha producido un error inesperado al parsear el XML.',
  '4112': 'El titular del certificado debe ser Obligado Emisión, Colaborador Social, Apoderado o Sucesor.',
  '4114': 'El XML no cumple con el esquema: se ha superado el límite máximo permitido de facturas a registrar.',
  '4116': 'Error en la cabecera: el campo NIF del bloque ObligadoEmision tiene un formato incorrecto.',
};

// ——— certificates ———

interface Issued {
  certificatePem: string;
  privateKeyPem: string;
}

function rsaKeys(): { publicKey: forge.pki.PublicKey; privateKey: forge.pki.rsa.PrivateKey; privateKeyPem: string } {
  // Native key generation: node-forge's pure-JS RSA takes seconds per key.
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    publicKey: forge.pki.publicKeyFromPem(publicKey),
    privateKey: forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey,
    privateKeyPem: privateKey,
  };
}

function newCertificate(publicKey: forge.pki.PublicKey, notBefore: Date, notAfter: Date): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  return cert;
}

function createCa() {
  const keys = rsaKeys();
  const now = Date.now();
  const cert = newCertificate(keys.publicKey, new Date(now - 86_400_000), new Date(now + 10 * 365 * 86_400_000));
  const subject = [
    { name: 'commonName', value: 'Fake AEAT CA' },
    { name: 'organizationName', value: 'Odontia test' },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { cert, key: keys.privateKey, pem: forge.pki.certificateToPem(cert) };
}

type Ca = ReturnType<typeof createCa>;

function issue(ca: Ca, subject: forge.pki.CertificateField[], validity: [Date, Date], extensions: object[]): Issued {
  const keys = rsaKeys();
  const cert = newCertificate(keys.publicKey, validity[0], validity[1]);
  cert.setSubject(subject);
  cert.setIssuer(ca.cert.subject.attributes);
  cert.setExtensions(extensions);
  cert.sign(ca.key, forge.md.sha256.create());
  return { certificatePem: forge.pki.certificateToPem(cert), privateKeyPem: keys.privateKeyPem };
}

/** Like the FNMT certificates the AEAT accepts: the NIF in serialNumber as "IDCES-<NIF>". */
function issueClientCertificate(ca: Ca, nif: string, opts: { expired?: boolean; name?: string }): Issued {
  const now = Date.now();
  const validity: [Date, Date] = opts.expired
    ? [new Date(now - 2 * 365 * 86_400_000), new Date(now - 86_400_000)]
    : [new Date(now - 86_400_000), new Date(now + 2 * 365 * 86_400_000)];
  return issue(
    ca,
    [
      { name: 'commonName', value: `${opts.name ?? 'TITULAR'} - ${nif}` },
      { name: 'serialNumber', value: `IDCES-${nif}` },
      { name: 'countryName', value: 'ES' },
    ],
    validity,
    [
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', clientAuth: true },
    ],
  );
}

function certificateNif(socket: TLSSocket): string | null {
  const subject = socket.getPeerCertificate()?.subject as Record<string, string | string[]> | undefined;
  const serial = subject?.serialNumber;
  const value = Array.isArray(serial) ? serial[0] : serial;
  return value ? value.replace(/^IDCES-/, '') : null;
}

// ——— request parsing ———

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: false,
  isArray: (name) => name === 'RegistroFactura' || name === 'IDDestinatario' || name === 'DetalleDesglose',
});

type Node = Record<string, unknown>;

function get(node: unknown, ...path: string[]): unknown {
  let current = node;
  for (const name of path) {
    if (!current || typeof current !== 'object') return undefined;
    current = (current as Node)[name];
  }
  return current;
}

function str(node: unknown, ...path: string[]): string | null {
  const value = get(node, ...path);
  if (value === undefined || value === null || typeof value === 'object') return null;
  return String(value);
}

class SoapFault extends Error {
  constructor(readonly code: string) {
    super(`Codigo[${code}].${ERROR_TEXT[code] ?? 'Error'}`);
  }
}

interface Line {
  emisor: string;
  numSerie: string;
  fechaAeat: string;
  operacion: 'Alta' | 'Anulacion';
  estado: 'Correcto' | 'AceptadoConErrores' | 'Incorrecto';
  code: string | null;
  duplicate?: FakeAeatRecord;
}

const DATE = /^\d{2}-\d{2}-\d{4}$/;
const AMOUNT = /^(\+|-)?\d{1,12}(\.\d{0,2})?$/;

function required(node: unknown, ...path: string[]): string {
  const value = str(node, ...path);
  if (value === null || value.trim() === '') throw new SoapFault('4102');
  return value;
}

// ——— the fake ———

export async function startFakeAeat(options: FakeAeatOptions = {}): Promise<FakeAeat> {
  const ca = createCa();
  const serverCert = issue(
    ca,
    [{ name: 'commonName', value: 'localhost' }],
    [new Date(Date.now() - 86_400_000), new Date(Date.now() + 365 * 86_400_000)],
    [
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  );

  let waitSeconds = options.waitSeconds ?? 60;
  let issuers = new Map<string, FakeAeatIssuerState>();
  let faults: { kind: FakeAeatFaultKind; remaining: number; code?: string }[] = [];
  let requestCounter = 0;

  function issuer(nif: string): FakeAeatIssuerState {
    let state = issuers.get(nif);
    if (!state) {
      state = { records: [], lastHuella: null, lastRejectedHuella: null };
      issuers.set(nif, state);
    }
    return state;
  }

  function takeFault(kind: FakeAeatFaultKind): { code?: string } | null {
    const fault = faults.find((f) => f.kind === kind && f.remaining > 0);
    if (!fault) return null;
    fault.remaining -= 1;
    faults = faults.filter((f) => f.remaining > 0);
    return fault;
  }

  function findRecord(nif: string, numSerie: string, fechaIso: string): FakeAeatRecord | undefined {
    return issuers.get(nif)?.records.find((r) => r.numSerie === numSerie && r.fecha === fechaIso);
  }

  /** One RegistroFactura as the AEAT treats it: the first failed check decides the line. */
  function processRecord(obligadoNif: string, entry: unknown, idPeticion: string): Line {
    const alta = get(entry, 'RegistroAlta');
    const anulacion = get(entry, 'RegistroAnulacion');
    const record = alta ?? anulacion;
    if (!record || (alta && anulacion)) throw new SoapFault('4102');
    const isAlta = Boolean(alta);
    if (required(record, 'IDVersion') !== '1.0') throw new SoapFault('4102');
    const suffix = isAlta ? '' : 'Anulada';
    const emisor = required(record, 'IDFactura', `IDEmisorFactura${suffix}`).trim();
    const numSerie = required(record, 'IDFactura', `NumSerieFactura${suffix}`).trim();
    const fechaAeat = required(record, 'IDFactura', `FechaExpedicionFactura${suffix}`).trim();
    const fechaHora = required(record, 'FechaHoraHusoGenRegistro');
    const huella = required(record, 'Huella').trim();
    if (required(record, 'TipoHuella') !== '01') throw new SoapFault('4102');
    required(record, 'SistemaInformatico', 'NombreSistemaInformatico');
    const primer = str(record, 'Encadenamiento', 'PrimerRegistro');
    const previousHuella = str(record, 'Encadenamiento', 'RegistroAnterior', 'Huella');
    if (primer === null && previousHuella === null) throw new SoapFault('4102');
    let cuotaTotal = '';
    let importeTotal = '';
    let tipoFactura = '';
    if (isAlta) {
      required(record, 'NombreRazonEmisor');
      tipoFactura = required(record, 'TipoFactura');
      required(record, 'DescripcionOperacion');
      if (!get(record, 'Desglose', 'DetalleDesglose')) throw new SoapFault('4102');
      cuotaTotal = required(record, 'CuotaTotal');
      importeTotal = required(record, 'ImporteTotal');
    }
    const operacion = isAlta ? 'Alta' : 'Anulacion';
    const line = (estado: Line['estado'], code: string | null, duplicate?: FakeAeatRecord): Line => {
      // The system chains every record it generates, sent and rejected too: the next may follow this one.
      if (estado === 'Incorrecto' && !duplicate) issuer(emisor).lastRejectedHuella = huella;
      return answerLine(estado, code, duplicate);
    };
    const answerLine = (estado: Line['estado'], code: string | null, duplicate?: FakeAeatRecord): Line => ({
      emisor,
      numSerie,
      fechaAeat,
      operacion,
      estado,
      code,
      ...(duplicate ? { duplicate } : {}),
    });

    const rejection = takeFault('reject');
    if (rejection) return line('Incorrecto', rejection.code ?? '1100');
    if (!DATE.test(fechaAeat)) return line('Incorrecto', '1105');
    if (emisor !== obligadoNif) return line('Incorrecto', '1108');
    if (isAlta) {
      if (!AMOUNT.test(cuotaTotal.trim()) || !AMOUNT.test(importeTotal.trim())) return line('Incorrecto', '1100');
      const destinatarios = (get(record, 'Destinatarios', 'IDDestinatario') as unknown[] | undefined) ?? [];
      if (destinatarios.some((d) => str(d, 'NIF') !== null && !nifIsValid(str(d, 'NIF') ?? ''))) {
        return line('Incorrecto', '1123');
      }
    }
    const fechaIso = isoDate(fechaAeat);
    const existing = findRecord(emisor, numSerie, fechaIso);
    const subsanacion = str(record, 'Subsanacion') === 'S';
    if (isAlta && existing && !subsanacion) return line('Incorrecto', '3000', existing);
    if (!isAlta) {
      const sinRegistroPrevio = str(record, 'SinRegistroPrevio') === 'S';
      if (!existing && !sinRegistroPrevio) return line('Incorrecto', '3002');
      if (existing?.estado === 'Anulada') return line('Incorrecto', '3001');
    }

    // Admissible errors (2xxx): the record is registered, flagged AceptadoConErrores.
    const expected = isAlta
      ? huellaAlta({
          idEmisorFactura: emisor,
          numSerieFactura: numSerie,
          fechaExpedicionFactura: fechaAeat,
          tipoFactura,
          cuotaTotal,
          importeTotal,
          huellaAnterior: previousHuella ?? '',
          fechaHoraHusoGenRegistro: fechaHora,
        })
      : huellaAnulacion({
          idEmisorFacturaAnulada: emisor,
          numSerieFacturaAnulada: numSerie,
          fechaExpedicionFacturaAnulada: fechaAeat,
          huellaAnterior: previousHuella ?? '',
          fechaHoraHusoGenRegistro: fechaHora,
        });
    const state = issuer(emisor);
    let code: string | null = null;
    if (expected !== huella) code = '2000';
    else if (primer === 'S' && state.lastHuella !== null) code = '2007';
    else if (
      previousHuella !== null &&
      previousHuella.trim() !== state.lastHuella &&
      previousHuella.trim() !== state.lastRejectedHuella
    )
      code = '2003';
    const estado = code ? 'AceptadoConErrores' : 'Correcto';

    const registeredAt = new Date().toISOString();
    if (isAlta) {
      const stored: FakeAeatRecord = {
        numSerie,
        fecha: fechaIso,
        operacion: 'Alta',
        tipoFactura,
        huella,
        estado: code ? 'AceptadaConErrores' : 'Correcta',
        codigoError: code,
        idPeticion,
        registeredAt,
      };
      if (existing) Object.assign(existing, stored);
      else state.records.push(stored);
    } else if (existing) {
      Object.assign(existing, {
        operacion: 'Anulacion',
        estado: 'Anulada',
        codigoError: code,
        idPeticion,
        registeredAt,
      });
    } else {
      state.records.push({
        numSerie,
        fecha: fechaIso,
        operacion: 'Anulacion',
        tipoFactura: null,
        huella,
        estado: 'Anulada',
        codigoError: code,
        idPeticion,
        registeredAt,
      });
    }
    state.lastHuella = huella;
    state.lastRejectedHuella = null;
    return line(estado, code);
  }

  function cabeceraObligado(body: unknown, element: string): { nif: string; nombre: string } {
    const obligado = get(body, element, 'Cabecera', 'ObligadoEmision');
    return { nif: required(obligado, 'NIF').trim(), nombre: required(obligado, 'NombreRazon').trim() };
  }

  function submission(body: unknown, certNif: string | null): string {
    const obligado = cabeceraObligado(body, 'RegFactuSistemaFacturacion');
    if (!nifIsValid(obligado.nif)) throw new SoapFault('4116');
    if (certNif !== obligado.nif) throw new SoapFault('4112');
    const entries = (get(body, 'RegFactuSistemaFacturacion', 'RegistroFactura') as unknown[] | undefined) ?? [];
    if (entries.length === 0) throw new SoapFault('4102');
    if (entries.length > 1000) throw new SoapFault('4114');
    requestCounter += 1;
    const idPeticion = `${Date.now().toString().slice(-8)}${String(requestCounter).padStart(6, '0')}`;
    // Checked whole before anything is registered: a schema fault leaves no trace, as at the AEAT.
    const snapshot = structuredClone([...issuers.entries()]);
    try {
      const lines = entries.map((entry) => processRecord(obligado.nif, entry, idPeticion));
      return answerSubmission(obligado, lines);
    } catch (error) {
      issuers = new Map(snapshot);
      throw error;
    }
  }

  function answerSubmission(obligado: { nif: string; nombre: string }, lines: Line[]): string {
    const accepted = lines.filter((l) => l.estado !== 'Incorrecto').length;
    const estadoEnvio = lines.every((l) => l.estado === 'Correcto')
      ? 'Correcto'
      : accepted === 0
        ? 'Incorrecto'
        : 'ParcialmenteCorrecto';
    const csv = accepted > 0 ? `A-${randomBytes(8).toString('hex').toUpperCase()}` : null;
    const now = new Date().toISOString().replace(/\.\d+Z$/, '+00:00');
    const x = (name: string, value: string) => `<${name}>${escapeXml(value)}</${name}>`;
    const respuestaLineas = lines
      .map((l) => {
        const duplicate = l.duplicate
          ? `<tikR:RegistroDuplicado>${x('tik:IdPeticionRegistroDuplicado', l.duplicate.idPeticion)}${x('tik:EstadoRegistroDuplicado', l.duplicate.estado)}</tikR:RegistroDuplicado>`
          : '';
        return (
          '<tikR:RespuestaLinea>' +
          `<tikR:IDFactura>${x('tik:IDEmisorFactura', l.emisor)}${x('tik:NumSerieFactura', l.numSerie)}${x('tik:FechaExpedicionFactura', l.fechaAeat)}</tikR:IDFactura>` +
          `<tikR:Operacion>${x('tik:TipoOperacion', l.operacion)}</tikR:Operacion>` +
          x('tikR:EstadoRegistro', l.estado) +
          (l.code
            ? x('tikR:CodigoErrorRegistro', l.code) + x('tikR:DescripcionErrorRegistro', ERROR_TEXT[l.code] ?? 'Error')
            : '') +
          duplicate +
          '</tikR:RespuestaLinea>'
        );
      })
      .join('');
    return envelope(
      `<tikR:RespuestaRegFactuSistemaFacturacion xmlns:tikR="${NS.resp}" xmlns:tik="${NS.sum1}">` +
        (csv ? x('tikR:CSV', csv) : '') +
        (csv
          ? `<tikR:DatosPresentacion>${x('tik:NIFPresentador', obligado.nif)}${x('tik:TimestampPresentacion', now)}</tikR:DatosPresentacion>`
          : '') +
        `<tikR:Cabecera><tik:ObligadoEmision>${x('tik:NombreRazon', obligado.nombre)}${x('tik:NIF', obligado.nif)}</tik:ObligadoEmision></tikR:Cabecera>` +
        x('tikR:TiempoEsperaEnvio', String(waitSeconds)) +
        x('tikR:EstadoEnvio', estadoEnvio) +
        respuestaLineas +
        `</tikR:RespuestaRegFactuSistemaFacturacion>`,
    );
  }

  function consulta(body: unknown, certNif: string | null): string {
    const obligado = cabeceraObligado(body, 'ConsultaFactuSistemaFacturacion');
    if (certNif !== obligado.nif) throw new SoapFault('4112');
    const filtro = get(body, 'ConsultaFactuSistemaFacturacion', 'FiltroConsulta');
    const ejercicio = required(filtro, 'PeriodoImputacion', 'Ejercicio').trim();
    const periodo = required(filtro, 'PeriodoImputacion', 'Periodo').trim();
    const numSerie = str(filtro, 'NumSerieFactura')?.trim() ?? null;
    const found = (issuers.get(obligado.nif)?.records ?? []).filter(
      (r) => r.fecha.startsWith(`${ejercicio}-${periodo}-`) && (numSerie === null || r.numSerie === numSerie),
    );
    const x = (name: string, value: string) => `<${name}>${escapeXml(value)}</${name}>`;
    const registros = found
      .slice(0, 10_000)
      .map(
        (r) =>
          '<tikLRRC:RegistroRespuestaConsultaFactuSistemaFacturacion>' +
          `<tikLRRC:IDFactura>${x('tik:IDEmisorFactura', obligado.nif)}${x('tik:NumSerieFactura', r.numSerie)}${x('tik:FechaExpedicionFactura', r.fecha.split('-').reverse().join('-'))}</tikLRRC:IDFactura>` +
          `<tikLRRC:DatosRegistroFacturacion>${r.tipoFactura ? x('tikLRRC:TipoFactura', r.tipoFactura) : ''}${x('tikLRRC:Huella', r.huella)}</tikLRRC:DatosRegistroFacturacion>` +
          `<tikLRRC:EstadoRegistro>${x('tikLRRC:TimestampUltimaModificacion', r.registeredAt.replace(/\.\d+Z$/, '+00:00'))}${x('tikLRRC:EstadoRegistro', r.estado)}${r.codigoError ? x('tikLRRC:CodigoErrorRegistro', r.codigoError) : ''}</tikLRRC:EstadoRegistro>` +
          '</tikLRRC:RegistroRespuestaConsultaFactuSistemaFacturacion>',
      )
      .join('');
    return envelope(
      `<tikLRRC:RespuestaConsultaFactuSistemaFacturacion xmlns:tikLRRC="${NS.respConsulta}" xmlns:tik="${NS.sum1}">` +
        `<tikLRRC:Cabecera>${x('tik:IDVersion', '1.0')}<tik:ObligadoEmision>${x('tik:NombreRazon', obligado.nombre)}${x('tik:NIF', obligado.nif)}</tik:ObligadoEmision></tikLRRC:Cabecera>` +
        `<tikLRRC:PeriodoImputacion>${x('tik:Ejercicio', ejercicio)}${x('tik:Periodo', periodo)}</tikLRRC:PeriodoImputacion>` +
        x('tikLRRC:IndicadorPaginacion', 'N') +
        x('tikLRRC:ResultadoConsulta', found.length > 0 ? 'ConDatos' : 'SinDatos') +
        registros +
        '</tikLRRC:RespuestaConsultaFactuSistemaFacturacion>',
    );
  }

  async function handleSoap(req: IncomingMessage, res: ServerResponse, raw: string) {
    const socket = req.socket as TLSSocket;
    // A certificate the CA did not issue, or an expired one, is refused before any SOAP is read.
    if (!socket.authorized) {
      res
        .writeHead(403, { 'content-type': 'text/plain' })
        .end(`Forbidden: ${socket.authorizationError ?? 'no client certificate'}`);
      return;
    }
    if (takeFault('down')) {
      res.writeHead(503, { 'content-type': 'text/html' }).end('<html><body>Service Unavailable</body></html>');
      return;
    }
    const certNif = certificateNif(socket);
    let parsed: unknown;
    try {
      parsed = parser.parse(raw, true);
    } catch {
      sendFault(res, new SoapFault('4103'));
      return;
    }
    const body = get(parsed, 'Envelope', 'Body');
    try {
      if (get(body, 'ConsultaFactuSistemaFacturacion')) {
        sendXml(res, 200, consulta(body, certNif));
        return;
      }
      if (!get(body, 'RegFactuSistemaFacturacion')) throw new SoapFault('4102');
      const timeout = takeFault('timeout');
      const duplicate = takeFault('duplicate');
      let answer = submission(body, certNif);
      // The same request arriving twice (a retry the client thinks lost): the second answer wins.
      if (duplicate) answer = submission(body, certNif);
      if (timeout) return; // registered, but the answer never leaves: the client times out
      sendXml(res, 200, answer);
    } catch (error) {
      if (error instanceof SoapFault) sendFault(res, error);
      else sendFault(res, new SoapFault('4103'));
    }
  }

  function sendXml(res: ServerResponse, status: number, xml: string) {
    res.writeHead(status, { 'content-type': 'text/xml; charset=utf-8' }).end(xml);
  }

  function sendFault(res: ServerResponse, fault: SoapFault) {
    sendXml(
      res,
      500,
      envelope(
        `<env:Fault><faultcode>env:Client</faultcode><faultstring>${escapeXml(fault.message)}</faultstring><detail><callstack>fake-aeat</callstack></detail></env:Fault>`,
      ),
    );
  }

  function handleControl(req: IncomingMessage, res: ServerResponse, raw: string) {
    const json = (status: number, value: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    let input: Record<string, unknown> = {};
    try {
      input = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return json(400, { error: 'invalid JSON' });
    }
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    if (path === '/_fake/fail' && req.method === 'POST') {
      const kind = input.kind as FakeAeatFaultKind;
      if (!['timeout', 'down', 'reject', 'duplicate'].includes(kind)) return json(400, { error: 'unknown kind' });
      fake.fail(kind, {
        ...(typeof input.count === 'number' ? { count: input.count } : {}),
        ...(typeof input.code === 'string' ? { code: input.code } : {}),
      });
      return json(200, { ok: true });
    }
    if (path === '/_fake/state') return json(200, fake.state());
    if (path === '/_fake/reset' && req.method === 'POST') {
      fake.reset();
      return json(200, { ok: true });
    }
    if (path === '/_fake/wait' && req.method === 'POST') {
      fake.setWait(Number(input.seconds));
      return json(200, { ok: true });
    }
    if (path === '/_fake/ca') return json(200, { ca: ca.pem });
    if (path === '/_fake/certificate' && req.method === 'POST') {
      return json(200, fake.issueCertificate(String(input.nif), { expired: input.expired === true }));
    }
    return json(404, { error: 'not found' });
  }

  const server = https.createServer(
    {
      key: serverCert.privateKeyPem,
      cert: serverCert.certificatePem,
      ca: ca.pem,
      requestCert: true,
      // Checked per request (socket.authorized) so the control endpoints work without a certificate.
      rejectUnauthorized: false,
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        if (req.url?.startsWith('/_fake/')) return handleControl(req, res, raw);
        if (req.method !== 'POST' || new URL(req.url ?? '/', 'https://x').pathname !== FAKE_AEAT_PATH) {
          res.writeHead(404).end();
          return;
        }
        void handleSoap(req, res, raw);
      });
    },
  );
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const url = `https://localhost:${port}`;

  const fake: FakeAeat = {
    url,
    endpoint: `${url}${FAKE_AEAT_PATH}`,
    ca: ca.pem,
    issueCertificate: (nif, opts = {}) => issueClientCertificate(ca, nif, opts),
    fail(kind, opts = {}) {
      faults.push({ kind, remaining: opts.count ?? 1, ...(opts.code ? { code: opts.code } : {}) });
    },
    state: () => structuredClone(Object.fromEntries(issuers)),
    setWait(seconds) {
      waitSeconds = seconds;
    },
    reset() {
      issuers = new Map();
      faults = [];
      waitSeconds = options.waitSeconds ?? 60;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}

function envelope(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="${NS.soap}"><env:Header/><env:Body>${body}</env:Body></env:Envelope>`;
}

// ——— run directly ———

function runDirectly(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4030' },
      host: { type: 'string', default: '127.0.0.1' },
      wait: { type: 'string', default: '60' },
    },
  });
  const fake = await startFakeAeat({ port: Number(values.port), host: values.host, waitSeconds: Number(values.wait) });
  process.stdout.write(`${fake.url}\n`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (runDirectly()) await main();
