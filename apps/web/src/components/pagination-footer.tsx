import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/**
 * The footer of a server-paginated list: "1–20 of 45" and previous / next page; "1–20 of more
 * than 1,000" when the server counted a long search only up to a point.
 */
export function PaginationFooter({
  page,
  pageSize,
  total,
  totalIsLowerBound = false,
  onPage,
  label,
  testId,
}: {
  page: number;
  pageSize: number;
  total: number;
  /** The server stopped counting at `total`: there are more. */
  totalIsLowerBound?: boolean | undefined;
  onPage: (page: number) => void;
  /** What the pagination navigates, for screen readers ("Pages of the users list"). */
  label: string;
  /** `data-testid` of the range text. */
  testId?: string;
}) {
  const { t, i18n } = useTranslation('common');
  const number = new Intl.NumberFormat(i18n.language);
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <div className="card-footer list-pagination">
      <span className="text-body-secondary small" data-testid={testId}>
        {t(totalIsLowerBound ? 'list.rangeMoreThan' : 'list.range', {
          from: number.format(from),
          to: number.format(to),
          total: number.format(total),
        })}
      </span>
      <nav aria-label={label} className="d-flex gap-2">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
          aria-label={t('list.previous')}
          title={t('list.previous')}
        >
          <ChevronLeft size={16} aria-hidden="true" />
        </button>
        <span className="small align-self-center">
          {totalIsLowerBound ? t('list.page', { page }) : t('list.pageOf', { page, pages: lastPage })}
        </span>
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary"
          disabled={page >= lastPage}
          onClick={() => onPage(page + 1)}
          aria-label={t('list.next')}
          title={t('list.next')}
        >
          <ChevronRight size={16} aria-hidden="true" />
        </button>
      </nav>
    </div>
  );
}
