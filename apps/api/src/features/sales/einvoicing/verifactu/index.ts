export { type HuellaAltaFields, type HuellaAnulacionFields, huellaAlta, huellaAnulacion } from './huella.ts';
export { verifactuMessageKeys } from './messages.ts';
export { nifIsValid } from './nif.ts';
export { verifactuQrUrl } from './qr.ts';
export {
  type AltaInput,
  type AnulacionInput,
  aeatDate,
  type BuiltRecord,
  buildAlta,
  buildAnulacion,
  type ChainLink,
  type DesgloseLine,
  type Destinatario,
  isoWithOffset,
  type SistemaInformatico,
  type VerifactuEnvironment,
} from './records.ts';
export {
  consultaEnvelope,
  MAX_RECORDS_PER_SUBMISSION,
  type Obligado,
  parseQueryAnswer,
  parseSubmissionAnswer,
  regFactuBody,
  submissionEnvelope,
  type VerifactuAnswer,
  type VerifactuClient,
  type VerifactuClientOptions,
  type VerifactuLineAnswer,
  type VerifactuQueryAnswer,
  VerifactuRefused,
  VerifactuUnreachable,
  verifactuClient,
  verifactuEndpoint,
} from './soap.ts';
