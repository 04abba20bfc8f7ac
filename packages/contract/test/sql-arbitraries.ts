// fast-check generators of documents and well-formed collection queries, shared by the contract's round-trip
// properties and the server's engine-against-evaluator properties.
import fc from 'fast-check';
import type { CollectionQuery, SqlCondition, SqlValue } from '../src/index.js';
import { likeTokens } from '../src/sql/index.js';

/** Field paths the queries use; documents fill some of them, with varying JSON types. */
export const PATHS: string[][] = [
  ['a'],
  ['b'],
  ['s p'],
  ['n', 'x'],
  ['n', 'y'],
  ['arr', '0'],
  ['_id'],
  ['_createdAt'],
  ['_id', 'x'],
  ['missing'],
];

// Letters that differ in case collide often; the rest have a meaning somewhere: quotes, LIKE and GLOB
// wildcards, escapes, non-ASCII and non-BMP characters.
const CHAR = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('a', 'A', 'b') },
  { weight: 1, arbitrary: fc.constantFrom('%', '_', '*', '?', '[', "'", '"', '\\', 'é', '😀', ' ') },
);

const text = fc.array(CHAR, { maxLength: 3 }).map((chars) => chars.join(''));
const number = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -6, max: 6 }).map((n) => n / 2) },
  {
    weight: 1,
    arbitrary: fc
      .double({ min: -3, max: 3, noNaN: true, noDefaultInfinity: true })
      .map((n) => (Object.is(n, -0) ? 0 : n)),
  },
);
const scalar: fc.Arbitrary<SqlValue> = fc.oneof(text, number, fc.boolean(), fc.constant(null));
const ordered: fc.Arbitrary<SqlValue> = fc.oneof(text, number, fc.constant(null));

/** Any JSON value a field can hold, arrays and objects included (they never compare). */
const json: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('x', '0'), scalar, { maxKeys: 2 }) },
);

/** A document body: some of the query's fields, of any type. */
export const documentBody = fc.record(
  {
    a: json,
    b: json,
    's p': json,
    n: fc.oneof(fc.record({ x: json, y: json }, { requiredKeys: [] }), json),
    arr: fc.oneof(fc.array(scalar, { minLength: 1, maxLength: 2 }), fc.record({ '0': scalar }), json),
  },
  { requiredKeys: [] },
);

const path = fc.constantFrom(...PATHS);

const pattern = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('%', '_', 'a', 'A', 'b') },
      { weight: 1, arbitrary: fc.constantFrom('\\%', '\\_', '\\\\', 'é', '😀', '*', '?', '[', "'") },
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join(''))
  .filter((p) => likeTokens(p) !== null);

const leaf: fc.Arbitrary<SqlCondition> = fc.oneof(
  fc.record({ op: fc.constantFrom('eq', 'ne'), path, value: scalar }),
  fc.record({ op: fc.constantFrom('lt', 'lte', 'gt', 'gte'), path, value: ordered }),
  fc.record({ op: fc.constantFrom('like', 'notLike'), path, value: pattern }),
  fc.record({
    op: fc.constantFrom('in', 'nin'),
    path,
    values: fc.array(scalar, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ op: fc.constant('between'), path, values: fc.tuple(ordered, ordered) }),
  fc.record({ op: fc.constantFrom('isNull', 'isNotNull'), path }),
) as fc.Arbitrary<SqlCondition>;

/** Random where trees: leaves under and/or/not, at most three levels deep. */
export const condition: fc.Arbitrary<SqlCondition> = fc.letrec<{ node: SqlCondition }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({
      op: fc.constantFrom('and', 'or'),
      conditions: fc.array(tie('node'), { minLength: 2, maxLength: 3 }),
    }),
    fc.record({ op: fc.constant('not'), condition: tie('node') }),
  ) as fc.Arbitrary<SqlCondition>,
})).node;

/** Flattens and-in-and and or-in-or, as the parser does. */
export function normalize(c: SqlCondition): SqlCondition {
  if (c.op === 'not') return { op: 'not', condition: normalize(c.condition) };
  if (c.op !== 'and' && c.op !== 'or') return c;
  const conditions = c.conditions.flatMap((child) => {
    const n = normalize(child);
    return n.op === c.op ? (n as { conditions: SqlCondition[] }).conditions : [n];
  });
  return { op: c.op, conditions };
}

const select: fc.Arbitrary<CollectionQuery['select']> = fc.oneof(
  fc.constant({ kind: 'all' as const }),
  fc.constant({ kind: 'count' as const }),
  fc
    .uniqueArray(path, { minLength: 1, maxLength: 3, selector: (p) => p.join('.') })
    .map((paths) => ({ kind: 'fields' as const, fields: paths.map((p, i) => ({ path: p, as: `f${i}` })) })),
);

/** A well-formed query over `collection`; counts take no ORDER BY, LIMIT or OFFSET. */
export function collectionQuery(collection: string): fc.Arbitrary<CollectionQuery> {
  return fc
    .record({
      select,
      where: fc.option(condition, { nil: undefined }),
      sort: fc.array(fc.record({ path, descending: fc.boolean() }), { maxLength: 3 }),
      limit: fc.integer({ min: 0, max: 30 }),
      skip: fc.integer({ min: 0, max: 10 }),
    })
    .map(({ select: s, where, sort, limit, skip }) => ({
      collection,
      select: s,
      ...(where ? { where: normalize(where) } : {}),
      sort: s.kind === 'count' ? [] : sort,
      limit: s.kind === 'count' ? 100 : limit,
      skip: s.kind === 'count' ? 0 : skip,
    }));
}
