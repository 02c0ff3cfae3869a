/**
 * `npm run bench -- import [--pglite] [--rows N]` (issue 42): importing another system's patients
 * through the real app — upload, dry run, import, as the wizard does — on a fresh database, a
 * 1,000-row baseline then 100,000 rows (or N) in the same run: seconds per pass and the process's
 * peak memory (RSS and heap) while it ran; then the same file again (nothing changes). Goal ≤ 3
 * minutes for 100,000 on PostgreSQL, memory bounded (the file is streamed, written in chunks).
 */
import { importThroughApp, patientsExport } from '../test/import-files.ts';
import { benchBackend, createBenchClinic, openBenchDatabase, startBenchApp } from './bench-kit.ts';

const args = process.argv.slice(2);
const pglite = args.includes('--pglite');
const rowsArg = args.indexOf('--rows');
const rows = rowsArg >= 0 ? Number(args[rowsArg + 1]) : 100_000;

function memoryWatch() {
  let rss = 0;
  let heap = 0;
  const sample = () => {
    const usage = process.memoryUsage();
    rss = Math.max(rss, usage.rss);
    heap = Math.max(heap, usage.heapUsed);
  };
  sample();
  const timer = setInterval(sample, 50);
  return () => {
    clearInterval(timer);
    sample();
    return { rssMb: Math.round(rss / 1048576), heapMb: Math.round(heap / 1048576) };
  };
}

async function main() {
  console.log(`import bench on ${benchBackend({ pglite })}`);
  const { db, drop } = await openBenchDatabase({ pglite, keep: false });
  try {
    const clinic = await createBenchClinic(db);
    const { app, headers, close } = await startBenchApp(db, clinic);
    try {
      for (const [label, size, prefix] of [
        ['baseline', 1000, 'A'],
        ['large', rows, 'B'],
      ] as const) {
        const content = patientsExport(size, prefix);
        global.gc?.();
        const stop = memoryWatch();
        const first = await importThroughApp(app as never, headers, content);
        const memory = stop();
        const again = await importThroughApp(app as never, headers, content);
        console.log(
          `${label}: ${size.toLocaleString('en')} patients (${(content.length / 1048576).toFixed(1)} MB): dry run ${first.checkSeconds.toFixed(1)} s, import ${first.importSeconds.toFixed(1)} s, total ${first.totalSeconds.toFixed(1)} s; peak RSS ${memory.rssMb} MB, heap ${memory.heapMb} MB; created ${first.done.counts.created}, refused ${first.done.counts.refused}; again: ${again.totalSeconds.toFixed(1)} s, unchanged ${again.done.counts.unchanged}, created ${again.done.counts.created}, updated ${again.done.counts.updated}`,
        );
        if (label === 'large') {
          console.log(`goal ≤ 180 s for 100,000: ${first.totalSeconds <= 180 ? 'met' : 'NOT met'}`);
        }
      }
    } finally {
      await close();
    }
  } finally {
    await drop();
  }
}

await main();
