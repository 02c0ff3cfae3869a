import { ArcaRefused, asArray, codeMessages, escapeXml, soapCall, soapEnvelope, type Xml } from './soap.ts';
import {
  type AccessTicket,
  type ArcaCredentials,
  type ArcaEndpoints,
  login,
  type TicketStore,
  ticketIsFresh,
} from './wsaa.ts';

/** WSFEv1: CAE authorisation of domestic vouchers (invoices, debit and credit notes A/B/C). */

export const WSFE_NAMESPACE = 'http://ar.gov.afip.dif.FEV1/';

export interface ArcaVoucher {
  ptoVta: number;
  cbteTipo: number;
  concepto: 1 | 2 | 3;
  docTipo: number;
  docNro: string;
  condicionIvaReceptorId: number;
  cbteNro: number;
  /** YYYYMMDD. */
  cbteFch: string;
  impTotal: string;
  impTotConc: string;
  impNeto: string;
  impOpEx: string;
  impIva: string;
  impTrib: string;
  monId: string;
  monCotiz: string;
  fchServDesde?: string;
  fchServHasta?: string;
  fchVtoPago?: string;
  iva: { id: number; baseImp: string; importe: string }[];
  cbtesAsoc?: { tipo: number; ptoVta: number; nro: number; cuit?: string; cbteFch?: string }[];
}

export interface ArcaMessage {
  code: string;
  message: string;
}

export interface ArcaVoucherResult {
  cbteNro: number;
  result: 'A' | 'R';
  cae: string | null;
  /** YYYY-MM-DD. */
  caeDueDate: string | null;
  observations: ArcaMessage[];
  errors: ArcaMessage[];
}

export type ArcaConsultedVoucher = ArcaVoucherResult & {
  impTotal: string;
  docTipo: number;
  docNro: string;
  cbteFch: string;
};

export interface ArcaClient {
  lastAuthorized(ptoVta: number, cbteTipo: number): Promise<number>;
  authorize(
    vouchers: ArcaVoucher[],
  ): Promise<{ result: 'A' | 'R' | 'P'; vouchers: ArcaVoucherResult[]; errors: ArcaMessage[] }>;
  consult(ptoVta: number, cbteTipo: number, cbteNro: number): Promise<ArcaConsultedVoucher | null>;
  checkConnection(): Promise<{
    appServer: string;
    dbServer: string;
    authServer: string;
    pointsOfSale: { number: number; blocked: boolean }[];
  }>;
}

