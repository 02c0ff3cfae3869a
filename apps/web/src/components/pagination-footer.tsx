import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { IconButton } from './icon-button';

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
        <IconButton
          icon={ChevronLeft}
          label={t('list.previous')}
          onClick={() => onPage(page - 1)}
          disabled={page <= 1}
        />
        <span className="small align-self-center">
          {totalIsLowerBound ? t('list.page', { page }) : t('list.pageOf', { page, pages: lastPage })}
        </span>
        <IconButton
          icon={ChevronRight}
          label={t('list.next')}
          onClick={() => onPage(page + 1)}
          disabled={page >= lastPage}
        />
      </nav>
    </div>
  );
}
