import type { CollectionQuery, SqlAggregate, SqlCondition, SqlValue } from '@dataplatform/contract';

/** Where a field of a query lives: a system column, a path inside the JSON data, or nowhere (always missing). */
export type FieldRef =
  | { kind: 'column'; column: string }
  | { kind: 'json'; path: string; steps: readonly string[] }
  | { kind: 'missing' };

/** Comparison operators of SQL, by the contract's name. */
export type CompareOp = '=' | '<' | '<=' | '>' | '>=';

/** Fields stored as columns rather than inside the JSON text, by their public name. */
const SYSTEM_COLUMNS: Readonly<Record<string, string>> = {
  _id: 'id',
  _createdAt: 'created_at',
  _updatedAt: 'updated_at',
};

const COMPARE: Record<string, CompareOp> = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' };

/** The largest double: a SUM or AVG beyond it (an infinity on SQLite) is no value, as in the contract. */
const MAX_DOUBLE = '1.7976931348623157e308';

/**
 * Joins terms with AND or OR as a balanced tree: SQLite refuses expressions nested over 1000 deep, and a flat
 * chain of a thousand terms is parsed that deep.
 */
function balanced(terms: readonly string[], operator: string): string {
  if (terms.length <= 8) return terms.length === 1 ? terms[0]! : `(${terms.join(operator)})`;
  const half = Math.ceil(terms.length / 2);
  return `(${balanced(terms.slice(0, half), operator)}${operator}${balanced(terms.slice(half), operator)})`;
}

/**
 * Builds the WHERE, ORDER BY and select parts of one collection query for one engine. Everything taken from
 * the query is bound through `bind`, so the text is made of this class's fixed fragments only. Every
 * predicate it writes is true or false, never NULL, which keeps NOT and the contract's two-valued logic alike.
 */
export abstract class QuerySql {
  /** Binds a value and returns its placeholder. */
  abstract bind(value: unknown): string;
  /** The engine's form of a JSON path, bound as one parameter. */
  protected abstract pathValue(path: readonly string[]): unknown;
  /** True when the JSON value at `path` has the value's type and compares with it by `op`. */
  protected abstract compareJson(path: string, op: CompareOp, value: string | number | boolean): string;
  /** The same for a text column (a system field); `value` is a string. */
  protected abstract compareColumn(column: string, op: CompareOp, value: string): string;
  /** True when the JSON value at `path` is a string matching the LIKE pattern, case-sensitively. */
  protected abstract likeJson(path: string, pattern: string): string;
  protected abstract likeColumn(column: string, pattern: string): string;
  /** True when the JSON value at `path` has the type of `values` (all of one type) and equals one of them. */
  protected abstract inJson(path: string, values: readonly (string | number | boolean)[]): string;
  protected abstract inColumn(column: string, values: readonly string[]): string;
  /** True when the JSON value at `path` is missing or null. */
  protected abstract isNullJson(path: string): string;
  /**
   * ORDER BY terms (without direction) for a JSON field in the contract's sort order (see typeRank): written with
   * the path itself when its steps are plain, so that they match the columns of an index over it.
   */
  protected abstract orderJson(field: { path: string; steps: readonly string[] }): string[];
  /**
   * A term an expression index over the path can serve (`plainSteps` only, written with the index's own
   * expression), implied by the exact comparison: it narrows what the engine reads and never changes the answer.
   * Null when the engine has no such term for this comparison.
   */
  protected indexTerm(
    _steps: readonly string[],
    _op: CompareOp,
    _value: string | number | boolean,
  ): string | null {
    return null;
  }
  protected abstract readonly TRUE: string;
  protected abstract readonly FALSE: string;

  /**
   * What a field gives to GROUP BY: its string, number or boolean as the engine compares them, each type
   * apart, or NULL for a missing field, null, an array or an object (the contract's `scalarAt`).
   */
  abstract groupKey(field: FieldRef): string;
  /** A group key (as groupKey wrote it) as a JSON value of the group row. */
  abstract keyJson(key: string): string;
  /** A JSON number of the field as the engine adds it, or NULL for any other value. */
  protected abstract numberOf(field: FieldRef): string;
  /** SUM or AVG of `numbers` (the sum is known to be finite) as a double. */
  protected abstract sumOf(fn: 'sum' | 'avg', numbers: string): string;
  /** MIN or MAX in the list route's order, as a JSON value: the extreme type rank, then its extreme value. */
  protected abstract extreme(fn: 'min' | 'max', field: FieldRef): string;
  /** A JSON object of the group row from its columns; names are the plan's `k<i>` and `a<i>`, never user text. */
  abstract groupRow(columns: readonly [name: string, sql: string][]): string;
  /** One answered row: a JSON object of the fields of `data`, keyed by their aliases (bound). */
  abstract projection(fields: readonly { path: readonly string[]; as: string }[]): string;
  /** LIMIT and OFFSET with bound values. */
  abstract page(limit: number, skip: number): string;
  /** The columns of whole documents. */
  protected abstract readonly COLUMNS: string;

  /** The select list of a query over documents: whole rows, one JSON object per row, or count(*). */
  select(query: CollectionQuery): string {
    if (query.select.kind === 'all') return this.COLUMNS;
    if (query.select.kind === 'count') return 'count(*) AS n';
    if (query.select.kind === 'fields') return this.projection(query.select.fields);
    throw new Error('Grouped queries are built by groupedStatement');
  }

