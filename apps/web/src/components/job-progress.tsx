/**
 * A background job's bar (an archive, an export): 0–100 for screen readers under `label`. Shown only
 * while the job runs: the pages' settle check (and a person) reads a bar as "still working".
 */
export function JobProgress({
  label,
  progress,
  className = '',
}: {
  label: string;
  progress: number;
  className?: string;
}) {
  return (
    <div
      className={`progress ${className}`.trim()}
      role="progressbar"
      aria-label={label}
      aria-valuenow={progress}
      aria-valuemin={0}
      aria-valuemax={100}
    >
      <div className="progress-bar progress-bar-striped progress-bar-animated" style={{ width: `${progress}%` }} />
    </div>
  );
}
