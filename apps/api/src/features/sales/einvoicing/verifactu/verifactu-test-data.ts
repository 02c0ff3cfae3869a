import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AltaInput, SistemaInformatico } from './records.ts';

/** Shared by the verifactu tests: the fixture folder, xmllint against the official XSD, sample inputs. */

export const FIXTURES = path.resolve(import.meta.dirname, '../../../../../test/fixtures/verifactu');

export const HUELLA_EXAMPLES = JSON.parse(readFileSync(path.join(FIXTURES, 'huella-examples.json'), 'utf8'));

/** Runs xmllint offline on one document; returns its complaints ('' when valid). */
export function xsdErrors(xml: string, schema = 'SuministroLR.xsd'): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'verifactu-')), 'doc.xml');
  writeFileSync(file, xml);
  try {
    execFileSync('xmllint', ['--noout', '--nonet', '--schema', path.join(FIXTURES, schema), file], {
      env: { ...process.env, XML_CATALOG_FILES: path.join(FIXTURES, 'catalog.xml') },
      stdio: 'pipe',
    });
    return '';
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}

export const ISSUER = { nif: 'B12345674', nombre: 'Clínica Dental Sonrisa, S.L.' };

export const SISTEMA: SistemaInformatico = {
  nombreRazon: 'Odontia Software, S.L.',
  nif: 'A58818501',
  nombreSistemaInformatico: 'Odontia',
  idSistemaInformatico: 'OD',
  version: '1.0.0',
  numeroInstalacion: 'clinic-0001',
  tipoUsoPosibleSoloVerifactu: 'S',
  tipoUsoPosibleMultiOT: 'S',
  indicadorMultiplesOT: 'S',
};

export function altaF1(overrides: Partial<AltaInput> = {}): AltaInput {
  return {
    issuerNif: ISSUER.nif,
    issuerName: ISSUER.nombre,
    numSerie: 'F2025/0001',
    fecha: '2025-03-10',
    tipoFactura: 'F1',
    descripcion: 'Tratamiento de ortodoncia & revisión',
    destinatario: { nif: '12345678Z', nombre: 'Ana Pérez García' },
    desglose: [
      {
        impuesto: '01',
        claveRegimen: '01',
        calificacion: 'S1',
        tipoImpositivo: '21.00',
        baseImponible: '100.00',
        cuota: '21.00',
      },
    ],
    cuotaTotal: '21.00',
    importeTotal: '121.00',
    previous: null,
    generatedAt: new Date('2025-03-10T09:15:00Z'),
    timeZone: 'Europe/Madrid',
    sistema: SISTEMA,
    ...overrides,
  };
}
