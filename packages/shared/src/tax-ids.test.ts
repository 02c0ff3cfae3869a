import { describe, expect, it } from 'vitest';
import { formatTaxId, isValidTaxId, normalizeTaxId, type TaxIdKind } from './tax-ids.ts';

describe('tax ids with public check digits', () => {
  const valid: [TaxIdKind, string][] = [
    ['cuit', '33-69345023-9'],
    ['cuit', '20123456786'],
    ['cuit', '30-71234567-1'],
    ['nif', '12345678Z'],
    ['nif', 'x1234567l'],
    ['nif', 'B12345674'],
    ['nif', 'P1234567D'],
    ['cpf', '529.982.247-25'],
    ['cnpj', '11.222.333/0001-81'],
    ['cnpj', '12.ABC.345/01DE-35'],
    ['siren', '443 061 841'],
    ['siret', '443 061 841 00047'],
    ['siret', '35600000049837'],
    ['other', 'EU-372009975'],
  ];
  it.each(valid)('%s %s is valid', (kind, value) => expect(isValidTaxId(kind, value)).toBe(true));

  const invalid: [TaxIdKind, string][] = [
    ['cuit', '20-12345678-7'],
    ['cuit', '99-12345678-6'],
    ['cuit', '2012345678'],
    ['nif', '12345678A'],
    ['nif', 'X1234567A'],
    ['nif', 'B12345675'],
    ['nif', 'P12345674'],
    ['cpf', '529.982.247-24'],
    ['cpf', '111.111.111-11'],
    ['cnpj', '11.222.333/0001-82'],
    ['cnpj', '00000000000000'],
    ['siren', '443061842'],
    ['siret', '44306184100048'],
    ['siret', '35600000000048'],
    ['other', 'a'],
  ];
  it.each(invalid)('%s %s is refused', (kind, value) => expect(isValidTaxId(kind, value)).toBe(false));

  it('stores one form and prints the usual one', () => {
    expect(normalizeTaxId(' 20.12345678-6 ')).toBe('20123456786');
    expect(formatTaxId('cuit', '20123456786')).toBe('20-12345678-6');
    expect(formatTaxId('cnpj', '11222333000181')).toBe('11.222.333/0001-81');
    expect(formatTaxId('cpf', '52998224725')).toBe('529.982.247-25');
    expect(formatTaxId('nif', 'b12345674')).toBe('B12345674');
    expect(formatTaxId(null, null)).toBe('');
  });
});
