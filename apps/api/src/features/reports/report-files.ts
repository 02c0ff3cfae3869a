import { PassThrough, type Writable } from 'node:stream';
import { calendarDateFormatter } from '@odontia/shared/date-format';
import type { Currency, DocumentType, Language, PaymentMethod } from '@odontia/shared/enums';
import type { ReportColumn, ReportFormat, ReportId, ReportRow } from '@odontia/shared/schemas/reports';
import ExcelJS from 'exceljs';
import { csvNumber } from '../../lib/csv.ts';
import { moneyFormatter } from '../../lib/money-format.ts';
import { clinicHeader, documentStyles, headerRow, type PrintingClinic, renderPdf } from '../../lib/pdf.ts';
import { documentTypeNames, paymentMethodNames } from '../commercial/commercial-texts.ts';

/**
 * A report as a file (issue 19): CSV (UTF-8 with BOM, ';', CRLF: a Spanish Excel opens it; numbers
 * with a dot, as the API answers them), XLSX (exceljs' streaming WorkbookWriter: rows are
 * committed as they come, memory stays bounded) and PDF (pdfmake, in the clinic's language). The
 * same writer serves a direct answer and an export job: a header, rows in chunks, the totals.
 */

export const reportTitles: Record<Language, Record<ReportId, string>> = {
  es: {
    'payer-presentations': 'Presentaciones a obras sociales',
    'payer-rejections': 'Débitos de obras sociales',
    'payment-plan-instalments': 'Cuotas de planes de pago por vencimiento',
    'professional-settlements': 'Liquidaciones a profesionales',
    'production-by-professional': 'Producción por profesional',
    'receivables-aging': 'Saldos de clientes por antigüedad',
    payables: 'Deudas con proveedores por antigüedad',
    'stock-valuation': 'Valorización del stock',
    'stock-movements': 'Movimientos de stock',
    'daily-cash': 'Caja diaria: cobros por día y forma de pago',
    'production-by-treatment': 'Producción por tratamiento',
    'sales-vat-book': 'Libro IVA ventas',
    'purchases-vat-book': 'Libro IVA compras',
    'appointments-by-professional': 'Citas por profesional',
    'new-patients': 'Pacientes nuevos',
    'active-patients': 'Pacientes activos (con atenciones en el período)',
    'cash-closings': 'Cierres de caja por día y caja',
    'cash-differences': 'Diferencias de caja',
  },
  en: {
    'payer-presentations': 'Presentations to payers',
    'payer-rejections': 'Payer rejections',
    'payment-plan-instalments': 'Payment-plan instalments by due date',
    'professional-settlements': 'Professional settlements',
    'production-by-professional': 'Production by professional',
    'receivables-aging': 'Receivables aging',
    payables: 'Payables aging',
    'stock-valuation': 'Stock valuation',
    'stock-movements': 'Stock movements',
    'daily-cash': 'Daily cash: collections by day and method',
    'production-by-treatment': 'Production by treatment',
    'sales-vat-book': 'Sales VAT book',
    'purchases-vat-book': 'Purchases VAT book',
    'appointments-by-professional': 'Appointments by professional',
    'new-patients': 'New patients',
    'active-patients': 'Active patients (attended in the period)',
    'cash-closings': 'Register closings by day and register',
    'cash-differences': 'Register differences',
  },
  fr: {
    'payer-presentations': 'Bordereaux aux organismes payeurs',
    'payer-rejections': 'Rejets des organismes payeurs',
    'payment-plan-instalments': 'Échéances des échéanciers par date',
    'professional-settlements': 'Relevés de rémunération',
    'production-by-professional': 'Production par praticien',
    'receivables-aging': 'Balance âgée clients',
    payables: 'Balance âgée fournisseurs',
    'stock-valuation': 'Valorisation du stock',
    'stock-movements': 'Mouvements de stock',
    'daily-cash': 'Caisse journalière : encaissements par jour et mode de paiement',
    'production-by-treatment': 'Production par traitement',
    'sales-vat-book': 'Registre de TVA des ventes',
    'purchases-vat-book': 'Registre de TVA des achats',
    'appointments-by-professional': 'Rendez-vous par praticien',
    'new-patients': 'Nouveaux patients',
    'active-patients': 'Patients actifs (consultations sur la période)',
    'cash-closings': 'Clôtures de caisse par jour et caisse',
    'cash-differences': 'Écarts de caisse',
  },
  pt: {
    'payer-presentations': 'Apresentações aos convênios',
    'payer-rejections': 'Glosas dos convênios',
    'payment-plan-instalments': 'Parcelas de planos de pagamento por vencimento',
    'professional-settlements': 'Repasses a profissionais',
    'production-by-professional': 'Produção por profissional',
    'receivables-aging': 'Antiguidade de saldos de clientes',
    payables: 'Antiguidade de dívidas a fornecedores',
    'stock-valuation': 'Valorização do stock',
    'stock-movements': 'Movimentos de stock',
    'daily-cash': 'Caixa diário: recebimentos por dia e forma de pagamento',
    'production-by-treatment': 'Produção por tratamento',
    'sales-vat-book': 'Livro de IVA de vendas',
    'purchases-vat-book': 'Livro de IVA de compras',
    'appointments-by-professional': 'Consultas por profissional',
    'new-patients': 'Pacientes novos',
    'active-patients': 'Pacientes ativos (atendidos no período)',
    'cash-closings': 'Fechos de caixa por dia e caixa',
    'cash-differences': 'Diferenças de caixa',
  },
};

