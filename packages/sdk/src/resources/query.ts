import type { SqlResponse, StoredDocument } from '../contract-types.js';
import { DataPlatformError } from '../core/error.js';
import type { RequestOptions } from '../internal/request-options.js';
import type { AnyDocument, Data } from './data.js';
import { GroupedQueryBuilder } from './grouped-query.js';
import { type Condition, conditionText, quotePath, wholeNumber } from './sql-text.js';

/** A value a condition compares with; it always travels as a bound parameter, never in the SQL text. */
export type SqlParam = string | number | boolean | null;

/** Operators of `where(field, op, value)`. */
export type WhereOperator = '=' | '!=' | '<' | '<=' | '>' | '>=' | 'like' | 'not like';

/** A field of `T` (dotted paths reach nested fields), with any other path allowed too. */
export type FieldName<T> = (keyof T & string) | (string & {});

/** The SQL of a built query, as sent to the SQL helper. */
export interface CompiledQuery {
  sql: string;
  params: SqlParam[];
}

interface State {
  collection: string;
  conditions: Condition[];
  order: string[];
  fields: string[];
  limit?: number;
  offset?: number;
}

/**
 * A query on one collection, compiled to the SQL helper with every value bound as a `?` parameter. Each method
 * returns a new builder; await it for `{ data, query }`, or call `.count()` or `.toSQL()`. Rows are stored
 * documents (`R`), or plain objects keyed by dotted path after `select()`.
 * @example const { data } = await client.data.query<Order>('orders').where('total', '>', 100).orderBy('-total').limit(10);
 */
export class QueryBuilder<T extends object = AnyDocument, R extends object = StoredDocument<T>>
  implements PromiseLike<SqlResponse<R>>
{
  readonly #data: Data;
  readonly #state: State;
  readonly #options: RequestOptions | undefined;

  constructor(data: Data, collection: string, options?: RequestOptions, state?: State) {
    if (!/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(collection)) {
      throw new DataPlatformError(`Invalid collection name ${JSON.stringify(collection)}`);
    }
    this.#data = data;
    this.#options = options;
    this.#state = state ?? { collection, conditions: [], order: [], fields: [] };
  }

  #with(change: Partial<State>): QueryBuilder<T, R> {
    return new QueryBuilder<T, R>(this.#data, this.#state.collection, this.#options, {
      ...this.#state,
      ...change,
    });
  }

  /** Adds a condition, joined to the others with AND: `where('total', '>', 100)`, `where('tag', 'in', ['a', 'b'])`. */
  where(field: FieldName<T>, op: WhereOperator, value: SqlParam): QueryBuilder<T, R>;
  where(field: FieldName<T>, op: 'in' | 'not in', values: readonly SqlParam[]): QueryBuilder<T, R>;
  where(field: FieldName<T>, op: 'between', values: readonly [SqlParam, SqlParam]): QueryBuilder<T, R>;
  where(field: FieldName<T>, op: 'is null' | 'is not null'): QueryBuilder<T, R>;
  where(field: string, op: string, value?: SqlParam | readonly SqlParam[]): QueryBuilder<T, R> {
    return this.#with({ conditions: [...this.#state.conditions, conditionText(field, op, value)] });
  }

  /**
   * Groups the matches by these fields (none: every match is one group); add aggregates to the result:
   * `query('orders').groupBy('status').count().sum('total')` answers `[{ status, 'COUNT(*)', 'SUM(total)' }]`.
   */
  groupBy(...fields: FieldName<T>[]): GroupedQueryBuilder<T> {
    const { collection, conditions } = this.#state;
    return new GroupedQueryBuilder<T>(this.#data, collection, this.#options, conditions, fields);
  }

  /** Sorts by fields, `-` for descending: `orderBy('-_createdAt', 'name')`. */
  orderBy(...fields: FieldName<T>[]): QueryBuilder<T, R> {
    const order = fields.map((f) =>
      f.startsWith('-') ? `${quotePath(f.slice(1))} DESC` : `${quotePath(f)} ASC`,
    );
    return this.#with({ order: [...this.#state.order, ...order] });
  }

  /** Answers only these fields, keyed by their dotted path: `select('total', 'customer.name')`. */
  select(...fields: FieldName<T>[]): QueryBuilder<T, Record<string, unknown>> {
    const state = { ...this.#state, fields: [...this.#state.fields, ...fields.map(quotePath)] };
    return new QueryBuilder<T, Record<string, unknown>>(this.#data, state.collection, this.#options, state);
  }

  /** At most this many rows (0 to 1000; the server's default is 100). */
  limit(count: number): QueryBuilder<T, R> {
    return this.#with({ limit: wholeNumber(count, 'limit', 1000) });
  }

  /** Skips this many rows first. */
  offset(count: number): QueryBuilder<T, R> {
    return this.#with({ offset: wholeNumber(count, 'offset', Number.MAX_SAFE_INTEGER) });
  }

  #compile(select: string, paging: boolean): CompiledQuery {
    const { collection, conditions, order, limit, offset } = this.#state;
    let sql = `SELECT ${select} FROM "${collection}"`;
    if (conditions.length > 0) sql += ` WHERE ${conditions.map((c) => `(${c.text})`).join(' AND ')}`;
    if (paging && order.length > 0) sql += ` ORDER BY ${order.join(', ')}`;
    if (paging && limit !== undefined) sql += ` LIMIT ${limit}`;
    if (paging && offset !== undefined) sql += ` OFFSET ${offset}`;
    return { sql, params: conditions.flatMap((c) => c.params) };
  }

  /** The statement and parameters this builder sends. */
  toSQL(): CompiledQuery {
    const fields = this.#state.fields;
    return this.#compile(fields.length > 0 ? fields.join(', ') : '*', true);
  }

  /** The number of documents matching the conditions (ORDER BY, LIMIT and OFFSET do not apply). */
  async count(): Promise<number> {
    const { sql, params } = this.#compile('COUNT(*)', false);
    const answer = await this.#data.sql<{ count: number }>(sql, params, this.#options);
    return answer.data[0]?.count ?? 0;
  }

  // biome-ignore lint/suspicious/noThenProperty: the builder is awaitable by design, like a query in Supabase or Knex.
  then<R1 = SqlResponse<R>, R2 = never>(
    onfulfilled?: ((value: SqlResponse<R>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    const { sql, params } = this.toSQL();
    return this.#data.sql<R>(sql, params, this.#options).then(onfulfilled, onrejected);
  }
}
