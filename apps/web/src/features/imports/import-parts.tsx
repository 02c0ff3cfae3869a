import type { ImportOutcome, ImportRun } from '@odontia/shared/schemas/imports';
import { importOutcomes } from '@odontia/shared/schemas/imports';
import { useTranslation } from 'react-i18next';
import { JobProgress } from '../../components/job-progress';
import { isRunning } from './api';

const stateTone: Record<ImportRun['state'], string> = {
  uploaded: 'text-bg-secondary',
  checking: 'text-bg-info',
  checked: 'text-bg-primary',
  importing: 'text-bg-info',
  done: 'text-bg-success',
  failed: 'text-bg-danger',
};

export const outcomeTone: Record<ImportOutcome, string> = {
  created: 'text-bg-success',
  updated: 'text-bg-primary',
  unchanged: 'text-bg-secondary',
  refused: 'text-bg-danger',
};

/** A running pass's bar: rows read of the file's rows, with the percentage for screen readers. */
export function ImportProgress({ run }: { run: ImportRun }) {
  const { t, i18n } = useTranslation('imports');
  const number = new Intl.NumberFormat(i18n.language);
  const label = t(`progress.${run.phase ?? 'check'}`, {
    done: number.format(run.rowsDone),
    total: number.format(run.totalRows ?? 0),
    progress: number.format(run.progress),
  });
  return <JobProgress label={label} valueText={label} progress={run.progress} showPercent testId="import-progress" />;
}

/** The run's state as a badge, or its progress bar while a pass runs. */
export function ImportStateBadge({ run }: { run: ImportRun }) {
  const { t } = useTranslation('imports');
  if (isRunning(run)) return <ImportProgress run={run} />;
  return (
    <span className={`badge ${stateTone[run.state]}`} data-testid="import-state" data-state={run.state}>
      {t(`states.${run.state}`)}
    </span>
  );
}

/** How many rows each outcome had, in the words of the pass (the dry run's future, the import's past). */
export function ImportCounts({ run, compact = false }: { run: ImportRun; compact?: boolean }) {
  const { t, i18n } = useTranslation('imports');
  const number = new Intl.NumberFormat(i18n.language);
  const phase = run.phase ?? 'check';
  if (compact) {
    return (
      <span>
        {importOutcomes
          .filter((outcome) => run.counts[outcome] > 0)
          .map((outcome) => `${t(`counts.${phase}.${outcome}`)}: ${number.format(run.counts[outcome])}`)
          .join(' · ')}
      </span>
    );
  }
  return (
    <ul className="row row-cols-2 row-cols-md-4 g-2 mb-0 list-unstyled" data-testid="import-counts">
      {importOutcomes.map((outcome) => (
        <li className="col" key={outcome}>
          <div className="border rounded p-2 h-100" data-testid={`import-count-${outcome}`}>
            <span className="d-block small text-body-secondary">{t(`counts.${phase}.${outcome}`)}</span>
            <span className="d-flex align-items-center fs-4">
              <span className={`badge ${outcomeTone[outcome]} me-2`} aria-hidden="true">
                {' '}
              </span>
              {number.format(run.counts[outcome])}
            </span>
          </div>
        </li>
      ))}
    </ul>
  );
}
