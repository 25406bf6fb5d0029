import type { ListPage } from './types.js';

/** The first page, awaited; or every item of every page, `for await`: the next page is read when needed. */
export type AutoPaginated<Item> = Promise<ListPage<Item>> & AsyncIterable<Item>;

/**
 * Follows the list's cursor: each page's `next_cursor` is the next request's `starting_after`,
 * until `has_more` is false. The filters stay the same throughout, as the contract requires.
 */
export function autoPaginated<Item>(page: (startingAfter?: string) => Promise<ListPage<Item>>): AutoPaginated<Item> {
  const first = page();
  // Iterated only: the first page's refusal is thrown by the iteration, not left unhandled.
  first.catch(() => undefined);
  return Object.assign(first, {
    async *[Symbol.asyncIterator]() {
      let current = await first;
      for (;;) {
        yield* current.data;
        if (!current.has_more || !current.next_cursor) return;
        current = await page(current.next_cursor);
      }
    },
  });
}
