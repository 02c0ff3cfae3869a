import { calendarDateFormatter } from '@odontia/shared/date-format';
import type { Language } from '@odontia/shared/enums';
import { teethOfDentition } from '@odontia/shared/perio';
import { perioChartSvg } from '@odontia/shared/perio-svg';
import type { PerioExam } from '@odontia/shared/schemas/perio';
import { eq } from 'drizzle-orm';
import type { RequestContext } from '../../context.ts';
import { accounts } from '../../db/schema/index.ts';
import { AppError } from '../../lib/app-error.ts';
import { documentStyles, type PdfDocument, patientPaperTop, pdfField, pdfFile, printLanguage } from '../../lib/pdf.ts';
import { requirePrintHeader } from '../clinical/clinical.service.ts';
import { perioService } from './perio.service.ts';

/** The printed periodontal chart (issue 41), for the patient, in the clinic's language. */

interface PerioTexts {
  title: string;
  patient: string;
  idNumber: string;
  date: string;
  professional: string;
  status: string;
  draft: string;
  closed: string;
  indices: string;
  plaque: string;
  bleeding: string;
  depth4: string;
  depth6: string;
  meanAttachment: string;
  sites: string;
  buccal: string;
  palatal: string;
  lingual: string;
  legend: string;
  notes: string;
}

export const perioTexts: Record<Language, PerioTexts> = {
  es: {
    title: 'Periodontograma',
    patient: 'Paciente',
    idNumber: 'DNI',
    date: 'Fecha',
    professional: 'Profesional',
    status: 'Estado',
    draft: 'Borrador',
    closed: 'Cerrado',
    indices: 'Índices',
    plaque: 'Índice de placa',
    bleeding: 'Sangrado al sondaje',
    depth4: 'Sitios con bolsa ≥ 4 mm',
    depth6: 'Sitios con bolsa ≥ 6 mm',
    meanAttachment: 'Nivel de inserción clínica medio',
    sites: 'Sitios explorados',
    buccal: 'Vestibular',
    palatal: 'Palatino',
    lingual: 'Lingual',
    legend:
      'Línea azul: margen gingival · línea roja: fondo de la bolsa · línea gris: límite amelocementario · puntos rojos: sangrado · azules: placa · amarillos: supuración · M: movilidad · F: furca',
    notes: 'Observaciones',
  },
  en: {
    title: 'Periodontal chart',
    patient: 'Patient',
    idNumber: 'ID number',
    date: 'Date',
    professional: 'Professional',
    status: 'Status',
    draft: 'Draft',
    closed: 'Closed',
    indices: 'Indices',
    plaque: 'Plaque index',
    bleeding: 'Bleeding on probing',
    depth4: 'Sites with pockets ≥ 4 mm',
    depth6: 'Sites with pockets ≥ 6 mm',
    meanAttachment: 'Mean clinical attachment level',
    sites: 'Sites examined',
    buccal: 'Buccal',
    palatal: 'Palatal',
    lingual: 'Lingual',
    legend:
      'Blue line: gingival margin · red line: bottom of the pocket · grey line: cemento-enamel junction · red dots: bleeding · blue: plaque · yellow: suppuration · M: mobility · F: furcation',
    notes: 'Notes',
  },
  fr: {
    title: 'Charting parodontal',
    patient: 'Patient',
    idNumber: 'N° d’identité',
    date: 'Date',
    professional: 'Praticien',
    status: 'État',
    draft: 'Brouillon',
    closed: 'Clôturé',
    indices: 'Indices',
    plaque: 'Indice de plaque',
    bleeding: 'Saignement au sondage',
    depth4: 'Sites avec poche ≥ 4 mm',
    depth6: 'Sites avec poche ≥ 6 mm',
    meanAttachment: 'Niveau d’attache clinique moyen',
    sites: 'Sites examinés',
    buccal: 'Vestibulaire',
    palatal: 'Palatin',
    lingual: 'Lingual',
    legend:
      'Ligne bleue : rebord gingival · ligne rouge : fond de poche · ligne grise : jonction amélo-cémentaire · points rouges : saignement · bleus : plaque · jaunes : suppuration · M : mobilité · F : furcation',
    notes: 'Observations',
  },
  pt: {
    title: 'Periodontograma',
    patient: 'Paciente',
    idNumber: 'N.º de identificação',
    date: 'Data',
    professional: 'Profissional',
    status: 'Estado',
    draft: 'Rascunho',
    closed: 'Fechado',
    indices: 'Índices',
    plaque: 'Índice de placa',
    bleeding: 'Hemorragia à sondagem',
    depth4: 'Locais com bolsa ≥ 4 mm',
    depth6: 'Locais com bolsa ≥ 6 mm',
    meanAttachment: 'Nível de inserção clínica médio',
    sites: 'Locais examinados',
    buccal: 'Vestibular',
    palatal: 'Palatino',
    lingual: 'Lingual',
    legend:
      'Linha azul: margem gengival · linha vermelha: fundo da bolsa · linha cinzenta: junção amelocementária · pontos vermelhos: hemorragia · azuis: placa · amarelos: supuração · M: mobilidade · F: furca',
    notes: 'Observações',
  },
};

