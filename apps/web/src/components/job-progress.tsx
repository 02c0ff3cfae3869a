import { useTranslation } from 'react-i18next';

/**
 * A background job's bar (an archive, an export, an import, a presentation, an upload): 0–100 for
 * screen readers, named by `label` or by the element `labelledBy` points at, `valueText` saying more
 * than the percentage where there is more to say (rows, tables). `showPercent` writes the percentage
 * in the bar, in the page's language ("45 %" in Spanish, "45%" in English). Shown only while the job
 * runs: the pages' settle check (and a person) reads a bar as "still working".
 */
export function JobProgress({
  progress,
  label,
  labelledBy,
  valueText,
  showPercent = false,
  testId,
  className = '',
}: {
  progress: number;
  label?: string;
  labelledBy?: string;
  valueText?: string;
  showPercent?: boolean;
  testId?: string;
  className?: string;
}) {
  const { i18n } = useTranslation();
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 });
  return (
    <div
      className={`progress ${className}`.trim()}
      role="progressbar"
      aria-label={label}
      aria-labelledby={labelledBy}
      aria-valuenow={progress}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuetext={valueText}
      data-testid={testId}
    >
      {/* A sliver from the start, so a bar at 0 still reads as a bar that has begun. */}
      <div
        className="progress-bar progress-bar-striped progress-bar-animated"
        style={{ width: `${Math.max(progress, 3)}%` }}
      >
        {showPercent ? percent.format(progress / 100) : null}
      </div>
    </div>
  );
}
