/** Bytes in a mebibyte: sizes are counted as the server's limits are (UPLOAD_MAX_MB × 1024²). */
export const megabyte = 1024 * 1024;

/**
 * The one way a size is shown (a file, a selection's total, a limit): in the interface's language
 * and its unit ("850 kB", "11,4 MB", "10 MB", "2,4 Mo"), megabytes with at most one decimal, so a
 * file of 11,4 MB and the same file with a 161 kB picture (11,6 MB) read as the sum they are.
 */
export function formatSize(bytes: number, language: string): string {
  const inMegabytes = bytes >= megabyte;
  const value = inMegabytes ? bytes / megabyte : Math.max(bytes / 1024, 0.1);
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: inMegabytes ? 'megabyte' : 'kilobyte',
    unitDisplay: 'short',
    maximumFractionDigits: inMegabytes || value < 10 ? 1 : 0,
  }).format(value);
}
