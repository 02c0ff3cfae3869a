import type { Page } from '@odontia/shared/schemas/common';
import { describe, expect, it } from 'vitest';
import { getEveryPage } from './every-page';

/** A server list of `total` rows, paged as the API pages it; records the paths asked. */
function fakeList(total: number) {
  const asked: string[] = [];
  const get = async (path: string): Promise<Page<number>> => {
    asked.push(path);
    const query = new URLSearchParams(path.split('?')[1]);
    const page = Number(query.get('page'));
    const pageSize = Number(query.get('pageSize'));
    const rows = Array.from({ length: total }, (_, index) => index + 1);
    return { data: rows.slice((page - 1) * pageSize, page * pageSize), total, page, pageSize };
  };
  return { asked, get };
}

describe('getEveryPage', () => {
  it('answers one page when the list fits in it', async () => {
    const list = fakeList(40);
    const answer = await getEveryPage('treatments?active=true', list.get);
    expect(answer.data).toHaveLength(40);
    expect(list.asked).toEqual(['treatments?active=true&pageSize=100&page=1']);
  });

  it('reads every page of a longer list, in order', async () => {
    const list = fakeList(230);
    const answer = await getEveryPage('treatments', list.get);
    expect(answer.data).toEqual(Array.from({ length: 230 }, (_, index) => index + 1));
    expect(list.asked).toHaveLength(3);
    expect(list.asked[0]).toBe('treatments?pageSize=100&page=1');
  });
});
