import type { FiscalCondition } from '@odontia/shared/commercial';
import type { Language } from '@odontia/shared/enums';
import type { TaxIdKind } from '@odontia/shared/tax-ids';

/**
 * How a printed document names the clinic's tax id and fiscal condition, in the document's
 * language (issue 17). The web's `fiscal` catalogs say the same (`fiscal:conditions.*`).
 */

/** The tax id's label: the countries' own acronyms, "Tax ID" for any other. */
export const taxIdKindLabels: Record<Language, Record<TaxIdKind, string>> = {
  es: { cuit: 'CUIT', nif: 'NIF', cpf: 'CPF', cnpj: 'CNPJ', siren: 'SIREN', siret: 'SIRET', other: 'Id. fiscal' },
  en: { cuit: 'CUIT', nif: 'NIF', cpf: 'CPF', cnpj: 'CNPJ', siren: 'SIREN', siret: 'SIRET', other: 'Tax ID' },
  fr: { cuit: 'CUIT', nif: 'NIF', cpf: 'CPF', cnpj: 'CNPJ', siren: 'SIREN', siret: 'SIRET', other: 'N° fiscal' },
  pt: { cuit: 'CUIT', nif: 'NIF', cpf: 'CPF', cnpj: 'CNPJ', siren: 'SIREN', siret: 'SIRET', other: 'ID fiscal' },
};

export const fiscalConditionLabels: Record<Language, Record<FiscalCondition, string>> = {
  es: {
    ar_responsable_inscripto: 'IVA Responsable Inscripto',
    ar_monotributo: 'Responsable Monotributo',
    ar_exento: 'IVA Exento',
    ar_consumidor_final: 'Consumidor Final',
    es_regimen_general: 'IVA régimen general',
    es_recargo_equivalencia: 'Recargo de equivalencia',
    es_exento: 'Exento de IVA (asistencia sanitaria)',
    br_simples_nacional: 'Simples Nacional',
    br_lucro_presumido: 'Lucro Presumido',
    br_lucro_real: 'Lucro Real',
    br_mei: 'MEI (Microemprendedor Individual)',
    fr_regime_reel: 'Régimen real de IVA',
    fr_franchise_base: 'Franquicia en base de IVA',
    fr_exonere: 'Exento de IVA',
    other: 'Otra condición',
  },
  en: {
    ar_responsable_inscripto: 'VAT registered (Responsable Inscripto)',
    ar_monotributo: 'Monotributo (simplified regime)',
    ar_exento: 'VAT exempt',
    ar_consumidor_final: 'Final consumer',
    es_regimen_general: 'VAT general regime',
    es_recargo_equivalencia: 'Equivalence surcharge',
    es_exento: 'VAT exempt (health care)',
    br_simples_nacional: 'Simples Nacional',
    br_lucro_presumido: 'Lucro Presumido (presumed profit)',
    br_lucro_real: 'Lucro Real (actual profit)',
    br_mei: 'MEI (individual micro-entrepreneur)',
    fr_regime_reel: 'VAT actual regime',
    fr_franchise_base: 'VAT basic exemption (franchise en base)',
    fr_exonere: 'VAT exempt',
    other: 'Other',
  },
  fr: {
    ar_responsable_inscripto: 'Assujetti à la TVA (Responsable Inscripto)',
    ar_monotributo: 'Monotributo (régime simplifié)',
    ar_exento: 'Exonéré de TVA',
    ar_consumidor_final: 'Consommateur final',
    es_regimen_general: 'TVA régime général',
    es_recargo_equivalencia: "Régime de l'équivalence",
    es_exento: 'Exonéré de TVA (soins de santé)',
    br_simples_nacional: 'Simples Nacional',
    br_lucro_presumido: 'Lucro Presumido (bénéfice présumé)',
    br_lucro_real: 'Lucro Real (bénéfice réel)',
    br_mei: 'MEI (micro-entrepreneur)',
    fr_regime_reel: 'Régime réel de TVA',
    fr_franchise_base: 'Franchise en base de TVA',
    fr_exonere: 'Exonéré de TVA',
    other: 'Autre',
  },
  pt: {
    ar_responsable_inscripto: 'Contribuinte do IVA (Responsable Inscripto)',
    ar_monotributo: 'Monotributo (regime simplificado)',
    ar_exento: 'Isento de IVA',
    ar_consumidor_final: 'Consumidor final',
    es_regimen_general: 'IVA regime geral',
    es_recargo_equivalencia: 'Recargo de equivalencia',
    es_exento: 'Isento de IVA (assistência de saúde)',
    br_simples_nacional: 'Simples Nacional',
    br_lucro_presumido: 'Lucro Presumido',
    br_lucro_real: 'Lucro Real',
    br_mei: 'MEI (Microempreendedor Individual)',
    fr_regime_reel: 'Regime real de IVA',
    fr_franchise_base: 'Franquia de base de IVA',
    fr_exonere: 'Isento de IVA',
    other: 'Outra',
  },
};
