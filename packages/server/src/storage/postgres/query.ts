import type { CollectionQuery } from '@dataplatform/contract';
import type { Sql } from 'postgres';
import type { CollectionRef, DocumentRow } from '../documents.js';
import { plainSteps, postgresIndexExpression } from '../index-expressions.js';
import type { QueryPlan, QueryResult, QueryStore } from '../query.js';
import { type CompareOp, QuerySql } from '../query-sql.js';
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

  /** The jsonb value at a bound path (SQL NULL when missing). */
  private json(path: string): string {
    return this.#jsonpaths.has(path)
      ? `jsonb_path_query_first(data, ${path}::jsonpath, '{}', true)`
      : `(data #> ${path}::text[])`;
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
    // jsonb equality is the exact term's for strings and numbers; jsonb order matches it for numbers only.
    const plain = plainSteps(steps);
    if (!plain || typeof value === 'boolean' || (op !== '=' && typeof value !== 'number')) return null;
    // Bound as JSON text: postgres.js would send a number as a string to a jsonb parameter.
    return `${postgresIndexExpression(plain)} ${op} ${this.bind(JSON.stringify(value))}::text::jsonb`;
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

  protected orderJson(path: string, direction: 'ASC' | 'DESC'): string[] {
    // The same terms as the list route: type rank, then booleans and numbers as jsonb, then strings in "C".
    const value = this.json(path);
    return [
      `(CASE jsonb_typeof(${value}) WHEN 'boolean' THEN 1 WHEN 'number' THEN 2 WHEN 'string' THEN 3 WHEN 'array' THEN 4 WHEN 'object' THEN 4 ELSE 0 END) ${direction}`,
      `(CASE WHEN jsonb_typeof(${value}) IN ('boolean', 'number') THEN ${value} END) ${direction}`,
      `(CASE WHEN jsonb_typeof(${value}) = 'string' THEN ${this.text(path)} END) ${direction}`,
    ];
  }

  /** The select list: whole rows, `json_build_object(key, value, …)` per row (keys in order), or count(*). */
  select(query: CollectionQuery): string {
    if (query.select.kind === 'all') return COLUMNS;
    if (query.select.kind === 'count') return 'count(*) AS n';
    const pairs = query.select.fields.map(({ path, as }) => {
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
}

/** The SQL helper's queries on PostgreSQL, with jsonb operators. */
export class PostgresQueries implements QueryStore {
  constructor(
    private readonly sql: Sql,
    private readonly collections: PostgresCollections,
  ) {}

  async run(ref: CollectionRef, query: CollectionQuery): Promise<QueryResult> {
    const collectionId = await this.collections.find(ref);
    const counting = query.select.kind === 'count';
    if (collectionId === undefined) return counting ? { count: 0 } : { rows: [] };
    const { text, builder } = statementOf(collectionId, query);
    // Unnamed statements: query shapes vary too much for each connection to keep them prepared.
    const rows = await this.sql.unsafe<(DocumentRow & { row: string; n: string })[]>(
      text,
      builder.params as never[],
      {
        prepare: false,
      },
    );
    if (counting) return { count: Number(rows[0]?.n ?? 0) };
    return query.select.kind === 'all' ? { documents: rows } : { rows: rows.map((r) => r.row) };
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

/** The statement of a collection query, and its builder (which holds the parameters). */
function statementOf(collectionId: string, query: CollectionQuery) {
  const counting = query.select.kind === 'count';
  const builder = new PostgresQuerySql();
  const select = builder.select(query);
  let text = `SELECT ${select} FROM documents WHERE collection_id = ${builder.bind(collectionId)}`;
  if (query.where) text += ` AND ${builder.where(query.where)}`;
  if (!counting) {
    text += ` ORDER BY ${builder.orderBy(query.sort)}`;
    text += ` LIMIT ${builder.bind(query.limit)}::bigint OFFSET ${builder.bind(query.skip)}::bigint`;
  }
  return { text, builder };
}
