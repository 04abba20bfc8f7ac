import { type CollectionQuery, groupPlan, isGroupedQuery } from '@dataplatform/contract';
import type { Sql } from 'postgres';
import type { CollectionRef, DocumentRow } from '../documents.js';
import { groupedStatement } from '../group-sql.js';
import { plainSteps, postgresIndexExpression, postgresSortTerms } from '../index-expressions.js';
import type { QueryPlan, QueryResult, QueryStore } from '../query.js';
import { type CompareOp, type FieldRef, QuerySql } from '../query-sql.js';
import type { PostgresCollections } from './collections.js';

const COLUMNS = 'id, data::text AS data, created_at AS "createdAt", updated_at AS "updatedAt"';

/** A path for `jsonb_path_query_first`, told apart from a text[] path when it is bound. */
class JsonPath {
  constructor(readonly text: string) {}
}

/** PostgreSQL's form of a query: positional parameters, jsonb operators, strings in the "C" collation. */
export class PostgresQuerySql extends QuerySql {
  readonly params: unknown[] = [];
  protected readonly TRUE = 'true';
  protected readonly FALSE = 'false';
  protected readonly COLUMNS = COLUMNS;
  /** Placeholders bound to a jsonpath rather than a text[] path. */
  readonly #jsonpaths = new Set<string>();

  bind(value: unknown): string {
    const isPath = value instanceof JsonPath;
    // Numbers travel as their JavaScript text and are read as numeric: exact, like the stored jsonb numbers.
    this.params.push(typeof value === 'number' ? String(value) : isPath ? value.text : value);
    const placeholder = `$${this.params.length}`;
    if (isPath) this.#jsonpaths.add(placeholder);
    return placeholder;
  }

  protected pathValue(path: readonly string[]): unknown {
    // `#>` reads a step such as "0" as an index into an array, where the contract (and SQLite) find no field.
    // A strict jsonpath only follows object keys; it is slower, so it serves only paths with such a step.
    if (path.slice(1).some((step) => /^-?\d+$/.test(step))) {
      return new JsonPath(`strict $${path.map((step) => `.${JSON.stringify(step)}`).join('')}`);
    }
    return [...path];
  }

  /** While a grouping is written: each value it reads from `data`, by expression, and its column of the rows. */
  #rowValues: Map<string, string> | undefined;