  /** An aggregate over the documents of a group, as a JSON value of the group row; `field` reads its path. */
  aggregate(aggregate: SqlAggregate, field: FieldRef | undefined): string {
    if (!field) return 'count(*)';
    switch (aggregate.fn) {
      case 'count':
        return `count(${aggregate.distinct ? 'DISTINCT ' : ''}${this.groupKey(field)})`;
      case 'sum':
      case 'avg': {
        const numbers = this.numberOf(field);
        return `(CASE WHEN abs(sum(${numbers})) <= ${MAX_DOUBLE} THEN ${this.sumOf(aggregate.fn, numbers)} END)`;
      }
      case 'min':
      case 'max':
        return this.extreme(aggregate.fn, field);
    }
  }

  /**
   * The rows a grouped query groups: the collection's documents that pass WHERE (`where`, already written).
   * `build` writes the grouping's expressions over them; an engine may make them read other columns.
   */
  groupSource<T>(collection: string, where: string | undefined, build: () => T): { from: string; value: T } {
    const value = build();
    return { from: `documents WHERE collection_id = ${collection}${where ? ` AND ${where}` : ''}`, value };
  }

  /** A field of the query: system fields are columns; a path below one of them never exists. */
  field(path: readonly string[]): FieldRef {
    const column = path.length === 1 ? SYSTEM_COLUMNS[path[0]!] : undefined;
    if (column) return { kind: 'column', column };
    if (path[0]! in SYSTEM_COLUMNS) return { kind: 'missing' };
    // Bound on first use: PostgreSQL refuses a statement with a parameter it never sees (as in `a = NULL`).
    let placeholder: string | undefined;
    const bind = () => {
      placeholder ??= this.bind(this.pathValue(path));
      return placeholder;
    };
    return {
      kind: 'json',
      steps: path,
      get path() {
        return bind();
      },
    };
  }

  private compare(field: FieldRef, op: CompareOp, value: SqlValue): string {
    // `= NULL` is never true, and a system field is a string, so other types never match it.
    if (value === null || field.kind === 'missing') return this.FALSE;
    if (field.kind === 'column') {
      return typeof value === 'string' ? this.compareColumn(field.column, op, value) : this.FALSE;
    }
    const exact = this.compareJson(field.path, op, value);
    const served = this.indexTerm(field.steps, op, value);
    // Both are true together or the served term is not (false or NULL): AND keeps the exact term's answer.
    return served ? `(${served} AND ${exact})` : exact;
  }

  private like(field: FieldRef, pattern: SqlValue): string {
    if (typeof pattern !== 'string' || field.kind === 'missing') return this.FALSE;
    return field.kind === 'column'
      ? this.likeColumn(field.column, pattern)
      : this.likeJson(field.path, pattern);
  }

  /** One SQL IN list per JSON type of the values (nulls never match), so a long list stays one shallow term. */
  private in(field: FieldRef, values: readonly SqlValue[]): string {
    const byType = new Map<string, (string | number | boolean)[]>();
    for (const value of values) {
      if (value === null) continue;
      byType.set(typeof value, [...(byType.get(typeof value) ?? []), value]);
    }
    if (field.kind === 'missing' || byType.size === 0) return this.FALSE;
    if (field.kind === 'column') {
      const strings = (byType.get('string') ?? []) as string[];
      return strings.length === 0 ? this.FALSE : this.inColumn(field.column, strings);
    }
    return balanced(
      [...byType.values()].map((list) => this.inJson(field.path, list)),
      ' OR ',
    );
  }

  private isNull(field: FieldRef): string {
    if (field.kind === 'missing') return this.TRUE;
    return field.kind === 'column' ? this.FALSE : this.isNullJson(field.path);
  }

  /** The condition as one SQL boolean expression. */
  where(condition: SqlCondition): string {
    switch (condition.op) {
      case 'and':
      case 'or':
        return balanced(
          condition.conditions.map((c) => this.where(c)),
          ` ${condition.op.toUpperCase()} `,
        );
      case 'not':
        return `(NOT ${this.where(condition.condition)})`;
    }
    const field = this.field(condition.path);
    switch (condition.op) {
      case 'eq':
      case 'lt':
      case 'lte':
      case 'gt':
      case 'gte':
        return this.compare(field, COMPARE[condition.op]!, condition.value);
      case 'ne':
        return `(NOT ${this.compare(field, '=', condition.value)})`;
      case 'like':
        return this.like(field, condition.value);
      case 'notLike':
        return `(NOT ${this.like(field, condition.value)})`;
      case 'in':
      case 'nin': {
        const sql = this.in(field, condition.values);
        return condition.op === 'in' ? sql : `(NOT ${sql})`;
      }
      case 'between': {
        const [low, high] = condition.values;
        return `(${this.compare(field, '>=', low!)} AND ${this.compare(field, '<=', high!)})`;
      }
      case 'isNull':
        return this.isNull(field);
      case 'isNotNull':
        return `(NOT ${this.isNull(field)})`;
    }
  }

  /**
   * ORDER BY terms in the list route's order, ending with `_id` in the direction of the last key (unless the
   * rows are groups, which have no `_id` and whose sort keys already end with every grouped field).
   */
  orderBy(
    sort: readonly { readonly path: readonly string[]; readonly descending: boolean }[],
    byId = true,
  ): string {
    const order: string[] = [];
    for (const key of sort) {
      const direction = key.descending ? 'DESC' : 'ASC';
      const field = this.field(key.path);
      if (field.kind === 'column') order.push(`${field.column} ${direction}`);
      else if (field.kind === 'json')
        order.push(...this.orderJson(field).map((term) => `${term} ${direction}`));
    }
    if (byId && !order.some((part) => part.startsWith('id ')))
      order.push(`id ${sort.at(-1)?.descending ? 'DESC' : 'ASC'}`);
    return order.join(', ');
  }
}
