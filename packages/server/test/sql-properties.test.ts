import type { CollectionQuery, JsonObject } from '@dataplatform/contract';
import { evaluate, formatSql } from '@dataplatform/contract/sql';
import fc from 'fast-check';
import { beforeAll, expect, it } from 'vitest';
import { collectionQuery, documentBody } from '../../contract/test/sql-arbitraries.js';
import { forEachEngine, type TestServer } from './helpers.js';

// Each run stores a fresh random collection and checks several random queries over it: 30 × 10 = 300 queries
// per engine, a few seconds; SQL_PROPERTY_RUNS=1000 searches harder.
const RUNS = Number(process.env.SQL_PROPERTY_RUNS ?? 30);
const QUERIES_PER_RUN = 10;

/**
 * The rows the evaluator answers, with SUM and AVG columns that may differ from an engine in the last digit:
 * PostgreSQL adds exact decimals and rounds once, SQLite and the evaluator add doubles with compensation, in
 * an order that is theirs (docs/sql.md). Everything else must be equal.
 */
function expectedRows(query: CollectionQuery, documents: JsonObject[]): unknown[] {
  const rows = evaluate(query, documents);
  if (query.select.kind !== 'groups') return rows;
  const inexact = query.select.columns
    .filter((c) => 'aggregate' in c && (c.aggregate.fn === 'sum' || c.aggregate.fn === 'avg'))
    .map((c) => c.as);
  return rows.map((row) => {
    const copy: Record<string, unknown> = { ...row };
    for (const key of inexact) {
      const value = row[key];
      if (typeof value === 'number' && !Number.isInteger(value)) copy[key] = expect.closeTo(value, 12);
    }
    return copy;
  });
}

forEachEngine((server) => {
  let t: TestServer;
  let collections = 0;
  beforeAll(() => {
    t = server();
  });

  async function store(collection: string, bodies: object[]): Promise<JsonObject[]> {
    for (const body of bodies) {
      const res = await t.call('POST', `/api/v1/data/${collection}`, { body });
      expect(res.status).toBe(201);
    }
    const res = await t.call('GET', `/api/v1/data/${collection}?limit=1000`);
    return (await res.json()).data;
  }

  it('answers every well-formed query with the rows of the reference evaluator', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(documentBody, { minLength: 5, maxLength: 25 }),
        fc.array(collectionQuery('placeholder'), { minLength: QUERIES_PER_RUN, maxLength: QUERIES_PER_RUN }),
        async (bodies, queries) => {
          const collection = `prop-${collections++}`;
          const documents = await store(collection, bodies);
          for (const generated of queries) {
            const query = { ...generated, collection };
            const { sql, params } = formatSql(query);
            const res = await t.call('POST', '/api/v1/data/sql', { body: { sql, params } });
            const body = await res.json();
            expect(res.status, `${sql} ${JSON.stringify(params)} → ${JSON.stringify(body)}`).toBe(200);
            expect(body.query, sql).toEqual(query);
            expect(body.data, `${sql} ${JSON.stringify(params)}`).toEqual(expectedRows(query, documents));
          }
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);
});