  /** The jsonb value at a bound path (SQL NULL when missing). */
  private json(path: string): string {
    const value = this.#jsonpaths.has(path)
      ? `jsonb_path_query_first(data, ${path}::jsonpath, '{}', true)`
      : `(data #> ${path}::text[])`;
    if (!this.#rowValues) return value;
    const column = this.#rowValues.get(value) ?? `v${this.#rowValues.size}`;
    this.#rowValues.set(value, column);
    return column;
  }

  /**
   * Groups rows of a subquery that reads each path once per document. `OFFSET 0` keeps PostgreSQL from
   * merging it into the grouping, so the paths are not read again for every use; and knowing nothing of the
   * computed values, the planner expects few groups and hashes them, rather than sorting every document.
   */
  override groupSource<T>(
    collection: string,
    where: string | undefined,
    build: () => T,
  ): { from: string; value: T } {
    const values = new Map<string, string>();
    this.#rowValues = values;
    let value: T;
    try {
      value = build();
    } finally {
      this.#rowValues = undefined;
    }
    const columns = [
      'id',
      'created_at',
      'updated_at',
      ...[...values].map(([sql, name]) => `${sql} AS ${name}`),
    ];
    const filter = `collection_id = ${collection}${where ? ` AND ${where}` : ''}`;
    return { from: `(SELECT ${columns.join(', ')} FROM documents WHERE ${filter} OFFSET 0) AS r`, value };
  }

  /** The text of a string at a bound path, in the "C" collation (code point order, as the contract sorts). */
  private text(path: string): string {
    return `(${this.json(path)} #>> '{}') COLLATE "C"`;
  }

  /** CASE, not AND: PostgreSQL may evaluate AND's operands in any order, and a cast of the wrong type fails. */
  private ifType(path: string, type: string, then: string): string {
    return `(CASE WHEN jsonb_typeof(${this.json(path)}) = '${type}' THEN ${then} ELSE false END)`;
  }

  protected override indexTerm(
    steps: readonly string[],
    op: CompareOp,
    value: string | number | boolean,
  ): string | null {
    // In the index's own terms: the rank of the value's type, then the scalar column (jsonb numbers compare as
    // numbers) or, for strings, the constant scalar and the text in "C" order.
    const plain = plainSteps(steps);
    if (!plain || typeof value === 'boolean') return null;
    const [rank, scalar, text] = postgresSortTerms(postgresIndexExpression(plain));
    if (typeof value === 'string')
      return `(${rank} = 3 AND ${scalar} = 'null'::jsonb AND ${text} ${op} ${this.bind(value)}::text)`;
    // Bound as JSON text: postgres.js would send a number as a string to a jsonb parameter.
    return `(${rank} = 2 AND ${scalar} ${op} ${this.bind(JSON.stringify(value))}::text::jsonb)`;
  }

  protected compareJson(path: string, op: CompareOp, value: string | number | boolean): string {
    const json = this.json(path);
    if (typeof value === 'boolean')
      return this.ifType(path, 'boolean', `${json}::boolean = ${this.bind(value)}::boolean`);
    if (typeof value === 'number')
      return this.ifType(path, 'number', `${json}::numeric ${op} ${this.bind(value)}::numeric`);
    return this.ifType(path, 'string', `${this.text(path)} ${op} ${this.bind(value)}::text`);
  }

  protected compareColumn(column: string, op: CompareOp, value: string): string {
    return `(${column} COLLATE "C" ${op} ${this.bind(value)}::text)`;
  }

  protected inJson(path: string, values: readonly (string | number | boolean)[]): string {
    const json = this.json(path);
    if (typeof values[0] === 'boolean') {
      return this.ifType(
        path,
        'boolean',
        `${json}::boolean IN (${values.map((v) => `${this.bind(v)}::boolean`).join(', ')})`,
      );
    }
    if (typeof values[0] === 'number') {
      return this.ifType(
        path,
        'number',
        `${json}::numeric IN (${values.map((v) => `${this.bind(v)}::numeric`).join(', ')})`,
      );
    }
    return this.ifType(
      path,
      'string',
      `${this.text(path)} IN (${values.map((v) => `${this.bind(v)}::text`).join(', ')})`,
    );
  }

  protected inColumn(column: string, values: readonly string[]): string {
    return `(${column} COLLATE "C" IN (${values.map((v) => `${this.bind(v)}::text`).join(', ')}))`;
  }

  protected likeJson(path: string, pattern: string): string {
    return this.ifType(path, 'string', `${this.text(path)} LIKE ${this.bind(pattern)}::text`);
  }

  protected likeColumn(column: string, pattern: string): string {
    return `(${column} COLLATE "C" LIKE ${this.bind(pattern)}::text)`;
  }

  protected isNullJson(path: string): string {
    return `(COALESCE(jsonb_typeof(${this.json(path)}), 'null') = 'null')`;
  }

  protected orderJson(field: { path: string; steps: readonly string[] }): string[] {
    const plain = plainSteps(field.steps);
    // Inside a grouping the paths are read once, as columns of a subquery: no index serves those.
    return postgresSortTerms(
      plain && !this.#rowValues ? postgresIndexExpression(plain) : this.json(field.path),
    );
  }

  projection(fields: readonly { path: readonly string[]; as: string }[]): string {
    const pairs = fields.map(({ path, as }) => {
      const field = this.field(path);
      const value =
        field.kind === 'column'
          ? `to_jsonb(${field.column})`
          : field.kind === 'json'
            ? this.json(field.path)
            : 'NULL::jsonb';
      return `${this.bind(as)}::text, ${value}`;
    });
    return `json_build_object(${pairs.join(', ')})::text AS row`;
  }

  page(limit: number, skip: number): string {
    return `LIMIT ${this.bind(limit)}::bigint OFFSET ${this.bind(skip)}::bigint`;
  }

  groupKey(field: FieldRef): string {
    if (field.kind === 'missing') return 'NULL::jsonb';
    if (field.kind === 'column') return `to_jsonb(${field.column})`;
    const json = this.json(field.path);
    // jsonb equality keeps types apart (1 and "1", true and "true") and compares numbers as numbers.
    return `(CASE WHEN jsonb_typeof(${json}) IN ('string', 'number', 'boolean') THEN ${json} END)`;
  }

  keyJson(key: string): string {
    return key;
  }

  /** A number of the field, exact: numbers add exactly as numeric and are rounded to a double once. */
  protected numberOf(field: FieldRef): string {
    if (field.kind !== 'json') return 'NULL::numeric';
    const json = this.json(field.path);
    return `(CASE WHEN jsonb_typeof(${json}) = 'number' THEN ${json}::numeric END)`;
  }

  protected sumOf(fn: 'sum' | 'avg', numbers: string): string {
    return `${fn}(${numbers})::float8`;
  }

  protected extreme(fn: 'min' | 'max', field: FieldRef): string {
    // Still an aggregate: without GROUP BY, a select list with no aggregate would answer a row per document.
    if (field.kind === 'missing') return `to_jsonb(${fn}(NULL::text))`;
    if (field.kind === 'column') return `to_jsonb(${fn}(${field.column} COLLATE "C"))`;
    const json = this.json(field.path);
    const rank = `(CASE jsonb_typeof(${json}) WHEN 'boolean' THEN 1 WHEN 'number' THEN 2 WHEN 'string' THEN 3 END)`;
    const when = (r: number, value: string) => `(CASE WHEN ${rank} = ${r} THEN ${value} END)`;
    const booleans = `${fn === 'min' ? 'bool_and' : 'bool_or'}(${when(1, `${json}::boolean`)})`;
    const numbers = `${fn}(${when(2, `${json}::numeric`)})`;
    const strings = `${fn}(${when(3, `(${json} #>> '{}')`)} COLLATE "C")`;
    return `(CASE ${fn}(${rank}) WHEN 1 THEN to_jsonb(${booleans}) WHEN 2 THEN to_jsonb(${numbers}) WHEN 3 THEN to_jsonb(${strings}) END)`;
  }

  groupRow(columns: readonly [string, string][]): string {
    return `jsonb_build_object(${columns.map(([name, sql]) => `'${name}'::text, ${sql}`).join(', ')})`;
  }
}

/** The SQL helper's queries on PostgreSQL, with jsonb operators. */
export class PostgresQueries implements QueryStore {
  constructor(
    private readonly sql: Sql,
    private readonly collections: PostgresCollections,
  ) {}

  async run(ref: CollectionRef, query: CollectionQuery): Promise<QueryResult> {
    const collectionId = await this.collections.find(ref);
    const grouped = isGroupedQuery(query);
    const counting = query.select.kind === 'count';
    if (collectionId === undefined && !grouped) return counting ? { count: 0 } : { rows: [] };
    const { text, builder } = statementOf(collectionId, query);
    // Unnamed statements: query shapes vary too much for each connection to keep them prepared.
    const rows = await this.sql.unsafe<(DocumentRow & { row: string; n: string })[]>(
      text,
      builder.params as never[],
      {
        prepare: false,
      },
    );
    if (counting && !grouped) return { count: Number(rows[0]?.n ?? 0) };
    return query.select.kind === 'all' && !grouped ? { documents: rows } : { rows: rows.map((r) => r.row) };
  }

  async explain(ref: CollectionRef, query: CollectionQuery): Promise<QueryPlan> {
    const collectionId = await this.collections.find(ref);
    if (collectionId === undefined) return { indexes: [], plan: [] };
    const { text, builder } = statementOf(collectionId, query);
    const rows = await this.sql.unsafe<{ 'QUERY PLAN': string }[]>(
      `EXPLAIN ${text}`,
      builder.params as never[],
      {
        prepare: false,
      },
    );
    const plan = rows.map((row) => row['QUERY PLAN']);
    const engineNames = [
      ...new Set(plan.flatMap((line) => [...line.matchAll(/(dpx_[A-Za-z0-9_]+)/g)].map((m) => m[1]!))),
    ];
    const named = engineNames.length
      ? await this.sql.unsafe<{ name: string }[]>(
          'SELECT name FROM collection_indexes WHERE engine_name = ANY($1::text[])',
          [engineNames] as never[],
        )
      : [];
    return { indexes: named.map((row) => row.name), plan };
  }
}

/**
 * The statement of a collection query, and its builder (which holds the parameters). An unknown collection
 * (`undefined`) still has its one row of aggregates without GROUP BY: a NULL id matches nothing.
 */
function statementOf(collectionId: string | undefined, query: CollectionQuery) {
  const builder = new PostgresQuerySql();
  if (isGroupedQuery(query)) {
    const text = groupedStatement(builder, groupPlan(query), query, {
      collection: builder.bind(collectionId ?? null),
      where: query.where && builder.where(query.where),
    });
    return { text, builder };
  }
  const select = builder.select(query);
  let text = `SELECT ${select} FROM documents WHERE collection_id = ${builder.bind(collectionId ?? null)}`;
  if (query.where) text += ` AND ${builder.where(query.where)}`;
  if (query.select.kind !== 'count') {
    text += ` ORDER BY ${builder.orderBy(query.sort as { path: string[]; descending: boolean }[])}`;
    text += ` ${builder.page(query.limit, query.skip)}`;
  }
  return { text, builder };
}