const columnNames: Record<Language, Record<string, string>> = {
  es: {
    presentationStatus: 'Estado',
    rejected: 'Débitos',
    member: 'N.º de afiliado',
    destination: 'Imputado a',
    dueOn: 'Vencimiento',
    customer: 'Cliente',
    instalment: 'Cuota',
    paid: 'Pagado',
    owed: 'Adeudado',
    instalmentState: 'Estado',
    periodFrom: 'Desde',
    periodTo: 'Hasta',
    pending: 'Pendiente',
    attendances: 'Atenciones facturadas',
    name: 'Nombre',
    balance: 'Saldo',
    current: 'A vencer',
    days0to30: '1–30 días',
    days31to60: '31–60 días',
    days61to90: '61–90 días',
    daysOver90: 'Más de 90 días',
    onAccount: 'A cuenta',
    kind: 'Clase',
    sku: 'SKU',
    item: 'Artículo',
    stock: 'Stock',
    unitCost: 'Costo unitario',
    value: 'Valor',
    movement: 'Movimiento',
    quantity: 'Cantidad',
    stockAfter: 'Stock resultante',
    reason: 'Motivo',
    day: 'Día',
    method: 'Forma de pago',
    count: 'Cantidad',
    amount: 'Importe',
    code: 'Código',
    treatment: 'Tratamiento',
    net: 'Neto',
    date: 'Fecha',
    documentType: 'Tipo',
    number: 'Número',
    party: 'Razón social',
    taxId: 'CUIT/NIF',
    vatRate: 'Alícuota %',
    vat: 'IVA',
    total: 'Total',
    professional: 'Profesional',
    scheduled: 'Programados',
    completed: 'Atendidos',
    cancelled: 'Cancelados',
    lateCancelled: 'Cancelados tarde',
    noShow: 'Ausentes',
    patientCode: 'N.º de paciente',
    patient: 'Paciente',
    attendanceCount: 'Atenciones',
    lastAttendance: 'Última atención',
    register: 'Caja',
    expected: 'Esperado',
    counted: 'Contado',
    difference: 'Diferencia',
    explanation: 'Explicación',
  },
  en: {
    presentationStatus: 'Status',
    rejected: 'Rejected',
    member: 'Member number',
    destination: 'Charged to',
    dueOn: 'Due date',
    customer: 'Customer',
    instalment: 'Instalment',
    paid: 'Paid',
    owed: 'Owed',
    instalmentState: 'State',
    periodFrom: 'From',
    periodTo: 'To',
    pending: 'Outstanding',
    attendances: 'Attendances billed',
    name: 'Name',
    balance: 'Balance',
    current: 'Not yet due',
    days0to30: '1–30 days',
    days31to60: '31–60 days',
    days61to90: '61–90 days',
    daysOver90: 'Over 90 days',
    onAccount: 'On account',
    kind: 'Kind',
    sku: 'SKU',
    item: 'Item',
    stock: 'Stock',
    unitCost: 'Unit cost',
    value: 'Value',
    movement: 'Movement',
    quantity: 'Quantity',
    stockAfter: 'Stock after',
    reason: 'Reason',
    day: 'Day',
    method: 'Payment method',
    count: 'Count',
    amount: 'Amount',
    code: 'Code',
    treatment: 'Treatment',
    net: 'Net',
    date: 'Date',
    documentType: 'Type',
    number: 'Number',
    party: 'Name',
    taxId: 'Tax ID',
    vatRate: 'VAT rate %',
    vat: 'VAT',
    total: 'Total',
    professional: 'Professional',
    scheduled: 'Scheduled',
    completed: 'Kept',
    cancelled: 'Cancelled',
    lateCancelled: 'Cancelled late',
    noShow: 'No-show',
    patientCode: 'Patient no.',
    patient: 'Patient',
    attendanceCount: 'Attendances',
    lastAttendance: 'Last attendance',
    register: 'Register',
    expected: 'Expected',
    counted: 'Counted',
    difference: 'Difference',
    explanation: 'Explanation',
  },
  fr: {
    presentationStatus: 'Statut',
    rejected: 'Rejets',
    member: 'N° d’adhérent',
    destination: 'Imputé à',
    dueOn: "Date d'échéance",
    customer: 'Client',
    instalment: 'Échéance',
    paid: 'Payé',
    owed: 'Dû',
    instalmentState: 'État',
    periodFrom: 'Du',
    periodTo: 'Au',
    pending: 'Reste dû',
    attendances: 'Consultations facturées',
    name: 'Nom',
    balance: 'Solde',
    current: 'Non échu',
    days0to30: '1–30 jours',
    days31to60: '31–60 jours',
    days61to90: '61–90 jours',
    daysOver90: 'Plus de 90 jours',
    onAccount: 'Acompte',
    kind: 'Catégorie',
    sku: 'Réf.',
    item: 'Article',
    stock: 'Stock',
    unitCost: 'Coût unitaire',
    value: 'Valeur',
    movement: 'Mouvement',
    quantity: 'Quantité',
    stockAfter: 'Stock après',
    reason: 'Motif',
    day: 'Jour',
    method: 'Mode de paiement',
    count: 'Nombre',
    amount: 'Montant',
    code: 'Code',
    treatment: 'Traitement',
    net: 'HT',
    date: 'Date',
    documentType: 'Type',
    number: 'Numéro',
    party: 'Raison sociale',
    taxId: 'N° fiscal',
    vatRate: 'Taux TVA %',
    vat: 'TVA',
    total: 'Total',
    professional: 'Praticien',
    scheduled: 'Prévus',
    completed: 'Honorés',
    cancelled: 'Annulés',
    lateCancelled: 'Annulés tard',
    noShow: 'Absents',
    patientCode: 'N° de patient',
    patient: 'Patient',
    attendanceCount: 'Consultations',
    lastAttendance: 'Dernière consultation',
    register: 'Caisse',
    expected: 'Attendu',
    counted: 'Compté',
    difference: 'Écart',
    explanation: 'Explication',
  },
  pt: {
    presentationStatus: 'Estado',
    rejected: 'Glosas',
    member: 'N.º da carteirinha',
    destination: 'Lançado a',
    dueOn: 'Vencimento',
    customer: 'Cliente',
    instalment: 'Parcela',
    paid: 'Pago',
    owed: 'Em dívida',
    instalmentState: 'Estado',
    periodFrom: 'De',
    periodTo: 'Até',
    pending: 'Pendente',
    attendances: 'Atendimentos faturados',
    name: 'Nome',
    balance: 'Saldo',
    current: 'Por vencer',
    days0to30: '1–30 dias',
    days31to60: '31–60 dias',
    days61to90: '61–90 dias',
    daysOver90: 'Mais de 90 dias',
    onAccount: 'Por conta',
    kind: 'Tipo',
    sku: 'SKU',
    item: 'Artigo',
    stock: 'Stock',
    unitCost: 'Custo unitário',
    value: 'Valor',
    movement: 'Movimento',
    quantity: 'Quantidade',
    stockAfter: 'Stock resultante',
    reason: 'Motivo',
    day: 'Dia',
    method: 'Forma de pagamento',
    count: 'Quantidade',
    amount: 'Montante',
    code: 'Código',
    treatment: 'Tratamento',
    net: 'Líquido',
    date: 'Data',
    documentType: 'Tipo',
    number: 'Número',
    party: 'Nome',
    taxId: 'NIF',
    vatRate: 'Taxa IVA %',
    vat: 'IVA',
    total: 'Total',
    professional: 'Profissional',
    scheduled: 'Agendadas',
    completed: 'Realizadas',
    cancelled: 'Canceladas',
    lateCancelled: 'Canceladas tarde',
    noShow: 'Faltas',
    patientCode: 'N.º de paciente',
    patient: 'Paciente',
    attendanceCount: 'Atendimentos',
    lastAttendance: 'Último atendimento',
    register: 'Caixa',
    expected: 'Esperado',
    counted: 'Contado',
    difference: 'Diferença',
    explanation: 'Explicação',
  },
};

