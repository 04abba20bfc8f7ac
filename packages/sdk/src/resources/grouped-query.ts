import type { SqlResponse } from '../contract-types.js';
import { DataPlatformError } from '../core/error.js';
import type { RequestOptions } from '../internal/request-options.js';
import type { AnyDocument, Data } from './data.js';
import type { CompiledQuery, FieldName, SqlParam, WhereOperator } from './query.js';
import { type Condition, conditionText, quoteAlias, quotePath, wholeNumber } from './sql-text.js';

/** A row of a grouped query: the grouped fields and aggregates, keyed by dotted path, alias or aggregate text. */
export type GroupRow = Record<string, unknown>;

interface State {
  collection: string;
  conditions: readonly Condition[];
  groups: readonly string[];
  aggregates: readonly string[];
  having: readonly Condition[];
  order: readonly string[];
  limit?: number;
  offset?: number;
}

/**
 * A grouped query built by `query(...).groupBy(...)`: one row per group with the grouped fields, then the
 * aggregates added by `count()`, `sum(field)`, … in order, each keyed by its alias or its text (`COUNT(*)`,
 * `SUM(total)`). Each method returns a new builder; await it for `{ data, query }`.
 * @example await client.data.query('orders').where('total', '>', 0).groupBy('status').count('n').sum('total').having('n', '>', 1);
 */
export class GroupedQueryBuilder<T extends object = AnyDocument>
  implements PromiseLike<SqlResponse<GroupRow>>
{
  readonly #data: Data;
  readonly #options: RequestOptions | undefined;
  readonly #state: State;

  constructor(
    data: Data,
    collection: string,
    options: RequestOptions | undefined,
    conditions: readonly Condition[],
    fields: readonly string[],
    state?: State,
  ) {
    this.#data = data;
    this.#options = options;
    this.#state = state ?? {
      collection,
      conditions,
      groups: fields.map(quotePath),
      aggregates: [],
      having: [],
      order: [],
    };
  }

  #with(change: Partial<State>): GroupedQueryBuilder<T> {
    const state = { ...this.#state, ...change };
    return new GroupedQueryBuilder<T>(this.#data, state.collection, this.#options, [], [], state);
  }

  #aggregate(text: string, alias: string | undefined): GroupedQueryBuilder<T> {
    const column = alias === undefined ? text : `${text} AS ${quoteAlias(alias)}`;
    return this.#with({ aggregates: [...this.#state.aggregates, column] });
  }

  /** Adds `COUNT(*)`: the documents of each group. */
  count(alias?: string): GroupedQueryBuilder<T> {
    return this.#aggregate('COUNT(*)', alias);
  }

  /** Adds `COUNT(field)`: the documents of each group where the field holds a string, number or boolean. */
  countField(field: FieldName<T>, alias?: string): GroupedQueryBuilder<T> {
    return this.#aggregate(`COUNT(${quotePath(field)})`, alias);
  }

  /** Adds `COUNT(DISTINCT field)`: the different values of the field in each group. */
  countDistinct(field: FieldName<T>, alias?: string): GroupedQueryBuilder<T> {
    return this.#aggregate(`COUNT(DISTINCT ${quotePath(field)})`, alias);
  }

  /** Adds `SUM(field)`: the sum of the field's numbers (strings and booleans are skipped; null when none). */
  sum(field: FieldName<T>, alias?: string): GroupedQueryBuilder<T> {
    return this.#aggregate(`SUM(${quotePath(field)})`, alias);
  }

  /** Adds `AVG(field)`: the mean of the field's numbers. */
  avg(field: FieldName<T>, alias?: string): GroupedQueryBuilder<T> {
    return this.#aggregate(`AVG(${quotePath(field)})`, alias);
  }

  /** Adds `MIN(field)`, in the order of ORDER BY (booleans < numbers < strings). */
  min(field: FieldName<T>, alias?: string): GroupedQueryBuilder<T> {
    return this.#aggregate(`MIN(${quotePath(field)})`, alias);
  }

  /** Adds `MAX(field)`, in the order of ORDER BY. */
  max(field: FieldName<T>, alias?: string): GroupedQueryBuilder<T> {
    return this.#aggregate(`MAX(${quotePath(field)})`, alias);
  }

  /** Keeps the groups matching a condition on a grouped field or an alias: `count('n').having('n', '>', 1)`. */
  having(name: string, op: WhereOperator, value: SqlParam): GroupedQueryBuilder<T>;
  having(name: string, op: 'in' | 'not in', values: readonly SqlParam[]): GroupedQueryBuilder<T>;
  having(name: string, op: 'between', values: readonly [SqlParam, SqlParam]): GroupedQueryBuilder<T>;
  having(name: string, op: 'is null' | 'is not null'): GroupedQueryBuilder<T>;
  having(name: string, op: string, value?: SqlParam | readonly SqlParam[]): GroupedQueryBuilder<T> {
    return this.#with({ having: [...this.#state.having, conditionText(name, op, value)] });
  }

  /** Sorts by grouped fields or aliases, `-` for descending: `orderBy('-n', 'status')`. */
  orderBy(...names: string[]): GroupedQueryBuilder<T> {
    const order = names.map((n) =>
      n.startsWith('-') ? `${quotePath(n.slice(1))} DESC` : `${quotePath(n)} ASC`,
    );
    return this.#with({ order: [...this.#state.order, ...order] });
  }

  /** At most this many groups (0 to 1000; the server's default is 100). */
  limit(count: number): GroupedQueryBuilder<T> {
    return this.#with({ limit: wholeNumber(count, 'limit', 1000) });
  }

  /** Skips this many groups first. */
  offset(count: number): GroupedQueryBuilder<T> {
    return this.#with({ offset: wholeNumber(count, 'offset', Number.MAX_SAFE_INTEGER) });
  }

  /** The statement and parameters this builder sends. */
  toSQL(): CompiledQuery {
    const { collection, conditions, groups, aggregates, having, order, limit, offset } = this.#state;
    const columns = [...groups, ...aggregates];
    if (columns.length === 0) {
      throw new DataPlatformError(
        'A grouped query needs a grouped field or an aggregate: groupBy(field) or count()',
      );
    }
    let sql = `SELECT ${columns.join(', ')} FROM "${collection}"`;
    if (conditions.length > 0) sql += ` WHERE ${conditions.map((c) => `(${c.text})`).join(' AND ')}`;
    if (groups.length > 0) sql += ` GROUP BY ${groups.join(', ')}`;
    if (having.length > 0) sql += ` HAVING ${having.map((c) => `(${c.text})`).join(' AND ')}`;
    if (order.length > 0) sql += ` ORDER BY ${order.join(', ')}`;
    if (limit !== undefined) sql += ` LIMIT ${limit}`;
    if (offset !== undefined) sql += ` OFFSET ${offset}`;
    return { sql, params: [...conditions, ...having].flatMap((c) => c.params) };
  }

  // biome-ignore lint/suspicious/noThenProperty: the builder is awaitable by design, like QueryBuilder.
  then<R1 = SqlResponse<GroupRow>, R2 = never>(
    onfulfilled?: ((value: SqlResponse<GroupRow>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    let compiled: CompiledQuery;
    try {
      compiled = this.toSQL();
    } catch (error) {
      return Promise.reject(error).then(onfulfilled, onrejected);
    }
    return this.#data
      .sql<GroupRow>(compiled.sql, compiled.params, this.#options)
      .then(onfulfilled, onrejected);
  }
}
