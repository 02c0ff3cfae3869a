import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** The footer of a server-paginated list: "1–20 of 45" and previous / next page. */
export function PaginationFooter({
  page,
  pageSize,
  total,
  onPage,
  label,
  testId,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  /** What the pagination navigates, for screen readers ("Pages of the users list"). */
  label: string;
  /** `data-testid` of the range text. */
  testId?: string;
}) {
  const { t } = useTranslation('common');
  const lastPage = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <div className="card-footer list-pagination">
      <span className="text-body-secondary small" data-testid={testId}>
        {t('list.range', { from, to, total })}
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
        <span className="small align-self-center">{t('list.pageOf', { page, pages: lastPage })}</span>
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