const periodWords: Record<Language, { period: string; totals: string }> = {
  es: { period: 'Período', totals: 'Totales' },
  en: { period: 'Period', totals: 'Totals' },
  fr: { period: 'Période', totals: 'Totaux' },
  pt: { period: 'Período', totals: 'Totais' },
};

const itemKindNames: Record<Language, Record<string, string>> = {
  es: { medication: 'Medicamento', supply: 'Insumo' },
  en: { medication: 'Medication', supply: 'Supply' },
  fr: { medication: 'Médicament', supply: 'Fourniture' },
  pt: { medication: 'Medicamento', supply: 'Material' },
};

const payerStatusNames: Record<Language, Record<string, string>> = {
  es: {
    building: 'Armando',
    draft: 'Borrador',
    sent: 'Enviada',
    accepted: 'Aceptada',
    partially_accepted: 'Aceptada con débitos',
    paid: 'Cobrada',
  },
  en: {
    building: 'Building',
    draft: 'Draft',
    sent: 'Sent',
    accepted: 'Accepted',
    partially_accepted: 'Accepted with rejections',
    paid: 'Paid',
  },
  fr: {
    building: 'En préparation',
    draft: 'Brouillon',
    sent: 'Envoyé',
    accepted: 'Accepté',
    partially_accepted: 'Accepté avec rejets',
    paid: 'Payé',
  },
  pt: {
    building: 'Montando',
    draft: 'Rascunho',
    sent: 'Enviada',
    accepted: 'Aceita',
    partially_accepted: 'Aceita com glosas',
    paid: 'Paga',
  },
};
const destinationNames: Record<Language, Record<string, string>> = {
  es: { patient: 'Al paciente', loss: 'A pérdida' },
  en: { patient: 'To the patient', loss: 'To a loss' },
  fr: { patient: 'Au patient', loss: 'En perte' },
  pt: { patient: 'Ao paciente', loss: 'Como perda' },
};
/** An instalment's state in a payment-plans report (issue 40). */
const instalmentStateNames: Record<Language, Record<string, string>> = {
  es: { overdue: 'Vencida', partly_paid: 'Pago parcial', pending: 'Pendiente' },
  en: { overdue: 'Overdue', partly_paid: 'Partly paid', pending: 'Pending' },
  fr: { overdue: 'En retard', partly_paid: 'Payée en partie', pending: 'À venir' },
  pt: { overdue: 'Vencida', partly_paid: 'Paga em parte', pending: 'Pendente' },
};

