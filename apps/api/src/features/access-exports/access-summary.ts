import type { Currency } from '@odontia/shared/currencies';
import { calendarDateFormatter, instantFormatter } from '@odontia/shared/date-format';
import type { AppointmentStatus, DiagnosisStatus, PaymentMethod } from '@odontia/shared/enums';
import type { Language } from '@odontia/shared/languages';
import type { PerioIndices } from '@odontia/shared/perio';
import Big from 'big.js';
import { type CsvCell, csvCurrency, csvFile, csvNumber } from '../../lib/csv.ts';
import { moneyFormatter } from '../../lib/money-format.ts';
import { paymentMethodNames } from '../../lib/payment-method-names.ts';
import { clinicHeader, documentStyles, type PdfDocument, type PrintingClinic, pdfField } from '../../lib/pdf.ts';
import type { PatientRecord } from '../fhir/fhir.repository.ts';
import { treatmentStatuses } from '../fhir/fhir-bundle.ts';
import { odontogramTexts } from '../odontogram/odontogram.labels.ts';

/**
 * The right of access's readable parts (issue 42): the PDF summary of the whole record and the
 * CSV of the money, in the clinic's language, dates on its clock and money in its currency.
 */

const labels = {
  es: {
    title: 'Resumen de la historia clínica',
    generated: 'Generado el',
    identity: 'Datos personales',
    name: 'Nombre',
    idNumber: 'Documento',
    birthdate: 'Fecha de nacimiento',
    record: 'Nº de historia',
    contact: 'Contacto',
    address: 'Dirección',
    history: 'Antecedentes médicos',
    allergies: 'Alergias',
    chronic: 'Enfermedades crónicas',
    medication: 'Medicación actual',
    diagnoses: 'Diagnósticos',
    findings: 'Odontograma: hallazgos',
    perio: 'Periodontograma: índices',
    treatments: 'Tratamientos realizados',
    prescriptions: 'Recetas',
    authorizations: 'Consentimientos',
    appointments: 'Turnos',
    invoices: 'Facturas',
    collections: 'Cobros',
    balance: 'Saldo',
    none: 'Sin registros.',
    tooth: 'pieza',
    signed: 'firmado',
    unsigned: 'sin firmar',
    plaque: 'Placa',
    bleeding: 'Sangrado',
    depth: 'Prof. media',
    attachment: 'NIC medio',
    kind: 'Tipo',
    number: 'Número',
    date: 'Fecha',
    amount: 'Importe',
    currency: 'Moneda',
    method: 'Medio',
    status: 'Estado',
    invoice: 'Factura',
    credit_note: 'Nota de crédito',
    debit_note: 'Nota de débito',
    collection: 'Cobro',
    reversed: 'anulado',
  },
  en: {
    title: 'Summary of the clinical record',
    generated: 'Generated on',
    identity: 'Personal details',
    name: 'Name',
    idNumber: 'ID number',
    birthdate: 'Date of birth',
    record: 'Record number',
    contact: 'Contact',
    address: 'Address',
    history: 'Medical history',
    allergies: 'Allergies',
    chronic: 'Chronic conditions',
    medication: 'Current medication',
    diagnoses: 'Diagnoses',
    findings: 'Odontogram: findings',
    perio: 'Periodontal chart: indices',
    treatments: 'Treatments done',
    prescriptions: 'Prescriptions',
    authorizations: 'Consents',
    appointments: 'Appointments',
    invoices: 'Invoices',
    collections: 'Payments received',
    balance: 'Balance',
    none: 'No records.',
    tooth: 'tooth',
    signed: 'signed',
    unsigned: 'not signed',
    plaque: 'Plaque',
    bleeding: 'Bleeding',
    depth: 'Mean depth',
    attachment: 'Mean CAL',
    kind: 'Kind',
    number: 'Number',
    date: 'Date',
    amount: 'Amount',
    currency: 'Currency',
    method: 'Method',
    status: 'Status',
    invoice: 'Invoice',
    credit_note: 'Credit note',
    debit_note: 'Debit note',
    collection: 'Payment',
    reversed: 'reversed',
  },
  fr: {
    title: 'Résumé du dossier médical',
    generated: 'Généré le',
    identity: 'Données personnelles',
    name: 'Nom',
    idNumber: "Pièce d'identité",
    birthdate: 'Date de naissance',
    record: 'N° de dossier',
    contact: 'Contact',
    address: 'Adresse',
    history: 'Antécédents médicaux',
    allergies: 'Allergies',
    chronic: 'Maladies chroniques',
    medication: 'Traitement en cours',
    diagnoses: 'Diagnostics',
    findings: 'Odontogramme : constatations',
    perio: 'Charting parodontal : indices',
    treatments: 'Soins réalisés',
    prescriptions: 'Ordonnances',
    authorizations: 'Consentements',
    appointments: 'Rendez-vous',
    invoices: 'Factures',
    collections: 'Encaissements',
    balance: 'Solde',
    none: 'Aucun enregistrement.',
    tooth: 'dent',
    signed: 'signé',
    unsigned: 'non signé',
    plaque: 'Plaque',
    bleeding: 'Saignement',
    depth: 'Prof. moyenne',
    attachment: 'Perte d’attache moyenne',
    kind: 'Type',
    number: 'Numéro',
    date: 'Date',
    amount: 'Montant',
    currency: 'Devise',
    method: 'Moyen',
    status: 'Statut',
    invoice: 'Facture',
    credit_note: 'Avoir',
    debit_note: 'Note de débit',
    collection: 'Encaissement',
    reversed: 'annulé',
  },
  pt: {
    title: 'Resumo do prontuário',
    generated: 'Gerado em',
    identity: 'Dados pessoais',
    name: 'Nome',
    idNumber: 'Documento',
    birthdate: 'Data de nascimento',
    record: 'Nº do prontuário',
    contact: 'Contato',
    address: 'Endereço',
    history: 'Antecedentes médicos',
    allergies: 'Alergias',
    chronic: 'Doenças crônicas',
    medication: 'Medicação atual',
    diagnoses: 'Diagnósticos',
    findings: 'Odontograma: achados',
    perio: 'Periodontograma: índices',
    treatments: 'Tratamentos realizados',
    prescriptions: 'Receitas',
    authorizations: 'Consentimentos',
    appointments: 'Consultas',
    invoices: 'Faturas',
    collections: 'Recebimentos',
    balance: 'Saldo',
    none: 'Sem registros.',
    tooth: 'dente',
    signed: 'assinado',
    unsigned: 'não assinado',
    plaque: 'Placa',
    bleeding: 'Sangramento',
    depth: 'Prof. média',
    attachment: 'NIC médio',
    kind: 'Tipo',
    number: 'Número',
    date: 'Data',
    amount: 'Valor',
    currency: 'Moeda',
    method: 'Meio',
    status: 'Estado',
    invoice: 'Fatura',
    credit_note: 'Nota de crédito',
    debit_note: 'Nota de débito',
    collection: 'Recebimento',
    reversed: 'estornado',
  },
} satisfies Record<Language, Record<string, string>>;

