import { huellaAlta, huellaAnulacion } from './huella.ts';

/**
 * RegistroAlta / RegistroAnulacion fragments of the AEAT schema SuministroInformacion.xsd (IDVersion
 * 1.0), each wrapped in the <sum:RegistroFactura> of SuministroLR.xsd, ready to be put into a
 * RegFactuSistemaFacturacion request by `submissionEnvelope`.
 */

export type VerifactuEnvironment = 'test' | 'production';

const AEAT_WS =
  'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws';
export const NS = {
  soap: 'http://schemas.xmlsoap.org/soap/envelope/',
  /** SuministroLR.xsd: the request element and RegistroFactura. */
  sum: `${AEAT_WS}/SuministroLR.xsd`,
  /** SuministroInformacion.xsd: every record field. */
  sum1: `${AEAT_WS}/SuministroInformacion.xsd`,
  /** ConsultaLR.xsd: the consult request. */
  con: `${AEAT_WS}/ConsultaLR.xsd`,
  /** RespuestaSuministro.xsd / RespuestaConsultaLR.xsd: the answers. */
  resp: `${AEAT_WS}/RespuestaSuministro.xsd`,
  respConsulta: `${AEAT_WS}/RespuestaConsultaLR.xsd`,
} as const;

export interface SistemaInformatico {
  nombreRazon: string;
  nif: string;
  nombreSistemaInformatico: string;
  idSistemaInformatico: string;
  version: string;
  numeroInstalacion: string;
  tipoUsoPosibleSoloVerifactu: 'S' | 'N';
  tipoUsoPosibleMultiOT: 'S' | 'N';
  indicadorMultiplesOT: 'S' | 'N';
}

export interface ChainLink {
  issuerNif: string;
  numSerie: string;
  /** YYYY-MM-DD */
  fecha: string;
  huella: string;
}

export type Destinatario =
  | { nif: string; nombre: string }
  | { nombre: string; idOtro: { codigoPais: string; idType: string; id: string } };

export interface DesgloseLine {
  impuesto?: '01';
  claveRegimen: string;
  /** S1/S2 subject, N1/N2 not subject; exclusive with `exenta`. */
  calificacion?: 'S1' | 'S2' | 'N1' | 'N2';
  exenta?: 'E1' | 'E2' | 'E3' | 'E4' | 'E5' | 'E6';
  tipoImpositivo?: string;
  baseImponible: string;
  cuota?: string;
}

export interface AltaInput {
  issuerNif: string;
  issuerName: string;
  numSerie: string;
  /** YYYY-MM-DD */
  fecha: string;
  tipoFactura: 'F1' | 'F2' | 'R1' | 'R4' | 'R5';
  tipoRectificativa?: 'I' | 'S';
  rectificadas?: { issuerNif: string; numSerie: string; fecha: string }[];
  /** Required by the XSD when tipoRectificativa is 'S' (AEAT error 1118 otherwise). */
  importeRectificacion?: { base: string; cuota: string };
  descripcion: string;
  destinatario?: Destinatario;
  desglose: DesgloseLine[];
  cuotaTotal: string;
  importeTotal: string;
  previous: ChainLink | null;
  generatedAt: Date;
  timeZone: string;
  sistema: SistemaInformatico;
  subsanacion?: boolean;
  rechazoPrevio?: 'N' | 'S' | 'X';
}

export interface AnulacionInput {
  issuerNif: string;
  numSerie: string;
  fecha: string;
  previous: ChainLink | null;
  generatedAt: Date;
  timeZone: string;
  sistema: SistemaInformatico;
  rechazoPrevio?: 'N' | 'S';
  sinRegistroPrevio?: 'N' | 'S';
}

export interface BuiltRecord {
  xml: string;
  huella: string;
  fechaHoraHusoGenRegistro: string;
}

export function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** `<prefix:name>value</prefix:name>`, the value escaped. */
export function el(name: string, value: string): string {
  return `<${name}>${escapeXml(value)}</${name}>`;
}

/** YYYY-MM-DD → dd-mm-yyyy, the date format of the AEAT schema ("fecha" type). */
export function aeatDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate.trim());
  if (!match) throw new Error(`Expected a YYYY-MM-DD date, got "${isoDate}"`);
  return `${match[3]}-${match[2]}-${match[1]}`;
}

/** dd-mm-yyyy → YYYY-MM-DD. */
export function isoDate(aeat: string): string {
  const match = /^(\d{2})-(\d{2})-(\d{4})$/.exec(aeat.trim());
  if (!match) throw new Error(`Expected a dd-mm-yyyy date, got "${aeat}"`);
  return `${match[3]}-${match[2]}-${match[1]}`;
}

