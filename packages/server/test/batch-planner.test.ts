import { afterEach, describe, expect, it } from 'vitest';
import { planBatch } from '../src/services/batch-plan.js';
import { BatchPlanner } from '../src/services/batch-planner.js';

/** The most bytes one document may take in these tests. */
const LIMIT = 1_000;

const insert = (i: number) => ({ op: 'insert', collection: 'orders', data: { i, name: `order ${i}` } });

/** Bodies of every kind the route can receive: good, malformed, refused whole, refused per operation. */
const bodies: Record<string, string> = {
  'a good batch': JSON.stringify({
    operations: [
      insert(1),
      { op: 'insert', collection: 'orders', id: 'given', data: { a: 1 } },
      { op: 'insert', collection: 'orders', data: { _id: 'inline', b: [1, { c: null }] } },
      { op: 'get', collection: 'orders', id: 'given' },
      { op: 'update', collection: 'orders', id: 'given', data: { a: 2 } },
      { op: 'patch', collection: 'orders', id: 'given', data: { a: null, d: { e: 'é' } } },
      { op: 'delete', collection: 'orders', id: 'given' },
    ],
    transaction: true,
  }),
  'operations that fail on their own': JSON.stringify({
    operations: [
      { op: 'insert', collection: 'bad name!', data: {} },
      { op: 'insert', collection: 'orders', data: { _secret: 1 } },
      { op: 'get', collection: 'orders', id: '..' },
      { op: 'insert', collection: 'orders', data: { big: 'x'.repeat(LIMIT) } },
      {
        op: 'patch',
        collection: 'orders',
        id: 'a',
        data: { deep: JSON.parse(`${'['.repeat(200)}${']'.repeat(200)}`) },
      },
      { op: 'update', collection: 'orders', id: 'a', data: { text: 'nul \u0000' } },
    ],
  }),
  'an integer past 2^53':
    '{"operations":[{"op":"insert","collection":"c","data":{"n":12345678901234567890}}]}',
  'no body': '',
  'malformed JSON': '{"operations": [',
  'a prototype key': '{"operations":[{"op":"insert","collection":"c","data":{"__proto__":{"x":1}}}]}',
  'not a batch': '[1,2,3]',
  'an unknown op': '{"operations":[{"op":"upsert","collection":"c"}]}',
};

describe('the batch planner', () => {
  let planner: BatchPlanner | undefined;
  afterEach(async () => {
    await planner?.close();
    planner = undefined;
  });

  it.each(Object.entries(bodies))('plans %s on its thread exactly as on the event loop', async (_, raw) => {
    planner = new BatchPlanner(LIMIT, 0);
    expect(await planner.plan(raw)).toEqual(planBatch(raw, LIMIT));
  });

  it('plans large bodies on its thread and small ones inline, each answer going to its own request', async () => {
    planner = new BatchPlanner(LIMIT, 2_000);
    const raws = Array.from({ length: 24 }, (_, n) =>
      JSON.stringify({ operations: Array.from({ length: 1 + n * 3 }, (_, i) => insert(n * 1000 + i)) }),
    );
    expect(raws.filter((raw) => raw.length >= 2_000).length).toBeGreaterThan(10);
    const plans = await Promise.all(raws.map((raw) => planner!.plan(raw)));
    for (const [n, plan] of plans.entries()) {
      expect(plan.ok && plan.operations.map((o) => JSON.parse(o.text!).i)).toEqual(
        Array.from({ length: 1 + n * 3 }, (_, i) => n * 1000 + i),
      );
    }
  });

  it('fails only the operations whose documents break a rule, and refuses an inexact integer whole', () => {
    const plan = planBatch(bodies['operations that fail on their own']!, LIMIT);
    expect(plan.ok && plan.operations.map((o) => o.violation?.code ?? 'ok')).toEqual([
      'validation_error',
      'invalid_body',
      'validation_error',
      'payload_too_large',
      'validation_error',
      'validation_error',
    ]);
    expect(planBatch(bodies['an integer past 2^53']!, LIMIT)).toMatchObject({
      ok: false,
      error: { code: 'validation_error', details: { reason: 'unsafe_integer' } },
    });
  });

  it('starts a new thread after closing', async () => {
    planner = new BatchPlanner(LIMIT, 0);
    await planner.plan(bodies['a good batch']!);
    await planner.close();
    expect(await planner.plan(bodies['no body']!)).toEqual(planBatch('', LIMIT));
  });
});
