import fc from 'fast-check';
import { expect, it } from 'vitest';
import { evaluate, formatSql, parseSql } from '../src/sql/index.js';
import { collectionQuery, documentBody } from './sql-arbitraries.js';

it('parses what formatSql writes back into the same query', () => {
  fc.assert(
    fc.property(collectionQuery('orders'), (query) => {
      const { sql, params } = formatSql(query);
      expect(parseSql(sql, params)).toEqual(query);
    }),
    { numRuns: 500 },
  );
});

it('never answers more rows than LIMIT, and counts at least as many documents as it pages', () => {
  fc.assert(
    fc.property(fc.array(documentBody, { maxLength: 20 }), collectionQuery('orders'), (bodies, query) => {
      const docs = bodies.map((b, i) => ({ ...b, _id: `d${i}`, _createdAt: 't', _updatedAt: 't' }));
      const rows = evaluate(query, docs);
      if (query.select.kind === 'count') return;
      expect(rows.length).toBeLessThanOrEqual(query.limit);
      // A grouped row stands for any number of documents: a row of aggregates even for none.
      if (query.select.kind === 'groups') return;
      const [count] = evaluate({ ...query, select: { kind: 'count' } }, docs);
      expect(count!.count).toBeGreaterThanOrEqual(rows.length);
    }),
    { numRuns: 200 },
  );
});
