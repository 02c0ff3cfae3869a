import { maxPageSize, type Page } from '@odontia/shared/schemas/common';

/**
 * Every row of a list the server pages, for a picker that shows them all at once (a clinic's price
 * list runs to a few hundred treatments): the first page of 100, then the others together.
 * `pageOf` reads one page (a declared route's call: `(page) => api.list({ query: { ...page, active } })`).
 */
export async function everyPage<T>(
  pageOf: (page: { page: number; pageSize: number }) => Promise<Page<T>>,
): Promise<Page<T>> {
  const first = await pageOf({ page: 1, pageSize: maxPageSize });
  const pages = Math.ceil(first.total / maxPageSize);
  if (pages <= 1) return first;
  const rest = await Promise.all(
    Array.from({ length: pages - 1 }, (_, index) => pageOf({ page: index + 2, pageSize: maxPageSize })),
  );
  return { ...first, data: [...first.data, ...rest.flatMap((page) => page.data)], pageSize: first.total };
}
