import { subscriptionWants } from '@dataplatform/contract';
import { describe, expect, it } from 'vitest';
import type { TestEvent } from './deliveries.js';
import type { DocumentOperation, OperationResult } from './documents.js';
import {
  capturedOf,
  changesOf,
  changeTargets,
  eventBody,
  outboxRows,
  targetKey,
  testEventRows,
} from './outbox.js';

const AT = '2030-01-01T00:00:00.000Z';
const doc = (id: string, fields: object) =>
  JSON.stringify({ _id: id, ...fields, _createdAt: AT, _updatedAt: AT });
const insert = (id: string): DocumentOperation => ({
  kind: 'insert',
  collection: 'c',
  row: { id, data: '{}', createdAt: AT, updatedAt: AT },
});
const replace = (id: string): DocumentOperation => ({
  kind: 'replace',
  collection: 'c',
  id,
  data: '{}',
  updatedAt: AT,
});
const remove = (id: string): DocumentOperation => ({ kind: 'delete', collection: 'c', id });
const stored = (id: string, fields: object): OperationResult => ({
  ok: true,
  row: { id, data: JSON.stringify(fields), createdAt: AT, updatedAt: AT },
});
const failed: OperationResult = { ok: false, reason: 'not_found' };

describe('the outbox', () => {
  it('needs the earlier state of the documents a batch replaces, patches or deletes, once each', () => {
    expect(
      changeTargets([insert('a'), replace('b'), remove('b'), { kind: 'get', collection: 'c', id: 'd' }]),
    ).toEqual([{ collection: 'c', id: 'b' }]);
  });

  it('reports each successful operation with the state an earlier operation of the batch left', () => {
    const before = new Map([[targetKey('c', 'x'), doc('x', { n: 0 })]]);
    const changes = changesOf(
      [replace('x'), replace('x'), remove('missing'), remove('x'), insert('x')],
      [
        stored('x', { n: 1 }),
        stored('x', { n: 2 }),
        failed,
        { ok: true, deleted: 'x' },
        stored('x', { n: 3 }),
      ],
      before,
    );
    expect(changes).toEqual([
      {
        type: 'document.updated',
        collection: 'c',
        documentId: 'x',
        data: doc('x', { n: 1 }),
        previous: doc('x', { n: 0 }),
      },
      {
        type: 'document.updated',
        collection: 'c',
        documentId: 'x',
        data: doc('x', { n: 2 }),
        previous: doc('x', { n: 1 }),
      },
      { type: 'document.deleted', collection: 'c', documentId: 'x', data: doc('x', { n: 2 }) },
      { type: 'document.created', collection: 'c', documentId: 'x', data: doc('x', { n: 3 }) },
    ]);
  });

  it('makes an event only where a subscription wants it, and one delivery per such subscription', () => {
    const subscriptions = [
      { id: 'all', events: ['*'], collection: null, delivery: 'http' as const },
      { id: 'deletes', events: ['document.deleted'], collection: 'c', delivery: 'http' as const },
      { id: 'elsewhere', events: ['*'], collection: 'd', delivery: 'http' as const },
    ];
    expect(subscriptionWants(subscriptions[1]!, 'document.created', 'c')).toBe(false);
    const { events, deliveries } = outboxRows(
      'cl',
      subscriptions.slice(1),
      [{ type: 'document.created', collection: 'c', documentId: 'x', data: '{}' }],
      AT,
    );
    expect(events).toEqual([]);
    expect(deliveries).toEqual([]);
    const rows = outboxRows(
      'cl',
      subscriptions,
      [{ type: 'document.deleted', collection: 'c', documentId: 'x', data: '{"_id":"x"}' }],
      AT,
    );
    expect(rows.events).toHaveLength(1);
    expect(rows.deliveries.map((d) => d.subscriptionId)).toEqual(['all', 'deletes']);
    expect(rows.deliveries.every((d) => d.eventId === rows.events[0]!.id)).toBe(true);
  });

  it("stores a stream subscription's deliveries as streamed, never due, and keeps them from the worker", () => {
    const target = (id: string, delivery: 'http' | 'stream') => ({
      id,
      events: ['*'],
      collection: null,
      delivery,
      clusterId: 'cl',
      ownerId: 'usr',
      url: 'http://localhost:3000/hooks',
      secret: 'sealed',
      previousSecret: null,
      previousSecretExpiresAt: null,
    });
    const subscriptions = [target('posted', 'http'), target('streamed', 'stream')];
    const change = { type: 'document.created' as const, collection: 'c', documentId: 'x', data: '{}' };
    const lease = '2030-01-01T00:00:20.000Z';
    const rows = outboxRows('cl', subscriptions, [change], AT, lease);
    expect(rows.deliveries.map((d) => [d.subscriptionId, d.status, d.nextAttemptAt])).toEqual([
      ['posted', 'pending', lease],
      ['streamed', 'streamed', null],
    ]);
    const captured = capturedOf(rows, subscriptions, true);
    expect(captured.deliveries.map((d) => d.subscriptionId)).toEqual(['posted']);
    expect(captured.streamed).toBe(true);
    const onlyStream = capturedOf(outboxRows('cl', [subscriptions[1]!], [change], AT), subscriptions, false);
    expect(onlyStream).toEqual({ deliveries: [], leased: false, waiting: false, streamed: true });
  });

  it("never leases a document trigger's delivery at capture: it waits for a claim, in order", () => {
    const target = (id: string, url: string) => ({
      id,
      events: ['*'],
      collection: null,
      delivery: 'http' as const,
      clusterId: 'cl',
      ownerId: 'usr',
      url,
      secret: 'sealed',
      previousSecret: null,
      previousSecretExpiresAt: null,
    });
    const subscriptions = [
      target('wh_1', 'http://localhost:3000/hooks'),
      target('whk_trg_1', 'trigger:trg_1'),
    ];
    const change = { type: 'document.created' as const, collection: 'c', documentId: 'x', data: '{}' };
    const lease = '2030-01-01T00:00:20.000Z';
    const rows = outboxRows('cl', subscriptions, [change], AT, lease);
    expect(rows.deliveries.map((d) => [d.subscriptionId, d.nextAttemptAt])).toEqual([
      ['wh_1', lease],
      ['whk_trg_1', AT],
    ]);
    const captured = capturedOf(rows, subscriptions, true);
    expect(captured.deliveries.map((d) => d.subscriptionId)).toEqual(['wh_1']);
    expect(captured.waiting).toBe(true);
    // Without a taker nothing is leased: every delivery waits for a claim, none is singled out.
    const unleased = capturedOf(outboxRows('cl', subscriptions, [change], AT), subscriptions, false);
    expect(unleased.deliveries.map((d) => d.subscriptionId)).toEqual(['wh_1', 'whk_trg_1']);
    expect(unleased.waiting).toBe(false);
  });

  it('writes the delivery body as JSON with the stored text spliced in', () => {
    const body = eventBody(
      'evt_1',
      {
        type: 'document.updated',
        collection: 'c',
        documentId: 'x"y',
        data: '{"a": 1}',
        previous: '{"a": 0}',
      },
      AT,
    );
    expect(JSON.parse(body)).toEqual({
      id: 'evt_1',
      type: 'document.updated',
      createdAt: AT,
      collection: 'c',
      documentId: 'x"y',
      data: { a: 1 },
      previous: { a: 0 },
    });
  });

  it('makes a test event for its one subscription, marked as a test and due at once', () => {
    const event: TestEvent = {
      type: 'document.updated',
      collection: 'c',
      documentId: 'test_1',
      data: '{}',
      previous: '{}',
    };
    const rows = testEventRows(
      'cl',
      { id: 'only', events: ['*'], collection: null, delivery: 'http' },
      event,
      AT,
    );
    expect(rows.deliveries).toEqual([
      {
        id: expect.stringMatching(/^dlv_/),
        subscriptionId: 'only',
        eventId: rows.events[0]!.id,
        createdAt: AT,
        status: 'pending',
        nextAttemptAt: AT,
      },
    ]);
    expect(JSON.parse(rows.events[0]!.body)).toEqual({
      id: rows.events[0]!.id,
      type: 'document.updated',
      createdAt: AT,
      collection: 'c',
      documentId: 'test_1',
      data: {},
      previous: {},
      test: true,
    });
    // The events of writes carry no such mark.
    expect(
      JSON.parse(eventBody('evt_1', { ...event, type: 'document.created', previous: undefined }, AT)),
    ).not.toHaveProperty('test');
  });
});
