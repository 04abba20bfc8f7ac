// fast-check generators of documents and well-formed collection queries, shared by the contract's round-trip
// properties and the server's engine-against-evaluator properties.
import fc from 'fast-check';
import type {
  CollectionQuery,
  SqlAggregate,
  SqlCondition,
  SqlConditionOf,
  SqlHaving,
  SqlTarget,
  SqlValue,
} from '../src/index.js';
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

/** Leaf predicates on what `target` gives: a field, or in HAVING a grouped field or an aggregate. */
function leafOn<T extends object>(target: fc.Arbitrary<T>): fc.Arbitrary<SqlConditionOf<T>> {
  const on = <R extends object>(rest: fc.Arbitrary<R>) =>
    fc.tuple(target, rest).map(([t, r]) => ({ ...t, ...r }));
  return fc.oneof(
    on(fc.record({ op: fc.constantFrom('eq', 'ne'), value: scalar })),
    on(fc.record({ op: fc.constantFrom('lt', 'lte', 'gt', 'gte'), value: ordered })),
    on(fc.record({ op: fc.constantFrom('like', 'notLike'), value: pattern })),
    on(
      fc.record({
        op: fc.constantFrom('in', 'nin'),
        values: fc.array(scalar, { minLength: 1, maxLength: 3 }),
      }),
    ),
    on(fc.record({ op: fc.constant('between'), values: fc.tuple(ordered, ordered) })),
    on(fc.record({ op: fc.constantFrom('isNull', 'isNotNull') })),
  ) as fc.Arbitrary<SqlConditionOf<T>>;
}

/** Random trees over `leaf`: leaves under and/or/not, at most three levels deep. */
function tree<T>(leaf: fc.Arbitrary<SqlConditionOf<T>>): fc.Arbitrary<SqlConditionOf<T>> {
  return fc.letrec<{ node: SqlConditionOf<T> }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({
        op: fc.constantFrom('and', 'or'),
        conditions: fc.array(tie('node'), { minLength: 2, maxLength: 3 }),
      }),
      fc.record({ op: fc.constant('not'), condition: tie('node') }),
    ) as fc.Arbitrary<SqlConditionOf<T>>,
  })).node;
}

/** Random where trees: leaves under and/or/not, at most three levels deep. */
export const condition: fc.Arbitrary<SqlCondition> = tree(leafOn(path.map((p) => ({ path: p }))));

/** Every aggregate the grammar has, over the same fields. */
export const aggregate: fc.Arbitrary<SqlAggregate> = fc.oneof(
  fc.constant({ fn: 'count' as const }),
  path.map((p) => ({ fn: 'count' as const, path: p })),
  path.map((p) => ({ fn: 'count' as const, path: p, distinct: true as const })),
  fc.record({ fn: fc.constantFrom('sum' as const, 'avg' as const, 'min' as const, 'max' as const), path }),
);

/** Flattens and-in-and and or-in-or, as the parser does. */
export function normalize<T>(c: SqlConditionOf<T>): SqlConditionOf<T> {
  if (c.op === 'not') return { op: 'not', condition: normalize(c.condition) };
  if (c.op !== 'and' && c.op !== 'or') return c;
  const conditions = c.conditions.flatMap((child) => {
    const n = normalize(child);
    return n.op === c.op ? (n as { conditions: SqlConditionOf<T>[] }).conditions : [n];
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

/** A well-formed query over documents; counts take no ORDER BY, LIMIT or OFFSET. */
function documentQuery(collection: string): fc.Arbitrary<CollectionQuery> {
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

/**
 * A well-formed grouped query: grouped fields (or none: one row of aggregates), a select list of grouped
 * fields and aggregates, HAVING and ORDER BY on either, DISTINCT where it keeps every grouped field.
 */
function groupedQuery(collection: string): fc.Arbitrary<CollectionQuery> {
  return fc
    .uniqueArray(path, { maxLength: 2, selector: (p) => p.join('.') })
    .chain((groupBy) => {
      const target: fc.Arbitrary<SqlTarget> =
        groupBy.length === 0
          ? aggregate.map((a) => ({ aggregate: a }))
          : fc.oneof(
              fc.constantFrom(...groupBy).map((p) => ({ path: p })),
              aggregate.map((a) => ({ aggregate: a })),
            );
      return fc.record({
        groupBy: fc.constant(groupBy),
        // With no grouped field the select list holds aggregates only.
        fields: groupBy.length === 0 ? fc.constant<string[][]>([]) : fc.subarray(groupBy),
        aggregates: fc.array(aggregate, { minLength: groupBy.length === 0 ? 1 : 0, maxLength: 3 }),
        distinct: fc.boolean(),
        where: fc.option(condition, { nil: undefined }),
        having:
          groupBy.length === 0 ? fc.constant(undefined) : fc.option(tree(leafOn(target)), { nil: undefined }),
        sort: fc.array(fc.tuple(target, fc.boolean()), { maxLength: 3 }),
        limit: fc.integer({ min: 0, max: 30 }),
        skip: fc.integer({ min: 0, max: 10 }),
      });
    })
    .filter(({ fields, aggregates }) => fields.length + aggregates.length > 0)
    .map(({ groupBy, fields, aggregates, distinct, where, having, sort, limit, skip }) => {
      // DISTINCT with GROUP BY needs every grouped field selected.
      const selected = distinct ? groupBy : fields;
      const columns = [
        ...selected.map((p) => ({ path: p })),
        ...aggregates.map((a) => ({ aggregate: a })),
      ].map((c, i) => ({ ...c, as: `g${i}` }));
      return {
        collection,
        select: { kind: 'groups' as const, ...(distinct ? { distinct: true as const } : {}), columns },
        ...(where ? { where: normalize(where) } : {}),
        ...(groupBy.length > 0 ? { groupBy } : {}),
        ...(having ? { having: normalize(having) as SqlHaving } : {}),
        sort: sort.map(([t, descending]) => ({ ...t, descending })),
        limit,
        skip,
      };
    });
}

/** A well-formed query over `collection`: over documents, or grouped. */
export function collectionQuery(collection: string): fc.Arbitrary<CollectionQuery> {
  return fc.oneof(
    { weight: 2, arbitrary: documentQuery(collection) },
    { weight: 1, arbitrary: groupedQuery(collection) },
  );
}
