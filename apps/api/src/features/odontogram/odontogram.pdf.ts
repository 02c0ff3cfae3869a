import type { ToothStatus, ToothZone } from '@odontia/shared/enums';
import {
  type ChartMark,
  chartRows,
  paletteStatuses,
  statusScopes,
  type ToothState,
  toothSvg,
} from '@odontia/shared/odontogram';
import {
  type ClinicalPrintHeading,
  documentStyles,
  type PdfDocument,
  patientPaperTop,
  pdfField,
} from '../../lib/pdf.ts';
import { odontogramTexts } from './odontogram.labels.ts';

/** What the printed odontogram shows (issue 6). */
export interface OdontogramPdfData extends ClinicalPrintHeading {
  skuPatient: string;
  /** The instant shown and the print time, already written in the clinic's time zone. */
  chartAtText: string;
  printedAtText: string;
  teeth: ToothState[];
  /** Whether to draw the primary rows too. */
  primary: boolean;
}

const cell = 27;
const glyph = 24;

/** One row of the chart; the numbers on the outer side of the arch (above the upper teeth, below the lower ones). */
function toothRow(numbers: readonly number[], states: Map<number, ToothState>, numbersBelow: boolean) {
  const teeth = numbers.map((tooth) => {
    const label = { text: String(tooth), fontSize: 7, alignment: 'center', color: '#333333' };
    const svg = { svg: toothSvg(tooth, states.get(tooth), glyph), width: glyph, alignment: 'center' };
    return { width: cell, stack: numbersBelow ? [svg, label] : [label, svg] };
  });
  const half = numbers.length / 2;
  // The midline: a little room between the two halves.
  const columns = [...teeth.slice(0, half), { width: 10, text: '' }, ...teeth.slice(half)];
  return { columns, columnGap: 0, margin: [0, 3, 0, 3] };
}

function centred(row: ReturnType<typeof toothRow>, count: number) {
  const width = count * cell + 10;
  return {
    columns: [
      { width: '*', text: '' },
      { width, ...row },
      { width: '*', text: '' },
    ],
    columnGap: 0,
  };
}

/** A sample glyph of the status for the legend: on the occlusal zone, or on the whole piece. */
function sample(status: ToothStatus): string {
  const mark: ChartMark = { status, entryId: 'legend', chartedAt: '' };
  const zone: ToothZone | null = statusScopes[status] === 'zone' ? 'occlusal' : null;
  const state: ToothState = zone
    ? { tooth: 16, piece: null, zones: { [zone]: mark } }
    : { tooth: 16, piece: mark, zones: {} };
  return toothSvg(16, status === 'healthy' ? undefined : state, 16);
}

/** The chart as a pdfmake document: clinic header, patient, date, the chart, the state by tooth and the legend. */
export function odontogramDocument(data: OdontogramPdfData): PdfDocument {
  const texts = odontogramTexts[data.language] ?? odontogramTexts.es;
  const states = new Map(data.teeth.map((state) => [state.tooth, state]));
  const rows = [
    centred(toothRow(chartRows.permanentUpper, states, false), 16),
    ...(data.primary
      ? [
          centred(toothRow(chartRows.primaryUpper, states, false), 10),
          centred(toothRow(chartRows.primaryLower, states, true), 10),
        ]
      : []),
    centred(toothRow(chartRows.permanentLower, states, true), 16),
  ];
  const describe = (state: ToothState) =>
    [
      state.piece ? `${texts.piece}: ${texts.statusNames[state.piece.status]}` : null,
      ...(Object.entries(state.zones) as [ToothZone, ChartMark][]).map(
        ([zone, mark]) => `${texts.zoneNames[zone]}: ${texts.statusNames[mark.status]}`,
      ),
    ]
      .filter(Boolean)
      .join(' · ');
  const legendCells = paletteStatuses.map((status) => ({
    columns: [
      { svg: sample(status), width: 16 },
      { text: texts.statusNames[status], margin: [4, 3, 0, 0], fontSize: 8 },
    ],
    columnGap: 0,
    margin: [0, 2, 0, 2],
  }));
  const legendRows: unknown[][] = [];
  for (let index = 0; index < legendCells.length; index += 4) {
    const row: unknown[] = legendCells.slice(index, index + 4);
    while (row.length < 4) row.push({ text: '' });
    legendRows.push(row);
  }
  return {
    info: { title: `${texts.title} — ${data.patientName}`, subject: data.chartAtText, creator: 'Odontia' },
    pageMargins: [48, 48, 48, 56],
    content: [
      ...patientPaperTop(
        data,
        texts.title,
        texts,
        [pdfField(texts.record, data.skuPatient), pdfField(texts.chartAt, data.chartAtText)],
        10,
      ),
      {
        columns: [
          { text: texts.right, fontSize: 8, color: '#555555' },
          { text: texts.left, fontSize: 8, color: '#555555', alignment: 'right' },
        ],
      },
      ...rows,
      { text: texts.marks, style: 'section' },
      data.teeth.length === 0
        ? { text: texts.noMarks, color: '#555555' }
        : {
            table: {
              widths: [28, '*'],
              body: data.teeth.map((state) => [{ text: String(state.tooth), bold: true }, describe(state)]),
            },
            layout: 'lightHorizontalLines',
            fontSize: 9,
          },
      { text: texts.legend, style: 'section' },
      { table: { widths: ['*', '*', '*', '*'], body: legendRows }, layout: 'noBorders' },
      {
        text: [{ text: `${texts.red}`, color: '#d63939' }, '   ', { text: texts.blue, color: '#1f5fd1' }],
        fontSize: 8,
        margin: [0, 6, 0, 0],
      },
      { text: `${texts.printedAt} ${data.printedAtText}`, fontSize: 8, color: '#777777', margin: [0, 16, 0, 0] },
    ],
    styles: {
      ...documentStyles(),
      title: { fontSize: 14, bold: true, alignment: 'center', margin: [0, 14, 0, 10] },
    },
  };
}