/** The states a summary names, in the reader's language (the odontogram's and the payment methods' from their own catalogs). */
const stateNames: Record<
  Language,
  { appointment: Record<AppointmentStatus, string>; diagnosis: Record<DiagnosisStatus, string> }
> = {
  es: {
    appointment: {
      scheduled: 'programado',
      completed: 'atendido',
      cancelled: 'cancelado',
      rescheduled: 'reprogramado',
    },
    diagnosis: { active: 'activo', resolved: 'resuelto' },
  },
  en: {
    appointment: {
      scheduled: 'scheduled',
      completed: 'attended',
      cancelled: 'cancelled',
      rescheduled: 'rescheduled',
    },
    diagnosis: { active: 'active', resolved: 'resolved' },
  },
  fr: {
    appointment: {
      scheduled: 'programmé',
      completed: 'honoré',
      cancelled: 'annulé',
      rescheduled: 'reprogrammé',
    },
    diagnosis: { active: 'actif', resolved: 'résolu' },
  },
  pt: {
    appointment: {
      scheduled: 'agendada',
      completed: 'realizada',
      cancelled: 'cancelada',
      rescheduled: 'reagendada',
    },
    diagnosis: { active: 'ativo', resolved: 'resolvido' },
  },
};

/** A code's name in `names`, the code itself only for one the catalog does not know yet. */
const nameOf = (names: Record<string, string>, code: string) => names[code] ?? code;

