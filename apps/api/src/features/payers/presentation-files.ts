import { calendarDateFormatter, calendarMonthFormatter } from '@odontia/shared/date-format';
import type { Currency } from '@odontia/shared/enums';
import type { Payer, Presentation, SplitLine } from '@odontia/shared/schemas/payers';
import Big from 'big.js';
import ExcelJS from 'exceljs';
import { moneyFormatter } from '../../lib/money-format.ts';
import { type ClinicPrintHeader, clinicHeader, documentStyles, headerRow, pdfFile } from '../../lib/pdf.ts';

/**
 * A presentation on paper and as a spreadsheet, in the layout payers ask for (issue 40): one row
 * per line — date, member number, patient, treatment code, authorization, amount — and the total,
 * with the payer, the period and the presentation's number on top. In Spanish (the payers are the
 * clinic's country's), dates and money in the clinic's locale and currency.
 */

export interface PrintablePresentation {
  presentation: Presentation;
  payer: Pick<Payer, 'name' | 'code'>;
  lines: SplitLine[];
  clinic: ClinicPrintHeader;
  clinicName: string;
  currency: Currency;
}

const texts = {
  title: 'Presentación a la obra social',
  number: 'N.º',
  payer: 'Financiador',
  code: 'Código de prestador',
  period: 'Período',
  date: 'Fecha',
  member: 'N.º de afiliado',
  patient: 'Paciente',
  treatment: 'Código',
  description: 'Prestación',
  authorization: 'Autorización',
  amount: 'Importe',
  total: 'Total presentado',
  lines: 'Líneas',
  rejected: 'Débitos',
};

const monthText = calendarMonthFormatter('es');

export const presentationFileName = (printable: Pick<PrintablePresentation, 'presentation'>, extension: string) =>
  `presentacion-${printable.presentation.number}-${printable.presentation.period.slice(0, 7)}.${extension}`;

export async function presentationPdf(printable: PrintablePresentation) {
  const { presentation, payer, lines } = printable;
  const money = moneyFormatter('es', printable.currency);
  const day = calendarDateFormatter('es');
  const total = lines.reduce((sum, line) => sum.plus(line.payerAmount), new Big(0)).toFixed(2);
  const document = {
    pageSize: 'A4',
    pageOrientation: 'landscape',
    pageMargins: [32, 32, 32, 40],
    defaultStyle: { font: 'Roboto', fontSize: 8 },
    content: [
      ...clinicHeader({
        clinicName: printable.clinicName,
        clinicContact: '',
        clinic: printable.clinic,
        language: 'es',
      }),
      { text: `${texts.title} ${texts.number} ${presentation.number}`, style: 'title' },
      {
        columns: [
          { text: [{ text: `${texts.payer}: `, bold: true }, payer.name] },
          { text: [{ text: `${texts.code}: `, bold: true }, payer.code ?? '—'] },
          { text: [{ text: `${texts.period}: `, bold: true }, monthText(presentation.period)] },
        ],
        margin: [0, 0, 0, 8],
      },
      {
        table: {
          headerRows: 1,
          widths: [52, 70, '*', 44, '*', 60, 60],
          body: [
            headerRow(
              [
                texts.date,
                texts.member,
                texts.patient,
                texts.treatment,
                texts.description,
                texts.authorization,
                texts.amount,
              ],
              6,
            ),
            ...lines.map((line) => [
              day(line.date),
              line.memberNumber,
              line.patientName,
              line.treatmentCode ?? '',
              line.description,
              line.authorizationNumber ?? '',
              { text: money(line.payerAmount), alignment: 'right' },
            ]),
            [
              { text: `${texts.lines}: ${lines.length}`, colSpan: 5, bold: true },
              {},
              {},
              {},
              {},
              { text: texts.total, bold: true },
              { text: money(total), bold: true, alignment: 'right' },
            ],
          ],
        },
        layout: 'lightHorizontalLines',
      },
    ],
    styles: documentStyles(),
  };
  return pdfFile(document, presentationFileName(printable, 'pdf'));
}

export async function presentationXlsx(printable: PrintablePresentation): Promise<{ bytes: Buffer; fileName: string }> {
  const { presentation, payer, lines } = printable;
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(`Presentación ${presentation.number}`);
  sheet.addRow([texts.title, presentation.number]);
  sheet.addRow([texts.payer, payer.name, texts.code, payer.code ?? '']);
  sheet.addRow([texts.period, presentation.period.slice(0, 7)]);
  sheet.addRow([]);
  const head = sheet.addRow([
    texts.date,
    texts.member,
    texts.patient,
    texts.treatment,
    texts.description,
    texts.authorization,
    texts.amount,
  ]);
  head.font = { bold: true };
  for (const line of lines) {
    sheet.addRow([
      new Date(`${line.date}T00:00:00Z`),
      line.memberNumber,
      line.patientName,
      line.treatmentCode ?? '',
      line.description,
      line.authorizationNumber ?? '',
      Number(line.payerAmount),
    ]);
  }
  const total = lines.reduce((sum, line) => sum.plus(line.payerAmount), new Big(0));
  const foot = sheet.addRow([texts.lines, lines.length, '', '', '', texts.total, Number(total.toFixed(2))]);
  foot.font = { bold: true };
  sheet.getColumn(1).numFmt = 'dd/mm/yyyy';
  sheet.getColumn(7).numFmt = '#,##0.00';
  for (const [index, width] of [12, 16, 30, 10, 36, 16, 14].entries()) sheet.getColumn(index + 1).width = width;
  const bytes = Buffer.from(await book.xlsx.writeBuffer());
  return { bytes, fileName: presentationFileName(printable, 'xlsx') };
}
