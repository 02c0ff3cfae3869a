import { maxPageSize, type Page } from '@odontia/shared/schemas/common';
import { http } from './http';

/**
 * Every row of a list the server pages, for a picker that shows them all at once (a clinic's price
 * list runs to a few hundred treatments): the first page of 100, then the others together.
 * `path` carries the filters and sort; `get` may swap in a getter that tolerates 403.
 */
export async function getEveryPage<T>(
  path: string,
  get: (path: string) => Promise<Page<T>> = (url) => http.get<Page<T>>(url),
): Promise<Page<T>> {
  const separator = path.includes('?') ? '&' : '?';
  const pageOf = (page: number) => get(`${path}${separator}pageSize=${maxPageSize}&page=${page}`);
  const first = await pageOf(1);
  const pages = Math.ceil(first.total / maxPageSize);
  if (pages <= 1) return first;
  const rest = await Promise.all(Array.from({ length: pages - 1 }, (_, index) => pageOf(index + 2)));
  return { ...first, data: [...first.data, ...rest.flatMap((page) => page.data)], pageSize: first.total };
}
