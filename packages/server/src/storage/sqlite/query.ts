import { type CollectionQuery, groupPlan, isGroupedQuery, likeTokens } from '@dataplatform/contract';
import type Database from 'better-sqlite3';
import type { CollectionRef, DocumentRow } from '../documents.js';
import { groupedStatement } from '../group-sql.js';
import { plainSteps, sqlitePathLiteral, sqliteSortTerms } from '../index-expressions.js';
import type { QueryPlan, QueryResult, QueryStore } from '../query.js';
import { type CompareOp, type FieldRef, QuerySql } from '../query-sql.js';
import { SqliteCollections } from './collections.js';

const COLUMNS = 'id, data, created_at AS createdAt, updated_at AS updatedAt';
const NUMBER_TYPES = "('integer', 'real')";

/**
 * A LIKE pattern as a GLOB pattern: GLOB is case-sensitive (SQLite's LIKE is not) and matches by character.
 * GLOB's own wildcards become one-character classes, so they match only themselves.
 */
export function likeToGlob(pattern: string): string {
  let glob = '';
  for (const token of likeTokens(pattern) ?? []) {
    if (token.kind === 'any') glob += '*';
    else if (token.kind === 'one') glob += '?';
    else if (token.text === '*' || token.text === '?' || token.text === '[') glob += `[${token.text}]`;
    else glob += token.text;
  }
  return glob;
}

/** SQLite's form of a query: named parameters, JSON paths with every step quoted and escaped. */
export class SqliteQuerySql extends QuerySql {
  readonly params: Record<string, unknown> = {};
  #next = 0;
  protected readonly TRUE = '1';
  protected readonly FALSE = '0';
  protected readonly COLUMNS = COLUMNS;

  bind(value: unknown): string {
    const name = `p${this.#next++}`;
    // better-sqlite3 binds no booleans; the JSON types they are compared with are the strings 'true' and 'false'.
    this.params[name] = typeof value === 'boolean' ? String(value) : value;
    return `@${name}`;
  }

  protected pathValue(path: readonly string[]): string {
    return `$${path.map((step) => `.${JSON.stringify(step)}`).join('')}`;
  }

  protected override indexTerm(
    steps: readonly string[],
    op: CompareOp,
    value: string | number | boolean,
  ): string | null {
    // In the index's own terms: the rank of the value's type, then json_extract's value, compared as the exact
    // term compares it (strings as text, numbers as numbers).
    const plain = plainSteps(steps);
    if (!plain || typeof value === 'boolean') return null;
    const [rank, stored] = sqliteSortTerms(sqlitePathLiteral(plain));
    return `(${rank} = ${typeof value === 'string' ? 3 : 2} AND ${stored} ${op} ${this.bind(value)})`;
  }

  protected compareJson(path: string, op: CompareOp, value: string | number | boolean): string {
    const type = `json_type(data, ${path})`;
    // Booleans compare by their JSON type name; only = reaches here for them.
    if (typeof value === 'boolean') return `COALESCE(${type} = ${this.bind(value)}, 0)`;
    const types = typeof value === 'string' ? "('text')" : NUMBER_TYPES;
    return `COALESCE(${type} IN ${types} AND json_extract(data, ${path}) ${op} ${this.bind(value)}, 0)`;
  }

  protected compareColumn(column: string, op: CompareOp, value: string): string {
    return `(${column} ${op} ${this.bind(value)})`;
  }

  protected inJson(path: string, values: readonly (string | number | boolean)[]): string {
    const type = `json_type(data, ${path})`;
    const list = values.map((v) => this.bind(v)).join(', ');
    if (typeof values[0] === 'boolean') return `COALESCE(${type} IN (${list}), 0)`;
    const types = typeof values[0] === 'string' ? "('text')" : NUMBER_TYPES;
    return `COALESCE(${type} IN ${types} AND json_extract(data, ${path}) IN (${list}), 0)`;
  }

  protected inColumn(column: string, values: readonly string[]): string {
    return `(${column} IN (${values.map((v) => this.bind(v)).join(', ')}))`;
  }

  protected likeJson(path: string, pattern: string): string {
    return `COALESCE(json_type(data, ${path}) = 'text' AND json_extract(data, ${path}) GLOB ${this.bind(likeToGlob(pattern))}, 0)`;
  }

  protected likeColumn(column: string, pattern: string): string {
    return `(${column} GLOB ${this.bind(likeToGlob(pattern))})`;
  }

  protected isNullJson(path: string): string {
    return `(COALESCE(json_type(data, ${path}), 'null') = 'null')`;
  }

  protected orderJson(field: { path: string; steps: readonly string[] }): string[] {
    const plain = plainSteps(field.steps);
    return sqliteSortTerms(plain ? sqlitePathLiteral(plain) : field.path);
  }

  projection(fields: readonly { path: readonly string[]; as: string }[]): string {
    const pairs = fields.map(({ path, as }) => {
      const field = this.field(path);
      const value =
        field.kind === 'column' ? field.column : field.kind === 'json' ? `data -> ${field.path}` : 'NULL';
      return `${this.bind(as)}, ${value}`;
    });
    return `json_object(${pairs.join(', ')}) AS row`;
  }

  page(limit: number, skip: number): string {
    return `LIMIT ${this.bind(limit)} OFFSET ${this.bind(skip)}`;
  }