export interface ArcaClientOptions {
  endpoints: ArcaEndpoints;
  credentials: ArcaCredentials;
  tickets: TicketStore;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** WSFE error 600 "ValidacionDeToken: …": the ticket is expired, unknown or not this CUIT's. */
export const TOKEN_REFUSED_CODE = '600';
/** WSFE error 602: no data for the query (FECompConsultar, FEParamGetPtosVenta). */
export const NO_DATA_CODE = '602';

const AMOUNT = /^-?\d{1,13}(\.\d{1,6})?$/;

export function arcaClient(options: ArcaClientOptions): ArcaClient {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const soapOptions = { timeoutMs, ...(options.fetch ? { fetch: options.fetch } : {}) };

  async function ticket(): Promise<AccessTicket> {
    const current = await options.tickets.get();
    if (current && ticketIsFresh(current)) return current;
    return options.tickets.refresh(async () => {
      try {
        return await login(options.endpoints, options.credentials, 'wsfe', soapOptions);
      } catch (error) {
        // WSAA refuses a new ticket while one is valid: renewing early, keep using the old one.
        const stillValid = current && Date.parse(current.expiresAt) > Date.now() + 60_000;
        if (error instanceof ArcaRefused && error.code === 'coe.alreadyAuthenticated' && stillValid) return current;
        throw error;
      }
    });
  }

  /** One WSFE operation; on error 600 the ticket is dropped, renewed, and the call made once more. */
  async function call(operation: string, inner: (auth: string) => string): Promise<Xml> {
    for (let attempt = 1; ; attempt++) {
      const current = await ticket();
      const auth =
        `<Auth><Token>${escapeXml(current.token)}</Token><Sign>${escapeXml(current.sign)}</Sign>` +
        `<Cuit>${digits(options.credentials.cuit)}</Cuit></Auth>`;
      const body = await soapCall(
        options.endpoints.wsfeUrl,
        `${WSFE_NAMESPACE}${operation}`,
        soapEnvelope(`<${operation} xmlns="${WSFE_NAMESPACE}">${inner(auth)}</${operation}>`),
        soapOptions,
      );
      const result = body?.[`${operation}Response`]?.[`${operation}Result`];
      if (result === undefined) throw new ArcaRefused('wsfe.badAnswer', `${operation}Result missing`);
      const errors = codeMessages(result?.Errors, 'Err');
      if (attempt === 1 && errors.some((e) => e.code === TOKEN_REFUSED_CODE)) {
        await options.tickets.drop();
        continue;
      }
      return result;
    }
  }

  function refuseOnErrors(result: Xml, allow: string[] = []): void {
    const errors = codeMessages(result?.Errors, 'Err').filter((e) => !allow.includes(e.code));
    const first = errors[0];
    if (first) throw new ArcaRefused(first.code, first.message, errors);
  }

  return {
    async lastAuthorized(ptoVta, cbteTipo) {
      const result = await call(
        'FECompUltimoAutorizado',
        (auth) => `${auth}<PtoVta>${int(ptoVta)}</PtoVta><CbteTipo>${int(cbteTipo)}</CbteTipo>`,
      );
      refuseOnErrors(result);
      return Number(result.CbteNro);
    },

    async authorize(vouchers) {
      const first = vouchers[0];
      if (!first) throw new Error('authorize needs at least one voucher');
      for (const voucher of vouchers) {
        if (voucher.ptoVta !== first.ptoVta || voucher.cbteTipo !== first.cbteTipo)
          throw new Error('authorize takes vouchers of one ptoVta and cbteTipo');
      }
      const details = vouchers.map(detailXml).join('');
      const result = await call(
        'FECAESolicitar',
        (auth) =>
          `${auth}<FeCAEReq><FeCabReq><CantReg>${vouchers.length}</CantReg><PtoVta>${int(first.ptoVta)}</PtoVta>` +
          `<CbteTipo>${int(first.cbteTipo)}</CbteTipo></FeCabReq><FeDetReq>${details}</FeDetReq></FeCAEReq>`,
      );
      const errors = codeMessages(result?.Errors, 'Err');
      const answered = asArray<Xml>(result?.FeDetResp?.FECAEDetResponse);
      const results = vouchers.map((voucher): ArcaVoucherResult => {
        const detail = answered.find((d) => Number(d?.CbteDesde) === voucher.cbteNro);
        if (!detail)
          return { cbteNro: voucher.cbteNro, result: 'R', cae: null, caeDueDate: null, observations: [], errors };
        const approved = detail.Resultado === 'A' && /^\d{14}$/.test(String(detail.CAE ?? ''));
        return {
          cbteNro: voucher.cbteNro,
          result: approved ? 'A' : 'R',
          cae: approved ? String(detail.CAE) : null,
          caeDueDate: approved ? isoDate(String(detail.CAEFchVto ?? '')) : null,
          observations: codeMessages(detail.Observaciones, 'Obs'),
          errors: approved ? [] : errors,
        };
      });
      const header = String(result?.FeCabResp?.Resultado ?? '');
      const approvedCount = results.filter((r) => r.result === 'A').length;
      const overall: 'A' | 'R' | 'P' =
        header === 'A' || header === 'R' || header === 'P'
          ? header
          : approvedCount === results.length
            ? 'A'
            : approvedCount === 0
              ? 'R'
              : 'P';
      return { result: overall, vouchers: results, errors };
    },

    async consult(ptoVta, cbteTipo, cbteNro) {
      const result = await call(
        'FECompConsultar',
        (auth) =>
          `${auth}<FeCompConsReq><CbteTipo>${int(cbteTipo)}</CbteTipo><CbteNro>${int(cbteNro)}</CbteNro>` +
          `<PtoVta>${int(ptoVta)}</PtoVta></FeCompConsReq>`,
      );
      if (codeMessages(result?.Errors, 'Err').some((e) => e.code === NO_DATA_CODE)) return null;
      refuseOnErrors(result);
      const found = result?.ResultGet;
      if (!found) return null;
      const approved = found.Resultado === 'A';
      return {
        cbteNro: Number(found.CbteDesde),
        result: approved ? 'A' : 'R',
        cae: approved ? String(found.CodAutorizacion ?? '') || null : null,
        caeDueDate: approved ? isoDate(String(found.FchVto ?? '')) : null,
        observations: codeMessages(found.Observaciones, 'Obs'),
        errors: [],
        impTotal: String(found.ImpTotal ?? ''),
        docTipo: Number(found.DocTipo),
        docNro: String(found.DocNro ?? ''),
        cbteFch: String(found.CbteFch ?? ''),
      };
    },

    async checkConnection() {
      const body = await soapCall(
        options.endpoints.wsfeUrl,
        `${WSFE_NAMESPACE}FEDummy`,
        soapEnvelope(`<FEDummy xmlns="${WSFE_NAMESPACE}"/>`),
        soapOptions,
      );
      const dummy = body?.FEDummyResponse?.FEDummyResult ?? {};
      const result = await call('FEParamGetPtosVenta', (auth) => auth);
      refuseOnErrors(result, [NO_DATA_CODE]);
      return {
        appServer: String(dummy.AppServer ?? ''),
        dbServer: String(dummy.DbServer ?? ''),
        authServer: String(dummy.AuthServer ?? ''),
        pointsOfSale: asArray<Xml>(result?.ResultGet?.PtoVenta).map((p) => ({
          number: Number(p.Nro),
          blocked: String(p.Bloqueado).toUpperCase() === 'S',
        })),
      };
    },
  };
}

/** One FECAEDetRequest, elements in the order of the current WSDL (asmx is order-sensitive). */
function detailXml(v: ArcaVoucher): string {
  const element = (name: string, value: string | undefined) =>
    value === undefined ? '' : `<${name}>${escapeXml(value)}</${name}>`;
  const associated = v.cbtesAsoc?.length
    ? `<CbtesAsoc>${v.cbtesAsoc
        .map(
          (a) =>
            `<CbteAsoc><Tipo>${int(a.tipo)}</Tipo><PtoVta>${int(a.ptoVta)}</PtoVta><Nro>${int(a.nro)}</Nro>` +
            `${element('Cuit', a.cuit === undefined ? undefined : digits(a.cuit))}${element('CbteFch', a.cbteFch)}</CbteAsoc>`,
        )
        .join('')}</CbtesAsoc>`
    : '';
  const vat = v.iva.length
    ? `<Iva>${v.iva
        .map(
          (a) =>
            `<AlicIva><Id>${int(a.id)}</Id><BaseImp>${amount(a.baseImp)}</BaseImp><Importe>${amount(a.importe)}</Importe></AlicIva>`,
        )
        .join('')}</Iva>`
    : '';
  return (
    `<FECAEDetRequest><Concepto>${int(v.concepto)}</Concepto><DocTipo>${int(v.docTipo)}</DocTipo>` +
    `<DocNro>${digits(v.docNro) || '0'}</DocNro><CbteDesde>${int(v.cbteNro)}</CbteDesde><CbteHasta>${int(v.cbteNro)}</CbteHasta>` +
    `<CbteFch>${date(v.cbteFch)}</CbteFch><ImpTotal>${amount(v.impTotal)}</ImpTotal><ImpTotConc>${amount(v.impTotConc)}</ImpTotConc>` +
    `<ImpNeto>${amount(v.impNeto)}</ImpNeto><ImpOpEx>${amount(v.impOpEx)}</ImpOpEx><ImpTrib>${amount(v.impTrib)}</ImpTrib>` +
    `<ImpIVA>${amount(v.impIva)}</ImpIVA>${element('FchServDesde', v.fchServDesde && date(v.fchServDesde))}` +
    `${element('FchServHasta', v.fchServHasta && date(v.fchServHasta))}${element('FchVtoPago', v.fchVtoPago && date(v.fchVtoPago))}` +
    `<MonId>${escapeXml(v.monId)}</MonId><MonCotiz>${amount(v.monCotiz)}</MonCotiz>` +
    `<CondicionIVAReceptorId>${int(v.condicionIvaReceptorId)}</CondicionIVAReceptorId>${associated}${vat}</FECAEDetRequest>`
  );
}

function int(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`${value} is not an integer`);
  return String(value);
}

function amount(value: string): string {
  if (!AMOUNT.test(value)) throw new Error(`Amount "${value}" is not a decimal`);
  return value;
}

function date(value: string): string {
  if (!/^\d{8}$/.test(value)) throw new Error(`Date "${value}" is not YYYYMMDD`);
  return value;
}

function digits(value: string): string {
  return value.replace(/\D/g, '');
}

/** YYYYMMDD → YYYY-MM-DD (null when empty). */
function isoDate(value: string): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : null;
}
