import { type ReactNode, useId } from 'react';

/**
 * A card of the schedules page: its title and intro (with `note` under them), what goes beside them
 * (`aside`: a switch, a "new" button), then its body; `after` is drawn outside the card body (dialogs).
 */
export function ScheduleSection({
  title,
  intro,
  testId,
  note,
  aside,
  className = 'card mb-0',
  after,
  children,
}: {
  title: string;
  intro: string;
  testId: string;
  note?: ReactNode;
  aside?: ReactNode;
  className?: string;
  after?: ReactNode;
  children: ReactNode;
}) {
  const headingId = useId();
  const heading = (
    <div className={aside === undefined ? undefined : 'me-auto'}>
      <h2 id={headingId} className="h5 mb-0">
        {title}
      </h2>
      <p className="small text-body-secondary mb-0">{intro}</p>
      {note}
    </div>
  );
  return (
    <section className={className} aria-labelledby={headingId} data-testid={testId}>
      <div className="card-body d-flex flex-column gap-2">
        {aside === undefined ? (
          heading
        ) : (
          <div className="d-flex flex-wrap align-items-center gap-2">
            {heading}
            {aside}
          </div>
        )}
        {children}
      </div>
      {after}
    </section>
  );
}
