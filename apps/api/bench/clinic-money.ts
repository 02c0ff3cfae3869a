/**
 * `npm run bench -- clinic-money [--pglite] [--smoke]` (issue 40): the clinic's money at a big
 * clinic's size, its three figures one after the other, each in its own process and on its own
 * fresh database, each beside its small baseline measured in the same run:
 *   - closing a register's session of 10,000 movements (beside 100): clinic-money-cash.ts, goal p95 ≤ 200 ms;
 *   - settling a professional's month of 100,000 invoice lines (beside 1,000): clinic-money-settlements.ts,
 *     goal p95 ≤ 2 s;
 *   - a payer's presentation of 50,000 lines as a background job with progress (beside 500):
 *     clinic-money-payers.ts, goal p95 ≤ 5 s.
 * `--smoke` (CI) runs the three at small sizes: it shows they still run, their goals are judged on a
 * real run. Each part also runs alone with its own options (`node --import tsx apps/api/bench/<part>.ts`).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    pglite: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
  },
});

const smokeSizes: Record<string, string[]> = {
  'clinic-money-cash': ['--movements', '500', '--small', '50', '--history', '2000', '--runs', '3'],
  'clinic-money-settlements': ['--lines', '2000', '--small', '100', '--runs', '2'],
  'clinic-money-payers': ['--lines', '1000', '--small', '100', '--runs', '2'],
};

let failed = 0;
for (const part of ['clinic-money-cash', 'clinic-money-settlements', 'clinic-money-payers']) {
  const args = [...(values.pglite ? ['--pglite'] : []), ...(values.smoke ? (smokeSizes[part] ?? []) : [])];
  console.log(`\n--- ${part}${args.length ? ` ${args.join(' ')}` : ''}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, `${part}.ts`), ...args], {
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    console.error(`${part} ended with ${run.status ?? run.signal}`);
    failed += 1;
  }
}
process.exitCode = failed ? 1 : 0;