export interface PerioPrintable {
  exam: PerioExam;
  heading: Awaited<ReturnType<typeof requirePrintHeader>>;
  language: Language;
}

/** Read in the route's transaction: the exam (404 as the API), the clinic, the patient and the clinic's language. */
export async function perioPrintable({
  ctx,
  patientId,
  id,
}: {
  ctx: RequestContext;
  patientId: string;
  id: string;
}): Promise<PerioPrintable> {
  const exam = await perioService.get({ ctx, patientId, id });
  const heading = await requirePrintHeader(ctx, patientId);
  const [account] = await ctx.tx
    .select({ language: accounts.defaultLanguage })
    .from(accounts)
    .where(eq(accounts.id, ctx.accountId));
  if (!account) throw new AppError('perio_exam_not_found');
  return { exam, heading, language: printLanguage(account.language) };
}

const percent = (value: number, language: Language) =>
  `${new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(value)} %`;
const millimetres = (value: number | null, language: Language) =>
  value === null ? '—' : `${new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(value)} mm`;

export function perioDocument({ exam, heading, language }: PerioPrintable): PdfDocument {
  const texts = perioTexts[language];
  const { indices } = exam;
  const charted = new Set(exam.teeth.map((tooth) => tooth.tooth));
  const svg = perioChartSvg(exam.teeth, {
    dentition: exam.dentition,
    // The dentition's teeth the exam did not chart (missing in the odontogram) are drawn crossed out.
    absent: new Set(teethOfDentition(exam.dentition).filter((tooth) => !charted.has(tooth))),
    labels: { buccal: texts.buccal, palatal: texts.palatal, lingual: texts.lingual },
  });
  const data = {
    language,
    clinicName: heading.clinicName,
    clinicContact: heading.clinicContact,
    clinic: heading.clinic,
    patientName: `${heading.firstName} ${heading.lastName}`,
    patientSsn: heading.ssn,
  };
  const row = (label: string, value: string) => [label, { text: value, alignment: 'right', bold: true }];
  return {
    info: { title: `${texts.title} — ${data.patientName}`, subject: exam.date, creator: 'Odontia' },
    pageMargins: [40, 40, 40, 48],
    content: [
      ...patientPaperTop(
        data,
        texts.title,
        texts,
        [
          pdfField(texts.date, calendarDateFormatter(language)(exam.date)),
          pdfField(texts.professional, exam.professionalName),
          pdfField(texts.status, exam.status === 'closed' ? texts.closed : texts.draft),
        ],
        8,
      ),
      { svg, width: 515, alignment: 'center' },
      { text: texts.legend, fontSize: 7, color: '#555555', margin: [0, 4, 0, 8] },
      { text: texts.indices, style: 'section' },
      {
        table: {
          widths: ['*', 90],
          body: [
            row(texts.plaque, percent(indices.plaquePercent, language)),
            row(texts.bleeding, percent(indices.bleedingPercent, language)),
            row(texts.depth4, String(indices.depth4Sites)),
            row(texts.depth6, String(indices.depth6Sites)),
            row(texts.meanAttachment, millimetres(indices.meanAttachment, language)),
            row(texts.sites, String(indices.sites)),
          ],
        },
        layout: 'lightHorizontalLines',
        fontSize: 9,
      },
      ...(exam.notes
        ? [
            { text: texts.notes, style: 'section' },
            { text: exam.notes, fontSize: 9 },
          ]
        : []),
    ],
    styles: {
      ...documentStyles(),
      title: { fontSize: 14, bold: true, alignment: 'center', margin: [0, 10, 0, 8] },
    },
  };
}

export function renderPerioPdf(printable: PerioPrintable): Promise<{ pdf: Buffer; fileName: string }> {
  return pdfFile(perioDocument(printable), `periodontograma-${printable.heading.lastName}-${printable.exam.date}.pdf`);
}
