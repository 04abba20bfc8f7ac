import { z } from 'zod';

/** Most rows a SQL query answers; LIMIT above it is refused. */
export const SQL_MAX_LIMIT = 1000;

/** Rows a SQL query answers without LIMIT. */
export const SQL_DEFAULT_LIMIT = 100;

/** Longest SQL text the helper accepts, in characters. */
export const SQL_MAX_LENGTH = 10_000;

/** A literal or parameter value: what a condition compares a field with. */
export type SqlValue = string | number | boolean | null;

/** Comparison operators of a condition leaf that take one value. */
export type SqlCompareOp = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'like' | 'notLike';

/** An aggregate of a grouped query: `COUNT(*)`, `COUNT([DISTINCT] field)`, `SUM`, `AVG`, `MIN` or `MAX` of a field. */
export type SqlAggregate =
  | { fn: 'count'; path?: string[]; distinct?: true }
  | { fn: 'sum' | 'avg' | 'min' | 'max'; path: string[] };

/** What a condition leaf or a sort key reads: a field, or (in HAVING and ORDER BY of a grouped query) an aggregate. */
export type SqlTarget = { path: string[] } | { aggregate: SqlAggregate };

/** A condition tree whose leaves read `T`: and/or/not nodes over leaf predicates. */
export type SqlConditionOf<T> =
  | { op: 'and' | 'or'; conditions: SqlConditionOf<T>[] }
  | { op: 'not'; condition: SqlConditionOf<T> }
  | (T & { op: SqlCompareOp; value: SqlValue })
  | (T & { op: 'in' | 'nin' | 'between'; values: SqlValue[] })
  | (T & { op: 'isNull' | 'isNotNull' });

/** A condition of the translated query: and/or/not nodes over leaf predicates on field paths. */
export type SqlCondition = SqlConditionOf<{ path: string[] }>;

/** A HAVING condition: leaves read a grouped field or an aggregate. */
export type SqlHaving = SqlConditionOf<SqlTarget>;

const Value = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const FieldPath = z
  .array(z.string())
  .min(1)
  .meta({ description: 'Field path, one element per nesting level: `a.b` is `["a", "b"]`' });

/** An aggregate over the documents of a group. */
export const SqlAggregate: z.ZodType<SqlAggregate> = z
  .union([
    z.object({ fn: z.literal('count'), path: FieldPath.optional(), distinct: z.literal(true).optional() }),
    z.object({ fn: z.enum(['sum', 'avg', 'min', 'max']), path: FieldPath }),
  ])
  .meta({
    id: 'SqlAggregate',
    description:
      '`count` without a path is `COUNT(*)`; with `distinct`, `COUNT(DISTINCT field)`. Aggregates read JSON strings, numbers and booleans; null, arrays and objects are no value.',
  });

/** The leaf shapes of a condition, each reading one of `targets`. */
function leaves(targets: readonly z.ZodRawShape[]) {
  return targets.flatMap((target) => [
    z.object({
      ...target,
      op: z.enum(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'like', 'notLike']),
      value: Value,
    }),
    z.object({ ...target, op: z.enum(['in', 'nin', 'between']), values: z.array(Value).min(1) }),
    z.object({ ...target, op: z.enum(['isNull', 'isNotNull']) }),
  ]);
}

/** A recursive condition schema whose leaves read one of `targets`. */
function conditionSchema<T>(targets: readonly z.ZodRawShape[], id: string, description: string) {
  const schema: z.ZodType<SqlConditionOf<T>> = z
    .union([
      z.object({
        op: z.enum(['and', 'or']),
        get conditions() {
          return z.array(schema).min(2);
        },
      }),
      z.object({
        op: z.literal('not'),
        get condition() {
          return schema;
        },
      }),
      ...leaves(targets),
    ])
    .meta({ id, description }) as unknown as z.ZodType<SqlConditionOf<T>>;
  return schema;
}

/** A condition tree (recursive). Literal values and parameters are already bound. */
export const SqlCondition = conditionSchema<{ path: string[] }>(
  [{ path: FieldPath }],
  'SqlCondition',
  'A WHERE condition: `and`/`or` over several conditions, `not` over one, or a predicate on a field path. Two-valued: a comparison with a missing field or a value of another JSON type is false.',
);

