import type { TFunction } from 'i18next';
import type { LucideIcon } from 'lucide-react';
import { Link } from 'react-router';

export interface LinkCard {
  to: string;
  icon: LucideIcon;
  /** Its texts are `links.<key>.title` and `links.<key>.text` of the page's namespace. */
  key: string;
}

/**
 * A settings area's links to the pages that keep their own editors (users, fiscal data, hours…):
 * one card each, an icon, a title and a line of text, in a named navigation region. Each card's
 * test id is `<testId>-<key>` (`settings-links-fiscal`).
 */
export function LinkCards({
  label,
  heading,
  links,
  t,
  columnClassName = 'col-sm-6',
  testId,
}: {
  /** The navigation region's accessible name (and the heading's text when shown). */
  label: string;
  heading?: boolean;
  links: readonly LinkCard[];
  /** The page's translation function (its namespace holds `links.<key>`). */
  t: TFunction;
  columnClassName?: string;
  testId: string;
}) {
  return (
    <nav aria-label={label} data-testid={testId}>
      {heading ? <h2 className="h5">{label}</h2> : null}
      <ul className="row g-3 list-unstyled mb-0">
        {links.map(({ to, icon: Icon, key }) => (
          <li key={key} className={columnClassName}>
            <Link to={to} className="card h-100 text-decoration-none" data-testid={`${testId}-${key}`}>
              <div className="card-body d-flex gap-3 align-items-start">
                <Icon size={22} aria-hidden="true" className="text-primary flex-shrink-0 mt-1" />
                <div>
                  <span className="d-block fw-semibold text-body">{t(`links.${key}.title`)}</span>
                  <span className="d-block small text-body-secondary">{t(`links.${key}.text`)}</span>
                </div>
              </div>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
