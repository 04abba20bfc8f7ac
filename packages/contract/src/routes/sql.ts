import { SqlRequest, SqlResult } from '../schemas/sql.js';
import type { RouteDefinition } from './types.js';

/** The SQL helper under /api/v1/data; its fixed path wins over `/api/v1/data/{collection}`. */
export const sqlRoutes = [
  {
    id: 'data.sql',
    method: 'POST',
    path: '/api/v1/data/sql',
    tag: 'data',
    summary: 'Query a collection with SQL',
    description: [
      'Runs one read-only statement: `SELECT * | [DISTINCT] expr [AS alias], … FROM <collection> [WHERE …] [GROUP BY field, …] [HAVING …] [ORDER BY field|alias|aggregate [ASC|DESC], …] [LIMIT n] [OFFSET m]`, where an expr is a field or an aggregate: `COUNT(*)`, `COUNT([DISTINCT] field)`, `SUM`, `AVG`, `MIN`, `MAX` of a field.',
      'Conditions: `= != <> < <= > >=`, `AND OR NOT`, parentheses, `[NOT] IN (…)`, `[NOT] LIKE`, `[NOT] BETWEEN`, `IS [NOT] NULL`; fields are dotted (`a.b`) or quoted (`"a"."b"`, backticks); values are string, number, boolean or null literals, or `?` / `$n` parameters bound from `params`.',
      'Logic is two-valued: a comparison with a missing field or with a value of another JSON type is false, and `NOT`, `!=`, `NOT IN`, `NOT LIKE` are its negation. Numbers compare numerically, strings by code point, booleans only with `=` and `!=`; `= NULL` is never true (use `IS NULL`, which matches missing fields and JSON null). `LIKE` is case-sensitive on strings, with `%`, `_` and `\\` as escape.',
      '`ORDER BY` uses the order of the list route (null < booleans < numbers < strings < arrays and objects, ties by `_id` in the direction of the last key). `LIMIT` defaults to 100 and may not exceed 1000.',
      'Projections answer one object per row keyed by the alias or the dotted path; `COUNT(*)` alone answers `[{ "count": n }]`. Grouped rows are keyed by the alias or the aggregate text (`COUNT(*)`, `SUM(total)`). Grouping and aggregates read strings, numbers and booleans (types apart); missing fields, null, arrays and objects are no value. `SUM` and `AVG` add numbers only (a string such as `"300"` is skipped); `MIN` and `MAX` follow the ORDER BY order. A selected field that is neither grouped nor aggregated, an aggregate in WHERE, HAVING without GROUP BY and `DISTINCT *` are 400 `invalid_sql`.',
      'Anything else is 400 `invalid_sql` with a message that points at the offending part. The answer carries the translated query.',
    ].join('\n\n'),
    auth: 'data',
    scopes: ['data:read', 'query:execute'],
    body: SqlRequest,
    success: { status: 200, description: 'The matching rows and the translated query', schema: SqlResult },
    errors: ['invalid_sql', 'validation_error', 'invalid_json', 'invalid_body', 'payload_too_large'],
  },
] as const satisfies readonly RouteDefinition[];
