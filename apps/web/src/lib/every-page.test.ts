import type { Page } from '@odontia/shared/schemas/common';
import { describe, expect, it } from 'vitest';
import { everyPage } from './every-page';

/** A server list of `total` rows, paged as the API pages it; records the pages asked. */
function fakeList(total: number) {
  const asked: { page: number; pageSize: number }[] = [];
  const pageOf = async ({ page, pageSize }: { page: number; pageSize: number }): Promise<Page<number>> => {
    asked.push({ page, pageSize });
    const rows = Array.from({ length: total }, (_, index) => index + 1);
    return { data: rows.slice((page - 1) * pageSize, page * pageSize), total, page, pageSize };
  };
  return { asked, pageOf };
}

describe('everyPage', () => {
  it('answers one page when the list fits in it', async () => {
    const list = fakeList(40);
    const answer = await everyPage(list.pageOf);
    expect(answer.data).toHaveLength(40);
    expect(list.asked).toEqual([{ page: 1, pageSize: 100 }]);
  });

  it('reads every page of a longer list, in order', async () => {
    const list = fakeList(230);
    const answer = await everyPage(list.pageOf);
    expect(answer.data).toEqual(Array.from({ length: 230 }, (_, index) => index + 1));
    expect(list.asked).toEqual([
      { page: 1, pageSize: 100 },
      { page: 2, pageSize: 100 },
      { page: 3, pageSize: 100 },
    ]);
  });
});
