/**
 * How the document browser asks for a page so that any page costs what skipping min(skip, total − skip) rows
 * costs: a storage engine walks past every skipped row, so a page past the middle of a collection is asked for
 * from the other end, in the reversed order, and its rows are turned around in the browser.
 *
 * This is exact because the list route's order is total: every sort ends with `_id` (unique in a collection) in
 * the direction of the last key, and without a sort the order is `_id` ascending (the contract's list route). Flipping the
 * direction of every key therefore flips the `_id` tie-break too, and gives exactly the reverse order.
 */

/** What to ask the list route for, and whether its rows come back in reversed order. */
export interface PageAsk {
  skip: number;
  limit: number;
  sort: string | undefined;
  reversed: boolean;
}

/** The sort that lists the documents in exactly the reverse of `sort` (none: `_id` ascending). */
export function reverseSort(sort: string | undefined): string {
  if (!sort) return '-_id';
  return sort
    .split(',')
    .map((key) => (key.startsWith('-') ? key.slice(1) : `-${key}`))
    .join(',');
}

/**
 * The ask for the page of `limit` documents after `skip`, when the collection is believed to hold `total`
 * (undefined before the first answer): from the nearer end of the collection.
 */
export function pageAsk(skip: number, limit: number, sort: string | undefined, total?: number): PageAsk {
  const fromEnd = total === undefined ? -1 : total - skip - limit;
  // Reversed only when that skips fewer rows, and the page is within the collection.
  if (total === undefined || skip >= total || Math.max(0, fromEnd) >= skip)
    return { skip, limit, sort, reversed: false };
  // The last page may be short: it is the first `total − skip` documents of the reversed order.
  return fromEnd >= 0
    ? { skip: fromEnd, limit, sort: reverseSort(sort), reversed: true }
    : { skip: 0, limit: total - skip, sort: reverseSort(sort), reversed: true };
}

/**
 * Fetches the page of `limit` documents after `skip` through `list` (the list route), from the nearer end when
 * `total` is known, and gives its documents in the asked order with the collection's size.
 */
export async function fetchPage<T>(
  list: (ask: Omit<PageAsk, 'reversed'>) => Promise<{ data: T[]; total: number }>,
  skip: number,
  limit: number,
  sort: string | undefined,
  total?: number,
): Promise<{ documents: T[]; total: number }> {
  const { reversed, ...ask } = pageAsk(skip, limit, sort, total);
  const answer = await list(ask);
  if (!reversed) return { documents: answer.data, total: answer.total };
  // Documents were added or deleted since `total` was read, so the window from the end has moved: ask from the
  // start instead, which is right whatever the size.
  if (answer.total !== total) return fetchPage(list, skip, limit, sort);
  return { documents: [...answer.data].reverse(), total: answer.total };
}
