export * from './arca-codes.ts';
export * from './arca-qr.ts';
export { readSignedCms, signCms } from './cms.ts';
export { ArcaRefused, ArcaUnreachable } from './soap.ts';
export * from './wsaa.ts';
export * from './wsfe.ts';
