import type { ReactNode } from 'react';

/**
 * A form's card titled by an icon and an h2 (profile, patient, provider, inventory item,
 * attendance). `className` follows `card`; `grid` lays the body out as a `row g-3` of fields;
 * `titleClassName` replaces the title's `card-title` class.
 */
export function IconCard({
  title,
  icon,
  className,
  titleClassName = 'card-title',
  subtitle,
  grid = false,
  testId,
  children,
}: {
  title: string;
  icon: ReactNode;
  className: string;
  titleClassName?: string;
  subtitle?: ReactNode;
  grid?: boolean;
  testId?: string | undefined;
  children: ReactNode;
}) {
  return (
    <section className={`card ${className}`} data-testid={testId}>
      <div className="card-header">
        <h2 className={titleClassName}>
          {icon}
          {title}
        </h2>
        {subtitle ? <div className="small text-body-secondary mt-1">{subtitle}</div> : null}
      </div>
      <div className="card-body">{grid ? <div className="row g-3">{children}</div> : children}</div>
    </section>
  );
}
