import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { MOCK_BASE_URL, useMockApi } from '../../../test/mock-api.js';
import { newWebhooksCreateCommand } from './create.js';
import { newWebhooksDeleteCommand } from './delete.js';
import {
  newWebhooksAttemptsCommand,
  newWebhooksDeliveriesCommand,
  newWebhooksResendCommand,
} from './deliveries.js';
import { newWebhooksListCommand } from './list.js';
import { newWebhooksRotateCommand } from './rotate.js';
import { newWebhooksTriggerCommand } from './trigger.js';

describe('dp webhooks: arguments', () => {
  it('parses create with repeated and comma-separated events', async () => {
    expect(
      await parseArgs(newWebhooksCreateCommand, [
        '--url',
        'https://example.com/hooks',
        '--event',
        'document.created',
        '--event',
        'document.updated,document.deleted',
        '--collection',
        'orders',
        '--secret',
        'a-secret-of-16-chars',
      ]),
    ).toMatchObject({
      ok: true,
      options: {
        url: 'https://example.com/hooks',
        event: ['document.created', 'document.updated', 'document.deleted'],
        collection: 'orders',
        secret: 'a-secret-of-16-chars',
      },
    });
    const plain = await parseArgs(newWebhooksCreateCommand, ['--url', 'https://example.com/hooks']);
    expect(plain).toMatchObject({ ok: true, options: { url: 'https://example.com/hooks' } });
    expect(plain.ok && plain.options.event).toBeUndefined();
    expect(plain.ok && plain.options.delivery).toBeUndefined();
    expect(
      await parseArgs(newWebhooksCreateCommand, ['--url', 'http://localhost:3000/h', '--delivery', 'stream']),
    ).toMatchObject({ ok: true, options: { url: 'http://localhost:3000/h', delivery: 'stream' } });
    expect(
      await parseArgs(newWebhooksCreateCommand, ['--url', 'https://example.com/h', '--delivery', 'email']),
    ).toMatchObject({ ok: false, code: 2 });
  });

  it('parses list, delete, deliveries, attempts, resend, rotate-secret and trigger', async () => {
    expect(await parseArgs(newWebhooksListCommand, [])).toMatchObject({ ok: true, options: {} });
    expect(await parseArgs(newWebhooksDeleteCommand, ['wh_1'])).toMatchObject({ options: { id: 'wh_1' } });
    expect(
      await parseArgs(newWebhooksDeliveriesCommand, [
        'wh_1',
        '--status',
        'failed',
        '--limit',
        '5',
        '--skip',
        '10',
      ]),
    ).toMatchObject({ ok: true, options: { id: 'wh_1', status: 'failed', limit: 5, skip: 10 } });
    for (const make of [newWebhooksAttemptsCommand, newWebhooksResendCommand]) {
      expect(await parseArgs(make, ['wh_1', 'dlv_1'])).toMatchObject({
        ok: true,
        options: { id: 'wh_1', deliveryId: 'dlv_1' },
      });
    }
    expect(
      await parseArgs(newWebhooksRotateCommand, ['wh_1', '--secret', 'another-secret-16+']),
    ).toMatchObject({ ok: true, options: { id: 'wh_1', secret: 'another-secret-16+' } });
    expect(
      await parseArgs(newWebhooksTriggerCommand, [
        'document.deleted',
        '--collection',
        'orders',
        '--webhook',
        'wh_1',
      ]),
    ).toMatchObject({
      ok: true,
      options: { event: 'document.deleted', collection: 'orders', webhook: 'wh_1' },
    });
  });

  it.each([
    [newWebhooksCreateCommand, []],
    [newWebhooksCreateCommand, ['--url', 'https://example.com', '--event', 'document.moved']],
    [newWebhooksCreateCommand, ['--url', 'https://example.com', '--event', ',']],
    [newWebhooksDeleteCommand, []],
    [newWebhooksDeliveriesCommand, ['wh_1', '--status', 'lost']],
    [newWebhooksDeliveriesCommand, ['wh_1', '--limit', '0']],
    [newWebhooksAttemptsCommand, ['wh_1']],
    [newWebhooksResendCommand, ['wh_1']],
    [newWebhooksTriggerCommand, ['*']],
    [newWebhooksTriggerCommand, ['document.created', 'extra']],
  ] as const)('refuses bad arguments with exit status 2 (%#)', async (make, argv) => {
    expect(await parseArgs(make as never, [...argv])).toMatchObject({ ok: false, code: 2 });
  });
});

