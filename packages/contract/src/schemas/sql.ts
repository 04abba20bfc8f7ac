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

/** A condition of the translated query: and/or/not nodes over leaf predicates on field paths. */
export type SqlCondition =
  | { op: 'and' | 'or'; conditions: SqlCondition[] }
  | { op: 'not'; condition: SqlCondition }
  | { op: SqlCompareOp; path: string[]; value: SqlValue }
  | { op: 'in' | 'nin' | 'between'; path: string[]; values: SqlValue[] }
  | { op: 'isNull' | 'isNotNull'; path: string[] };

const Value = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const FieldPath = z
  .array(z.string())
  .min(1)
  .meta({ description: 'Field path, one element per nesting level: `a.b` is `["a", "b"]`' });

/** A condition tree (recursive). Literal values and parameters are already bound. */
export const SqlCondition: z.ZodType<SqlCondition> = z
  .union([
    z.object({
      op: z.enum(['and', 'or']),
      get conditions() {
        return z.array(SqlCondition).min(2);
      },
    }),
    z.object({
      op: z.literal('not'),
      get condition() {
        return SqlCondition;
      },
    }),
    z.object({
      op: z.enum(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'like', 'notLike']),
      path: FieldPath,
      value: Value,
    }),
    z.object({ op: z.enum(['in', 'nin', 'between']), path: FieldPath, values: z.array(Value).min(1) }),
    z.object({ op: z.enum(['isNull', 'isNotNull']), path: FieldPath }),
  ])
  .meta({
    id: 'SqlCondition',
    description:
      'A WHERE condition: `and`/`or` over several conditions, `not` over one, or a predicate on a field path. Two-valued: a comparison with a missing field or a value of another JSON type is false.',
  });

/** What a query selects: whole documents, some fields, or the number of matches. */
export const SqlSelect = z
  .union([
    z.object({ kind: z.literal('all') }),
    z.object({
      kind: z.literal('fields'),
      fields: z
        .array(
          z.object({
            path: FieldPath,
            as: z.string().meta({ description: 'Key of the field in each answered row' }),
          }),
        )
        .min(1),
    }),
    z.object({ kind: z.literal('count') }),
  ])
  .meta({ id: 'SqlSelect', description: '`*`, a list of fields, or `COUNT(*)`.' });

/** The translated collection query: what the SQL helper ran, with every parameter bound. */
export const CollectionQuery = z
  .object({
    collection: z.string(),
    select: SqlSelect,
    where: SqlCondition.optional(),
    sort: z
      .array(z.object({ path: FieldPath, descending: z.boolean() }))
      .meta({ description: 'ORDER BY keys; ties are broken by `_id` in the direction of the last key' }),
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
      description: 'Documents (`SELECT *`), objects keyed by alias or dotted path, or `[{ "count": n }]`',
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
