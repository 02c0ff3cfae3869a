import { Readable, Transform, type TransformCallback } from 'node:stream';
import type { ImportEncoding, ImportFormat } from '@odontia/shared/schemas/imports';
import { importMaxColumns } from '@odontia/shared/schemas/imports';
import ExcelJS from 'exceljs';
import Papa from 'papaparse';
import { AppError } from '../../lib/app-error.ts';

/**
 * Reading an import file as it streams (issue 42): the bytes decoded in the chosen encoding, a CSV
 * cut into rows by papaparse (`,` `;` or tab, quoted fields), an XLSX's first sheet read by
 * exceljs' streaming reader; one row at a time, never the whole file in memory.
 */

/** Whether the bytes are valid UTF-8 (fed chunk by chunk): UTF-8 when they are, else Windows-1252. */
export class EncodingSniffer {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private valid = true;

  push(chunk: Uint8Array): void {
    if (!this.valid) return;
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      this.valid = false;
    }
  }

  result(): ImportEncoding {
    if (this.valid) {
      try {
        this.decoder.decode();
      } catch {
        this.valid = false;
      }
    }
    return this.valid ? 'utf-8' : 'windows-1252';
  }
}

/** ZIP's signature: an XLSX is a ZIP archive. */
export function formatOf(head: Uint8Array): ImportFormat {
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04 ? 'xlsx' : 'csv';
}

/** Decodes bytes to text in the encoding, without the UTF-8 BOM. */
class Decoder extends Transform {
  private readonly decoder: InstanceType<typeof TextDecoder>;
  private first = true;

  constructor(encoding: ImportEncoding) {
    super({ readableObjectMode: false });
    this.decoder = new TextDecoder(encoding, { ignoreBOM: false });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let text = this.decoder.decode(chunk, { stream: true });
    if (this.first && text.length > 0) {
      this.first = false;
      text = text.replace(/^\uFEFF/, '');
    }
    callback(null, text);
  }

  override _flush(callback: TransformCallback): void {
    callback(null, this.decoder.decode());
  }
}

/** The delimiter of a header line: the most frequent of `;`, tab and `,` outside quotes. */
export function detectDelimiter(firstLine: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best = ',';
  for (const [char, count] of counts) if (count > (counts.get(best) ?? 0)) best = char;
  return best;
}

/** The first line of a file's first bytes in the encoding. */
export function firstLineOf(head: Buffer, encoding: ImportEncoding): string {
  return (
    new TextDecoder(encoding)
      .decode(head)
      .replace(/^\uFEFF/, '')
      .split(/\r?\n/, 1)[0] ?? ''
  );
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('error' in value) return '';
    return '';
  }
  // A number cell is written with a point; three decimals ("1.125") would read as thousands where the
  // clinic's decimal separator is a comma (import-amounts.ts): a fourth digit keeps it a decimal.
  if (typeof value === 'number') return String(value).replace(/^-?\d+\.\d{3}$/, (text) => `${text}0`);
  return String(value);
}

/** The rows of a CSV (header first), cells as text. */
async function* csvRows(source: Readable, encoding: ImportEncoding, delimiter: string): AsyncGenerator<string[]> {
  const parser = Papa.parse(Papa.NODE_STREAM_INPUT, { delimiter, skipEmptyLines: 'greedy' }) as unknown as Readable &
    NodeJS.WritableStream;
  const decoder = new Decoder(encoding);
  source.on('error', (error) => decoder.destroy(error));
  decoder.on('error', (error) => parser.destroy(error));
  source.pipe(decoder).pipe(parser);
  try {
    for await (const row of parser as AsyncIterable<string[]>) yield row.slice(0, importMaxColumns);
  } finally {
    source.destroy();
  }
}

/** The rows of an XLSX's first sheet (header first), cells as text. */
async function* xlsxRows(source: Readable): AsyncGenerator<string[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, {
    sharedStrings: 'cache',
    worksheets: 'emit',
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  try {
    for await (const sheet of reader) {
      for await (const row of sheet as unknown as AsyncIterable<ExcelJS.Row>) {
        const values = (row.values as ExcelJS.CellValue[]).slice(1, importMaxColumns + 1);
        const cells = Array.from(values, (value) => cellText(value).trim());
        if (cells.every((cell) => cell === '')) continue;
        yield cells;
      }
      break;
    }
  } finally {
    source.destroy();
  }
}

export interface ReadOptions {
  format: ImportFormat;
  encoding: ImportEncoding;
  delimiter: string;
}

/**
 * The file's rows, header first. A file the parser cannot read (a broken spreadsheet, a cut-off
 * archive) is 400 import_file_unreadable.
 */
export async function* readRows(source: Readable, options: ReadOptions): AsyncGenerator<string[]> {
  try {
    if (options.format === 'xlsx') yield* xlsxRows(source);
    else yield* csvRows(source, options.encoding, options.delimiter);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('import_file_unreadable', undefined, { cause: error });
  }
}

export const fromBuffer = (bytes: Buffer) => Readable.from([bytes]);