describe('dp webhooks: run', () => {
  const api = useMockApi();
  /** Makes a subscription through the mock API (one `POST /api/v1/data/webhooks` among the requests). */
  async function subscribe(body: { url: string; events: string[]; collection?: string }) {
    const res = await fetch(`${MOCK_BASE_URL}/api/v1/data/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': api.env.DATAPLATFORM_API_KEY! },
      body: JSON.stringify(body),
    });
    return (await res.json()) as { _id: string; secret: string };
  }
  const CREATE = 'POST /api/v1/data/webhooks';
  const terminal = { env: { ...api.env, NO_COLOR: '1' }, tty: { stdout: true, stderr: true }, columns: 200 };

  it('creates a subscription: one JSON line with the secret when piped, a warning on a terminal', async () => {
    const piped = await runCli(
      [
        'webhooks',
        'create',
        '--url',
        'https://example.com/hooks',
        '--event',
        'document.created',
        '--collection',
        'orders',
      ],
      { env: api.env },
    );
    expect(piped).toMatchObject({ code: 0, stderr: '' });
    const created = JSON.parse(piped.stdout);
    expect(created).toMatchObject({
      url: 'https://example.com/hooks',
      events: ['document.created'],
      collection: 'orders',
      delivery: 'http',
      active: true,
    });
    expect(created.secret).toMatch(/^whsec_/);

    const shown = await runCli(['webhooks', 'create', '--url', 'https://example.com/all'], terminal);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^id\s+url\s+events\s+collection\s+delivery\s+active\s+created\n/);
    expect(shown.stdout).toMatch(/https:\/\/example\.com\/all\s+\*\s+\*\s+http\s+yes/);
    expect(shown.stdout).toMatch(/signing secret {2}whsec_\S+\n$/);
    expect(shown.stderr).toContain('The signing secret above is shown only now');

    const streamed = await runCli(
      ['webhooks', 'create', '--url', 'http://localhost:3000/hooks', '--delivery', 'stream', '--json'],
      { env: api.env },
    );
    expect(JSON.parse(streamed.stdout)).toMatchObject({
      url: 'http://localhost:3000/hooks',
      delivery: 'stream',
    });
    expect(api.mocks.store.webhooks().map((w) => w.delivery)).toEqual(['http', 'http', 'stream']);
    expect(api.requests()).toEqual([CREATE, CREATE, CREATE]);
  });

  it('lists without secrets, deletes, and says which id is unknown (status 4)', async () => {
    const { _id, secret } = await subscribe({ url: 'https://example.com/a', events: ['*'] });
    const listed = await runCli(['webhooks', '--json'], { env: api.env });
    expect(JSON.parse(listed.stdout)).toEqual({
      data: [expect.objectContaining({ _id, url: 'https://example.com/a', delivery: 'http' })],
    });
    expect(listed.stdout).not.toContain(secret);
    const table = await runCli(['webhooks', 'list'], terminal);
    expect(table.stdout).toMatch(
      new RegExp(`${_id}\\s+https://example\\.com/a\\s+\\*\\s+\\*\\s+http\\s+yes`),
    );
    const refused = await runCli(['webhooks', 'delete', _id], { env: api.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`refusing to delete webhook "${_id}" without confirmation`);
    const deleted = await runCli(['webhooks', 'delete', _id, '--json', '--yes'], { env: api.env });
    expect(JSON.parse(deleted.stdout)).toEqual({ _id, deleted: true });
    const empty = await runCli(['webhooks'], terminal);
    expect(empty.stderr).toContain('No webhooks yet');
    const again = await runCli(['webhooks', 'delete', _id, '-y'], { env: api.env });
    expect(again.code).toBe(4);
    expect(again.stderr).toContain(`error: could not delete webhook "${_id}": 404 not_found`);
    expect(api.requests()).toEqual([
      CREATE,
      'GET /api/v1/data/webhooks',
      'GET /api/v1/data/webhooks',
      `DELETE /api/v1/data/webhooks/${_id}`,
      'GET /api/v1/data/webhooks',
      `DELETE /api/v1/data/webhooks/${_id}`,
    ]);
  });

  it('lists deliveries filtered by status, their attempts, and re-sends one', async () => {
    const { _id } = await subscribe({ url: 'https://example.com/a', events: ['*'], collection: 'orders' });
    for (const n of [1, 2, 3])
      await runCli(['data', 'insert', 'orders', JSON.stringify({ n })], { env: api.env });
    const piped = await runCli(['webhooks', 'deliveries', _id, '--status', 'pending', '--limit', '2'], {
      env: api.env,
    });
    const lines = piped.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(lines.every((d) => d.webhookId === _id && d.status === 'pending')).toBe(true);
    const page = JSON.parse(
      (await runCli(['webhooks', 'deliveries', _id, '--json'], { env: api.env })).stdout,
    );
    expect(page.total).toBe(3);
    const table = await runCli(['webhooks', 'deliveries', _id], terminal);
    expect(table.stdout).toMatch(
      /^id\s+event\s+type\s+collection\s+document\s+status\s+tries\s+last\s+next\n/,
    );
    expect(table.stderr).toBe('Showing 3 of 3 deliveries\n');

    const deliveryId = lines[0]._id as string;
    expect(
      JSON.parse(
        (await runCli(['webhooks', 'attempts', _id, deliveryId, '--json'], { env: api.env })).stdout,
      ),
    ).toEqual({ data: [] });
    const resent = await runCli(['webhooks', 'resend', _id, deliveryId, '--json'], { env: api.env });
    expect(JSON.parse(resent.stdout)).toMatchObject({ _id: deliveryId, status: 'pending' });
    expect((await runCli(['webhooks', 'resend', _id, 'dlv_unknown'], { env: api.env })).code).toBe(4);
    expect(api.requests().filter((r) => r.includes('/webhooks/'))).toEqual([
      `GET /api/v1/data/webhooks/${_id}/deliveries?status=pending&limit=2&skip=0`,
      `GET /api/v1/data/webhooks/${_id}/deliveries?skip=0`,
      `GET /api/v1/data/webhooks/${_id}/deliveries?skip=0`,
      `GET /api/v1/data/webhooks/${_id}/deliveries/${deliveryId}/attempts`,
      `POST /api/v1/data/webhooks/${_id}/deliveries/${deliveryId}/resend`,
      `POST /api/v1/data/webhooks/${_id}/deliveries/dlv_unknown/resend`,
    ]);
  });

  it('rotates a secret and prints the new one with the old one’s end', async () => {
    const { _id, secret } = await subscribe({ url: 'https://example.com/a', events: ['*'] });
    const rotated = JSON.parse((await runCli(['webhooks', 'rotate-secret', _id], { env: api.env })).stdout);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    const shown = await runCli(
      ['webhooks', 'rotate-secret', _id, '--secret', 'my-own-secret-1234'],
      terminal,
    );
    expect(shown.stdout).toContain('signing secret  my-own-secret-1234');
    expect(shown.stderr).toContain('Deliveries are signed with the old secret too until 20');
    expect(api.requests()).toEqual([
      CREATE,
      `POST /api/v1/data/webhooks/${_id}/rotate-secret`,
      `POST /api/v1/data/webhooks/${_id}/rotate-secret`,
    ]);
  });

  describe('trigger', () => {
    /** What the test events sent to a subscription were: kind and collection, oldest first. */
    const testEventsOf = (webhookId: string) =>
      api.mocks.store
        .webhookDeliveries(webhookId)
        .reverse()
        .map((d) => ({ type: d.eventType, collection: d.collection }));

    it('sends the test event to every active subscription that wants it, and only to those', async () => {
      const all = await subscribe({ url: 'https://example.com/all', events: ['*'] });
      const orders = await subscribe({
        url: 'https://example.com/o',
        events: ['document.created'],
        collection: 'orders',
      });
      await subscribe({ url: 'https://example.com/d', events: ['document.deleted'] });
      const users = await subscribe({ url: 'https://example.com/u', events: ['*'], collection: 'users' });
      const result = await runCli(
        ['webhooks', 'trigger', 'document.created', '--collection', 'orders', '--json'],
        {
          env: api.env,
        },
      );
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout).data.map((d: { webhookId: string }) => d.webhookId)).toEqual([
        all._id,
        orders._id,
      ]);
      // Without --collection, a subscription to one collection gets an event of that collection, and one of
      // every collection the server's default (`test`).
      const shown = await runCli(['webhooks', 'trigger', 'document.created'], terminal);
      const created = (collection: string) => ({ type: 'document.created', collection });
      expect(testEventsOf(all._id)).toEqual([created('orders'), created('test')]);
      expect(testEventsOf(orders._id)).toEqual([created('orders'), created('orders')]);
      expect(testEventsOf(users._id)).toEqual([created('users')]);
      expect(shown.stderr).toContain(
        `Sent a test document.created event to 3 webhooks: ${all._id}, ${orders._id}, ${users._id}`,
      );
      expect(api.requests()).toEqual([
        CREATE,
        CREATE,
        CREATE,
        CREATE,
        'GET /api/v1/data/webhooks',
        `POST /api/v1/data/webhooks/${all._id}/test`,
        `POST /api/v1/data/webhooks/${orders._id}/test`,
        'GET /api/v1/data/webhooks',
        `POST /api/v1/data/webhooks/${all._id}/test`,
        `POST /api/v1/data/webhooks/${orders._id}/test`,
        `POST /api/v1/data/webhooks/${users._id}/test`,
      ]);
    });

    it('says so with status 4 when no subscription wants the event, and sends to --webhook alone', async () => {
      const deletes = await subscribe({ url: 'https://example.com/d', events: ['document.deleted'] });
      const given = await subscribe({
        url: 'https://example.com/g',
        events: ['document.updated'],
        collection: 'users',
      });
      const none = await runCli(['webhooks', 'trigger', 'document.updated', '--collection', 'orders'], {
        env: api.env,
      });
      expect(none.code).toBe(4);
      expect(none.stderr).toContain('error: no webhook wants document.updated in "orders"');
      expect(none.stderr).toContain('hint: `dp webhooks` lists the subscriptions');

      const one = await runCli(['webhooks', 'trigger', 'document.updated', '--webhook', given._id], {
        env: api.env,
      });
      expect(JSON.parse(one.stdout)).toMatchObject({ webhookId: given._id, eventType: 'document.updated' });
      const unknown = await runCli(['webhooks', 'trigger', 'document.updated', '--webhook', 'wh_unknown'], {
        env: api.env,
      });
      expect(unknown.code).toBe(4);
      expect(unknown.stderr).toContain(
        'could not send a test document.updated event to webhook "wh_unknown"',
      );
      expect(testEventsOf(given._id)).toEqual([{ type: 'document.updated', collection: 'users' }]);
      expect(testEventsOf(deletes._id)).toEqual([]);
      expect(api.requests()).toEqual([
        CREATE,
        CREATE,
        'GET /api/v1/data/webhooks',
        `POST /api/v1/data/webhooks/${given._id}/test`,
        'POST /api/v1/data/webhooks/wh_unknown/test',
      ]);
    });
  });
});