export const columnName = (language: Language, key: string) => columnNames[language][key] ?? key;

/** A cell as the file shows it: enumerations named in the language, the rest as answered. */
export function cellText(language: Language, key: string, value: ReportRow[string]): string | number | null {
  if (value === null) return null;
  if (key === 'method') return paymentMethodNames[language][value as PaymentMethod] ?? String(value);
  if (key === 'instalmentState') return instalmentStateNames[language][String(value)] ?? String(value);
  if (key === 'documentType') return documentTypeNames[language][value as DocumentType] ?? String(value);
  if (key === 'kind') return itemKindNames[language][String(value)] ?? String(value);
  // Issue 40: third-party payers.
  if (key === 'presentationStatus') return payerStatusNames[language][String(value)] ?? String(value);
  if (key === 'destination') return destinationNames[language][String(value)] ?? String(value);
  return value;
}

export interface ReportFileHead extends PrintingClinic {
  reportId: ReportId;
  language: Language;
  columns: ReportColumn[];
  from: string;
  to: string;
  /** The clinic's currency: a PDF prints the money columns in it, as the screen shows them. */
  currency?: Currency;
}

/** How a day cell reads in the file's language (the cell holds a date; this is its display). */
const xlsxDayFormats: Record<Language, string> = {
  es: 'dd/mm/yyyy',
  en: 'yyyy-mm-dd',
  fr: 'dd/mm/yyyy',
  pt: 'dd/mm/yyyy',
};