/**
 * ISO 8601 with the zone's offset at that instant and whole seconds (the form of the AEAT examples,
 * e.g. 2024-01-01T19:20:30+01:00).
 */
export function isoWithOffset(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const wallClockAsUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const offsetMinutes = Math.round((wallClockAsUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

function sistemaXml(s: SistemaInformatico): string {
  return (
    '<sum1:SistemaInformatico>' +
    el('sum1:NombreRazon', s.nombreRazon) +
    el('sum1:NIF', s.nif) +
    el('sum1:NombreSistemaInformatico', s.nombreSistemaInformatico) +
    el('sum1:IdSistemaInformatico', s.idSistemaInformatico) +
    el('sum1:Version', s.version) +
    el('sum1:NumeroInstalacion', s.numeroInstalacion) +
    el('sum1:TipoUsoPosibleSoloVerifactu', s.tipoUsoPosibleSoloVerifactu) +
    el('sum1:TipoUsoPosibleMultiOT', s.tipoUsoPosibleMultiOT) +
    el('sum1:IndicadorMultiplesOT', s.indicadorMultiplesOT) +
    '</sum1:SistemaInformatico>'
  );
}

function encadenamientoXml(previous: ChainLink | null): string {
  if (!previous) return '<sum1:Encadenamiento><sum1:PrimerRegistro>S</sum1:PrimerRegistro></sum1:Encadenamiento>';
  return (
    '<sum1:Encadenamiento><sum1:RegistroAnterior>' +
    el('sum1:IDEmisorFactura', previous.issuerNif) +
    el('sum1:NumSerieFactura', previous.numSerie) +
    el('sum1:FechaExpedicionFactura', aeatDate(previous.fecha)) +
    el('sum1:Huella', previous.huella) +
    '</sum1:RegistroAnterior></sum1:Encadenamiento>'
  );
}

function destinatarioXml(d: Destinatario): string {
  const id =
    'nif' in d
      ? el('sum1:NIF', d.nif)
      : `<sum1:IDOtro>${el('sum1:CodigoPais', d.idOtro.codigoPais)}${el('sum1:IDType', d.idOtro.idType)}${el('sum1:ID', d.idOtro.id)}</sum1:IDOtro>`;
  return `<sum1:Destinatarios><sum1:IDDestinatario>${el('sum1:NombreRazon', d.nombre)}${id}</sum1:IDDestinatario></sum1:Destinatarios>`;
}

function detalleXml(line: DesgloseLine): string {
  if ((line.calificacion ? 1 : 0) + (line.exenta ? 1 : 0) !== 1) {
    throw new Error('Each desglose line needs exactly one of calificacion or exenta');
  }
  return (
    '<sum1:DetalleDesglose>' +
    (line.impuesto ? el('sum1:Impuesto', line.impuesto) : '') +
    el('sum1:ClaveRegimen', line.claveRegimen) +
    (line.calificacion ? el('sum1:CalificacionOperacion', line.calificacion) : '') +
    (line.exenta ? el('sum1:OperacionExenta', line.exenta) : '') +
    (line.tipoImpositivo !== undefined ? el('sum1:TipoImpositivo', line.tipoImpositivo) : '') +
    el('sum1:BaseImponibleOimporteNoSujeto', line.baseImponible) +
    (line.cuota !== undefined ? el('sum1:CuotaRepercutida', line.cuota) : '') +
    '</sum1:DetalleDesglose>'
  );
}

const RECTIFICATIVAS = new Set(['R1', 'R2', 'R3', 'R4', 'R5']);

export function buildAlta(input: AltaInput): BuiltRecord {
  const rectificativa = RECTIFICATIVAS.has(input.tipoFactura);
  // The AEAT rejects these combinations line by line (1114, 1115, 1117, 1118); failing here is cheaper.
  if (rectificativa && !input.tipoRectificativa) throw new Error(`${input.tipoFactura} needs tipoRectificativa`);
  if (!rectificativa && (input.tipoRectificativa || input.rectificadas?.length)) {
    throw new Error(`${input.tipoFactura} is not a rectificativa`);
  }
  if (input.tipoRectificativa === 'S' && !input.importeRectificacion) {
    throw new Error('A rectificativa por sustitución needs importeRectificacion');
  }
  if (input.desglose.length < 1 || input.desglose.length > 12) throw new Error('Desglose takes 1 to 12 lines');

  const fecha = aeatDate(input.fecha);
  const fechaHoraHusoGenRegistro = isoWithOffset(input.generatedAt, input.timeZone);
  const huella = huellaAlta({
    idEmisorFactura: input.issuerNif,
    numSerieFactura: input.numSerie,
    fechaExpedicionFactura: fecha,
    tipoFactura: input.tipoFactura,
    cuotaTotal: input.cuotaTotal,
    importeTotal: input.importeTotal,
    huellaAnterior: input.previous?.huella ?? '',
    fechaHoraHusoGenRegistro,
  });

  const rectificadas = input.rectificadas?.length
    ? `<sum1:FacturasRectificadas>${input.rectificadas
        .map(
          (r) =>
            `<sum1:IDFacturaRectificada>${el('sum1:IDEmisorFactura', r.issuerNif)}${el('sum1:NumSerieFactura', r.numSerie)}${el('sum1:FechaExpedicionFactura', aeatDate(r.fecha))}</sum1:IDFacturaRectificada>`,
        )
        .join('')}</sum1:FacturasRectificadas>`
    : '';
  const importeRectificacion = input.importeRectificacion
    ? `<sum1:ImporteRectificacion>${el('sum1:BaseRectificada', input.importeRectificacion.base)}${el('sum1:CuotaRectificada', input.importeRectificacion.cuota)}</sum1:ImporteRectificacion>`
    : '';

  const xml =
    '<sum:RegistroFactura><sum1:RegistroAlta>' +
    el('sum1:IDVersion', '1.0') +
    `<sum1:IDFactura>${el('sum1:IDEmisorFactura', input.issuerNif)}${el('sum1:NumSerieFactura', input.numSerie)}${el('sum1:FechaExpedicionFactura', fecha)}</sum1:IDFactura>` +
    el('sum1:NombreRazonEmisor', input.issuerName) +
    (input.subsanacion ? el('sum1:Subsanacion', 'S') : '') +
    (input.rechazoPrevio ? el('sum1:RechazoPrevio', input.rechazoPrevio) : '') +
    el('sum1:TipoFactura', input.tipoFactura) +
    (input.tipoRectificativa ? el('sum1:TipoRectificativa', input.tipoRectificativa) : '') +
    rectificadas +
    importeRectificacion +
    el('sum1:DescripcionOperacion', input.descripcion) +
    (input.destinatario ? destinatarioXml(input.destinatario) : '') +
    `<sum1:Desglose>${input.desglose.map(detalleXml).join('')}</sum1:Desglose>` +
    el('sum1:CuotaTotal', input.cuotaTotal) +
    el('sum1:ImporteTotal', input.importeTotal) +
    encadenamientoXml(input.previous) +
    sistemaXml(input.sistema) +
    el('sum1:FechaHoraHusoGenRegistro', fechaHoraHusoGenRegistro) +
    el('sum1:TipoHuella', '01') +
    el('sum1:Huella', huella) +
    '</sum1:RegistroAlta></sum:RegistroFactura>';
  return { xml, huella, fechaHoraHusoGenRegistro };
}

export function buildAnulacion(input: AnulacionInput): BuiltRecord {
  const fecha = aeatDate(input.fecha);
  const fechaHoraHusoGenRegistro = isoWithOffset(input.generatedAt, input.timeZone);
  const huella = huellaAnulacion({
    idEmisorFacturaAnulada: input.issuerNif,
    numSerieFacturaAnulada: input.numSerie,
    fechaExpedicionFacturaAnulada: fecha,
    huellaAnterior: input.previous?.huella ?? '',
    fechaHoraHusoGenRegistro,
  });
  const xml =
    '<sum:RegistroFactura><sum1:RegistroAnulacion>' +
    el('sum1:IDVersion', '1.0') +
    `<sum1:IDFactura>${el('sum1:IDEmisorFacturaAnulada', input.issuerNif)}${el('sum1:NumSerieFacturaAnulada', input.numSerie)}${el('sum1:FechaExpedicionFacturaAnulada', fecha)}</sum1:IDFactura>` +
    (input.sinRegistroPrevio ? el('sum1:SinRegistroPrevio', input.sinRegistroPrevio) : '') +
    (input.rechazoPrevio ? el('sum1:RechazoPrevio', input.rechazoPrevio) : '') +
    encadenamientoXml(input.previous) +
    sistemaXml(input.sistema) +
    el('sum1:FechaHoraHusoGenRegistro', fechaHoraHusoGenRegistro) +
    el('sum1:TipoHuella', '01') +
    el('sum1:Huella', huella) +
    '</sum1:RegistroAnulacion></sum:RegistroFactura>';
  return { xml, huella, fechaHoraHusoGenRegistro };
}