export interface SummaryContext {
  language: Language;
  timeZone: string;
  currency: Currency;
  clinic: PrintingClinic;
  now: Date;
}

/** A credit note takes money back: negative in the balance and the CSV. */
const signedTotal = (doc: PatientRecord['invoices'][number]) =>
  doc.documentType === 'credit_note' ? new Big(doc.total).times(-1) : new Big(doc.total);

/** What the patient owes (+) or has on account (−): invoiced minus collected, reversed collections left out. */
export function balanceOf(record: PatientRecord): string {
  const invoiced = record.invoices.reduce((sum, doc) => sum.plus(signedTotal(doc)), new Big(0));
  const collected = record.collections
    .filter((row) => !row.reversedAt)
    .reduce((sum, row) => sum.plus(row.amount), new Big(0));
  return invoiced.minus(collected).toFixed(2);
}

export function summaryDocument(record: PatientRecord, context: SummaryContext): PdfDocument {
  const t = labels[context.language];
  const day = calendarDateFormatter(context.language);
  const moment = instantFormatter(context.language, context.timeZone, 'dateTime');
  const money = moneyFormatter(context.language, context.currency);
  const p = record.patient;
  const section = (title: string, items: string[]) => [
    { text: title, style: 'section' },
    items.length > 0 ? { ul: items } : { text: t.none, italics: true },
  ];
  const states = stateNames[context.language];
  const chart = odontogramTexts[context.language];
  const toothState = (status: string) => nameOf(chart.statusNames, status);
  const toothText = (tooth: number | string | null, zone?: string | null) =>
    tooth ? ` (${t.tooth} ${tooth}${zone ? ` ${nameOf(chart.zoneNames, zone).toLowerCase()}` : ''})` : '';
  const findings = record.odontogram.filter((row) => !treatmentStatuses.has(row.status));
  const treatments = [
    ...record.odontogram
      .filter((row) => treatmentStatuses.has(row.status))
      .map((row) => ({ at: row.chartedAt, text: `${toothState(row.status)}${toothText(row.tooth, row.zone)}` })),
    ...record.attendanceLines.map((row) => ({ at: row.date, text: `${row.description}${toothText(row.tooth)}` })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  const linesOf = (prescriptionId: string) =>
    record.prescriptionLines
      .filter((line) => line.prescriptionId === prescriptionId)
      .map((line) => [line.medicine, line.dose, line.frequency, line.duration].filter(Boolean).join(' — '));
  return {
    info: { title: `${t.title} — ${p.firstName} ${p.lastName}` },
    content: [
      clinicHeader({ ...context.clinic, language: context.language }),
      { text: t.title, style: 'title' },
      { text: `${t.generated} ${moment(context.now)}`, alignment: 'center', fontSize: 9 },
      { text: t.identity, style: 'section' },
      pdfField(t.name, `${p.firstName} ${p.lastName}`),
      pdfField(t.idNumber, p.ssn ?? '—'),
      pdfField(t.birthdate, day(p.birthdate)),
      pdfField(t.record, [p.skuPatient, p.medicalHistory].filter(Boolean).join(' / ')),
      pdfField(
        t.contact,
        [p.email, [p.phoneArea, p.phone].filter(Boolean).join(' ')].filter(Boolean).join(' · ') || '—',
      ),
      pdfField(
        t.address,
        [p.street, p.complement, p.zipCode, p.city, p.state, p.country].filter(Boolean).join(', ') || '—',
      ),
      { text: t.history, style: 'section' },
      pdfField(t.allergies, p.allergies ?? '—'),
      pdfField(t.chronic, p.chronicConditions ?? '—'),
      pdfField(t.medication, p.currentMedication ?? '—'),
      ...section(
        t.diagnoses,
        record.diagnoses.map(
          (row) =>
            `${day(row.date)} — ${row.icd10Code ? `${row.icd10Code} ` : ''}${row.text}${row.teeth.length ? ` (${t.tooth} ${row.teeth.join(', ')})` : ''} · ${nameOf(states.diagnosis, row.status)}`,
        ),
      ),
      ...section(
        t.findings,
        findings.map((row) => `${moment(row.chartedAt)} — ${toothState(row.status)}${toothText(row.tooth, row.zone)}`),
      ),
      ...section(
        t.perio,
        record.perioExams.map((row) => {
          const indices = row.indices as PerioIndices;
          return `${day(row.date)} — ${t.plaque} ${indices.plaquePercent} % · ${t.bleeding} ${indices.bleedingPercent} % · ${t.depth} ${indices.meanDepth ?? '—'} mm · ${t.attachment} ${indices.meanAttachment ?? '—'} mm`;
        }),
      ),
      ...section(
        t.treatments,
        treatments.map((row) => `${moment(row.at)} — ${row.text}`),
      ),
      ...section(
        t.prescriptions,
        record.prescriptions.map(
          (row) =>
            `${day(row.date)} — ${row.professionalName}: ${linesOf(row.id).join('; ')} (${row.verificationCode})`,
        ),
      ),
      ...section(
        t.authorizations,
        record.authorizations.map(
          (row) =>
            `${day(row.date)} — ${row.title}: ${row.signedAt ? `${t.signed} ${moment(row.signedAt)}` : t.unsigned}`,
        ),
      ),
      ...section(
        t.appointments,
        record.appointments.map(
          (row) =>
            `${moment(row.startsAt)} — ${row.reason ? `${row.reason} · ` : ''}${nameOf(states.appointment, row.status)}`,
        ),
      ),
      ...section(
        t.invoices,
        record.invoices.map(
          (row) =>
            `${day(row.date)} — ${t[row.documentType as 'invoice']} ${[row.pointOfService, row.documentNumber].filter(Boolean).join('-')}: ${money(signedTotal(row).toFixed(2))}`,
        ),
      ),
      ...section(
        t.collections,
        record.collections.map(
          (row) => `${day(row.date)} — ${row.number}: ${money(row.amount)}${row.reversedAt ? ` (${t.reversed})` : ''}`,
        ),
      ),
      { text: t.balance, style: 'section' },
      { text: money(balanceOf(record)), bold: true },
    ],
    styles: documentStyles(),
  };
}

/** The money as one CSV: each invoice, credit and debit note and collection, then the balance. */
export function moneyCsv(record: PatientRecord, context: Pick<SummaryContext, 'language' | 'currency'>): string {
  const t = labels[context.language];
  const number = (value: string) => csvNumber(context.language, value);
  const rows: CsvCell[][] = [
    ...record.invoices.map((doc) => [
      t[doc.documentType as 'invoice'],
      [doc.pointOfService, doc.documentNumber].filter(Boolean).join('-'),
      doc.date,
      number(signedTotal(doc).toFixed(2)),
      csvCurrency(doc.currency),
      '',
      '',
    ]),
    ...record.collections.map((row) => [
      t.collection,
      row.number,
      row.date,
      number(new Big(row.amount).times(-1).toFixed(2)),
      csvCurrency(row.currency),
      nameOf(paymentMethodNames[context.language], row.method as PaymentMethod),
      row.reversedAt ? t.reversed : '',
    ]),
    [t.balance, '', '', number(balanceOf(record)), csvCurrency(context.currency), '', ''],
  ];
  return csvFile([t.kind, t.number, t.date, t.amount, t.currency, t.method, t.status], rows);
}
