import { APIPromise } from './api-promise.js';
import { DataPlatformError } from './error.js';

/** The list envelope of the API: one page of items and the number of all items. */
export interface PageBody<Item> {
  data: Item[];
  total: number;
  limit: number;
  skip: number;
}

/**
 * One page of a list. `for await (const item of page)` walks this page and every later one.
 * @example let page = await client.data.list('orders'); while (page.hasNextPage()) page = await page.getNextPage();
 */
export class Page<Item> implements PageBody<Item>, AsyncIterable<Item> {
  /** The items of this page. */
  data: Item[];
  /** Number of items across all pages. */
  total: number;
  /** Page size used for this page. */
  limit: number;
  /** Number of items before this page. */
  skip: number;
  readonly #fetchPage: (skip: number) => PagePromise<Item>;

  constructor(body: PageBody<Item>, fetchPage: (skip: number) => PagePromise<Item>) {
    this.data = body.data;
    this.total = body.total;
    this.limit = body.limit;
    this.skip = body.skip;
    this.#fetchPage = fetchPage;
  }

  /** True when items follow this page. An empty page ends the walk, even if `total` says otherwise. */
  hasNextPage(): boolean {
    return this.data.length > 0 && this.skip + this.data.length < this.total;
  }

  /** Fetches the page after this one, with the same limit, sort and request options. */
  getNextPage(): PagePromise<Item> {
    if (!this.hasNextPage()) {
      throw new DataPlatformError('No next page: check hasNextPage() before calling getNextPage()');
    }
    return this.#fetchPage(this.skip + this.data.length);
  }

  /** Yields this page and every later one. */
  async *iterPages(): AsyncGenerator<Page<Item>, void, undefined> {
    let page: Page<Item> = this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  /** Yields every item of this page and of every later one. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.iterPages()) yield* page.data;
  }
}

/**
 * What a list call returns: await it for the first page, or `for await` over it for every item of every page.
 * @example for await (const order of client.data.list('orders', { limit: 100 })) console.log(order._id);
 */
export class PagePromise<Item> extends APIPromise<Page<Item>> implements AsyncIterable<Item> {
  /** Yields every item of every page, fetching pages as the loop reaches them. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    yield* await this;
  }
}