  groupKey(field: FieldRef): string {
    if (field.kind === 'missing') return 'NULL';
    if (field.kind === 'column') return field.column;
    // Booleans become the blobs x'01' and x'02' (JSONB's true and false), apart from every number and text.
    return `(CASE json_type(data, ${field.path}) WHEN 'true' THEN x'01' WHEN 'false' THEN x'02' WHEN 'array' THEN NULL WHEN 'object' THEN NULL ELSE json_extract(data, ${field.path}) END)`;
  }

  keyJson(key: string): string {
    return `json(CASE WHEN typeof(${key}) = 'blob' THEN ${key} ELSE json_quote(${key}) END)`;
  }

  /** A number of the field as a double: doubles make sum() compensate and never overflow. */
  protected numberOf(field: FieldRef): string {
    if (field.kind !== 'json') return 'NULL';
    return `(CASE WHEN json_type(data, ${field.path}) IN ${NUMBER_TYPES} THEN CAST(json_extract(data, ${field.path}) AS REAL) END)`;
  }

  protected sumOf(fn: 'sum' | 'avg', numbers: string): string {
    return `${fn}(${numbers})`;
  }

  protected extreme(fn: 'min' | 'max', field: FieldRef): string {
    // Still an aggregate: without GROUP BY, a select list with no aggregate would answer a row per document.
    if (field.kind === 'missing') return `${fn}(NULL)`;
    if (field.kind === 'column') return `json_quote(${fn}(${field.column}))`;
    const type = `json_type(data, ${field.path})`;
    const rank = `(CASE ${type} WHEN 'true' THEN 1 WHEN 'false' THEN 1 WHEN 'integer' THEN 2 WHEN 'real' THEN 2 WHEN 'text' THEN 3 END)`;
    const of = (r: number) => `${fn}(CASE WHEN ${rank} = ${r} THEN json_extract(data, ${field.path}) END)`;
    return `json(CASE ${fn}(${rank}) WHEN 1 THEN (CASE ${of(1)} WHEN 1 THEN 'true' ELSE 'false' END) WHEN 2 THEN json_quote(${of(2)}) WHEN 3 THEN json_quote(${of(3)}) END)`;
  }

  groupRow(columns: readonly [string, string][]): string {
    return `json_object(${columns.map(([name, sql]) => `'${name}', ${sql}`).join(', ')})`;
  }
}

// Statements are cached by their text; queries come in many shapes, so the cache is emptied when it grows.
const MAX_CACHED = 256;

/**
 * The statement of a collection query, and its builder (which holds the parameters). An unknown collection
 * (`undefined`) still has its one row of aggregates without GROUP BY: a NULL id matches nothing.
 */
function statementOf(
  collectionId: number | undefined,
  query: CollectionQuery,
): { sql: string; builder: SqliteQuerySql } {
  const builder = new SqliteQuerySql();
  if (isGroupedQuery(query)) {
    const sql = groupedStatement(builder, groupPlan(query), query, {
      collection: builder.bind(collectionId ?? null),
      where: query.where && builder.where(query.where),
    });
    return { sql, builder };
  }
  const select = builder.select(query);
  let sql = `SELECT ${select} FROM documents WHERE collection_id = ${builder.bind(collectionId ?? null)}`;
  if (query.where) sql += ` AND ${builder.where(query.where)}`;
  if (query.select.kind !== 'count') {
    sql += ` ORDER BY ${builder.orderBy(query.sort as { path: string[]; descending: boolean }[])}`;
    sql += ` ${builder.page(query.limit, query.skip)}`;
  }
  return { sql, builder };
}

/** The SQL helper's queries on SQLite, with the JSON functions. */
export class SqliteQueries implements QueryStore {
  private readonly collections: SqliteCollections;
  private readonly statements = new Map<string, Database.Statement>();

  private readonly indexName: Database.Statement<[string], { name: string }>;

  constructor(private readonly db: Database.Database) {
    this.collections = new SqliteCollections(db);
    this.indexName = db.prepare('SELECT name FROM collection_indexes WHERE engine_name = ?');
  }

  async run(ref: CollectionRef, query: CollectionQuery): Promise<QueryResult> {
    const collectionId = this.collections.find(ref);
    const grouped = isGroupedQuery(query);
    const counting = query.select.kind === 'count';
    if (collectionId === undefined && !grouped) return counting ? { count: 0 } : { rows: [] };
    const { sql, builder } = statementOf(collectionId, query);
    const statement = this.prepare(sql);
    if (grouped) return { rows: (statement.all(builder.params) as { row: string }[]).map((r) => r.row) };
    if (counting) return { count: (statement.get(builder.params) as { n: number }).n };
    const rows = statement.all(builder.params) as (DocumentRow & { row: string })[];
    return query.select.kind === 'all' ? { documents: rows } : { rows: rows.map((r) => r.row) };
  }

  async explain(ref: CollectionRef, query: CollectionQuery): Promise<QueryPlan> {
    const collectionId = this.collections.find(ref);
    if (collectionId === undefined) return { indexes: [], plan: [] };
    const { sql, builder } = statementOf(collectionId, query);
    const plan = (
      this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(builder.params) as { detail: string }[]
    ).map((row) => row.detail);
    const engineNames = new Set(
      plan.flatMap((line) => [...line.matchAll(/INDEX (dpx_[A-Za-z0-9_]+)/g)].map((m) => m[1]!)),
    );
    const indexes = [...engineNames].flatMap((engineName) => {
      const row = this.indexName.get(engineName);
      return row ? [row.name] : [];
    });
    return { indexes, plan };
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= MAX_CACHED) this.statements.clear();
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