/** Writes a report file: `rows` as often as needed, then `finish` with the totals. */
export interface ReportFileWriter {
  rows(rows: ReportRow[]): Promise<void>;
  finish(totals: ReportRow): Promise<void>;
}

export const contentTypes: Record<ReportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

export const fileNameOf = (reportId: ReportId, from: string, to: string, format: ReportFormat) =>
  `${reportId}-${from}-${to}.${format}`;

const csvField = (value: string | number | null) => {
  if (value === null) return '';
  const text = String(value);
  return /[;"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** Writes to a stream, waiting when it asks to (the file is never held whole in memory). */
const write = (out: Writable, chunk: string) =>
  new Promise<void>((resolve, reject) => {
    if (out.write(chunk)) resolve();
    else {
      out.once('drain', resolve);
      out.once('error', reject);
    }
  });

/**
 * A writer of the format into `out`. CSV and XLSX stream; a PDF keeps its rows until `finish`
 * (pdfmake lays out the whole document: the callers cap its rows at `reportPdfMaxRows`).
 */
export function reportFileWriter(format: ReportFormat, head: ReportFileHead, out: Writable): ReportFileWriter {
  const { language, columns } = head;
  const values = (row: ReportRow) => columns.map((column) => cellText(language, column.key, row[column.key] ?? null));
  const totalsLine = (totals: ReportRow) =>
    columns.map((column, index) =>
      column.summed ? (totals[column.key] ?? null) : index === 0 ? periodWords[language].totals : null,
    );

  if (format === 'csv') {
    // Numbers in the reader's form, as every CSV of the product (lib/csv.ts).
    const csvLine = (line: (string | number | null)[]) =>
      line
        .map((value, index) =>
          csvField(
            columns[index]?.kind === 'money' || columns[index]?.kind === 'rate' ? csvNumber(language, value) : value,
          ),
        )
        .join(';');
    let started = false;
    const start = async () => {
      if (started) return;
      started = true;
      await write(out, `\uFEFF${columns.map((column) => csvField(columnName(language, column.key))).join(';')}\r\n`);
    };
    return {
      async rows(rows) {
        await start();
        if (rows.length > 0) await write(out, rows.map((row) => `${csvLine(values(row))}\r\n`).join(''));
      },
      async finish(totals) {
        await start();
        await write(out, `${csvLine(totalsLine(totals))}\r\n`);
        out.end();
      },
    };
  }

  if (format === 'xlsx') {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet(
      reportTitles[language][head.reportId].slice(0, 31).replace(/[:\\/?*[\]]/g, ' '),
    );
    sheet.columns = columns.map((column) => ({
      header: columnName(language, column.key),
      key: column.key,
      width: column.kind === 'text' ? 30 : 14,
      ...(column.kind === 'money' ? { style: { numFmt: '#,##0.00' } } : {}),
      ...(column.kind === 'date' ? { style: { numFmt: xlsxDayFormats[language] } } : {}),
    }));
    sheet.getRow(1).font = { bold: true };
    // Amounts as numbers, so a spreadsheet sums them (two decimals, exact at this size); days as
    // dates, so it sorts and filters them (a calendar day: midnight UTC, which Excel shows as is).
    const cells = (line: (string | number | null)[]) =>
      line.map((value, index) => {
        if (value === null) return value;
        const kind = columns[index]?.kind;
        if (kind === 'money' || kind === 'rate') return Number(value);
        if (kind === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(String(value))) return new Date(`${value}T00:00:00Z`);
        return value;
      });
    return {
      async rows(rows) {
        for (const row of rows) sheet.addRow(cells(values(row))).commit();
        // The zip behind the sheet writes into `out`: wait when it is behind, so a big export's
        // rows never pile up in memory ahead of the file.
        if (out.writableNeedDrain) await new Promise((resolve) => out.once('drain', resolve));
      },
      async finish(totals) {
        const line = sheet.addRow(cells(totalsLine(totals)));
        line.font = { bold: true };
        line.commit();
        sheet.commit();
        await workbook.commit();
      },
    };
  }

  const kept: (string | number | null)[][] = [];
  return {
    async rows(rows) {
      for (const row of rows) kept.push(values(row));
    },
    async finish(totals) {
      const rightFrom = columns.findIndex((column) => column.kind !== 'text' && column.kind !== 'date');
      const align = (index: number) => (rightFrom >= 0 && index >= rightFrom ? 'right' : 'left');
      // A PDF is read, not recomputed: amounts in the clinic's currency as the screen shows them.
      const money = head.currency ? moneyFormatter(language, head.currency) : null;
      // Days as the reader's language writes them ("1 nov 2026"), as on the statements.
      const day = calendarDateFormatter(language);
      const printed = (value: string | number | null, index: number) => {
        if (value === null) return '';
        if (money && columns[index]?.kind === 'money') return money(String(value));
        if (columns[index]?.kind === 'date') return day(String(value));
        return value;
      };
      const body = [
        headerRow(
          columns.map((column) => columnName(language, column.key)),
          rightFrom < 0 ? columns.length : rightFrom,
        ),
        ...kept.map((line) => line.map((value, index) => ({ text: printed(value, index), alignment: align(index) }))),
        totalsLine(totals).map((value, index) => ({
          text: printed(value, index),
          bold: true,
          alignment: align(index),
        })),
      ];
      const pdf = await renderPdf({
        pageOrientation: columns.length > 6 ? 'landscape' : 'portrait',
        defaultStyle: { font: 'Roboto', fontSize: 8 },
        info: { title: reportTitles[language][head.reportId] },
        content: [
          ...clinicHeader(head),
          { text: reportTitles[language][head.reportId], style: 'title' },
          { text: `${periodWords[language].period}: ${day(head.from)} — ${day(head.to)}`, margin: [0, 0, 0, 8] },
          {
            table: { headerRows: 1, widths: columns.map((column) => (column.kind === 'text' ? '*' : 'auto')), body },
            layout: 'lightHorizontalLines',
          },
        ],
        styles: documentStyles(),
      });
      out.end(pdf);
    },
  };
}

/** Collects a stream's bytes (a direct answer: at most `reportDirectExportMaxRows` rows). */
export function collect(): { out: PassThrough; bytes: Promise<Buffer> } {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const bytes = new Promise<Buffer>((resolve, reject) => {
    out.on('end', () => resolve(Buffer.concat(chunks)));
    out.on('error', reject);
  });
  return { out, bytes };
}