/** A HAVING condition (recursive): as a WHERE condition, with leaves on a grouped field or an aggregate. */
export const SqlHaving = conditionSchema<SqlTarget>(
  [{ path: FieldPath }, { aggregate: SqlAggregate }],
  'SqlHaving',
  'A HAVING condition: as `SqlCondition`, each leaf reading a grouped field (`path`) or an `aggregate` of the group.',
);

const Alias = z.string().meta({ description: 'Key of the column in each answered row' });

/** What a query selects: whole documents, some fields, the number of matches, or one row per group. */
export const SqlSelect = z
  .union([
    z.object({ kind: z.literal('all') }),
    z.object({
      kind: z.literal('fields'),
      fields: z.array(z.object({ path: FieldPath, as: Alias })).min(1),
    }),
    z.object({ kind: z.literal('count') }),
    z.object({
      kind: z.literal('groups'),
      distinct: z.literal(true).optional().meta({ description: 'The statement said SELECT DISTINCT' }),
      columns: z
        .array(
          z.union([
            z.object({ path: FieldPath, as: Alias }),
            z.object({ aggregate: SqlAggregate, as: Alias }),
          ]),
        )
        .min(1),
    }),
  ])
  .meta({
    id: 'SqlSelect',
    description:
      '`*`, a list of fields, `COUNT(*)`, or `groups`: one row per group (per distinct row with DISTINCT, one row for aggregates without GROUP BY) with grouped fields and aggregates.',
  });

/** A sort key: a field, or in a grouped query also an aggregate. */
const SortKey = z.union([
  z.object({ path: FieldPath, descending: z.boolean() }),
  z.object({ aggregate: SqlAggregate, descending: z.boolean() }),
]);

/** The translated collection query: what the SQL helper ran, with every parameter bound. */
export const CollectionQuery = z
  .object({
    collection: z.string(),
    select: SqlSelect,
    where: SqlCondition.optional(),
    groupBy: z.array(FieldPath).optional().meta({
      description:
        'GROUP BY fields (with SELECT DISTINCT alone, the selected fields); absent when rows are not grouped',
    }),
    having: SqlHaving.optional(),
    sort: z.array(SortKey).meta({
      description:
        'ORDER BY keys; ties are broken by `_id` (grouped rows: by the grouped fields) in the direction of the last key',
    }),
    limit: z.number().int().min(0).max(SQL_MAX_LIMIT),
    skip: z.number().int().min(0),
  })
  .meta({
    id: 'CollectionQuery',
    description: 'The collection query a SQL statement was translated into.',
  });

/** The translated collection query. */
export type CollectionQuery = z.infer<typeof CollectionQuery>;

/** The body of the SQL helper. */
export const SqlRequest = z
  .strictObject({
    sql: z.string().max(SQL_MAX_LENGTH).meta({
      description: 'One SELECT statement over one collection; an empty or malformed one is 400 `invalid_sql`',
      example: 'SELECT _id, total FROM orders WHERE status = ? AND total > 100 ORDER BY total DESC LIMIT 10',
    }),
    params: z
      .array(Value)
      .optional()
      .meta({ description: 'Values of the `?` or `$n` placeholders, in order', example: ['paid'] }),
    explain: z.boolean().optional().meta({
      description:
        "Also answer `explain`: the collection indexes the engine chose and the engine's own plan of the query",
    }),
  })
  .meta({ id: 'SqlRequest', description: 'A read-only SQL statement and its parameters.' });

/** The body of the SQL helper. */
export type SqlRequest = z.infer<typeof SqlRequest>;

/** The answer of the SQL helper. */
export const SqlResult = z
  .object({
    data: z.array(z.record(z.string(), z.unknown())).meta({
      description:
        'Documents (`SELECT *`), objects keyed by alias, dotted path or aggregate text (`COUNT(*)`, `SUM(total)`), or `[{ "count": n }]`',
    }),
    query: CollectionQuery,
    explain: z
      .object({
        indexes: z.array(z.string()).meta({ description: 'Names of the collection indexes the plan uses' }),
        plan: z.array(z.string()).meta({ description: "The engine's plan (EXPLAIN), one line each" }),
      })
      .optional()
      .meta({ description: 'With `explain: true` only' }),
  })
  .meta({ id: 'SqlResult', description: 'The rows of a SQL query and the query it was translated into.' });

/** The answer of the SQL helper, with rows typed as `T`. */
export interface SqlResponse<T extends object = Record<string, unknown>> {
  data: T[];
  query: CollectionQuery;
}
