import { DataPlatform, type Notification } from '@dataplatform/sdk';
import { expect, it } from 'vitest';
import { forEachEngine, signUp } from './helpers.js';

/** `client.notifications.stream()` against the reference server: what is raised after it opened, then resumption. */
forEachEngine((server) => {
  it('yields each notification raised while it is open, and resumes after lastEventId', async () => {
    const t = server();
    const who = await signUp(t);
    const client = new DataPlatform({ baseUrl: t.url, token: who.token, maxRetries: 0 });
    const raise = (title: string) =>
      t.server.app.notifier.raise(who.user._id, 'function_failing', { title, body: `${title} body` });
    let opened!: () => void;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const seen: Notification[] = [];
    const reading = (async () => {
      for await (const n of client.notifications.stream({ onOpen: () => opened() })) {
        seen.push(n);
        if (seen.length === 2) break;
      }
    })();
    await open;
    await raise('first');
    await raise('second');
    await reading;
    expect(seen.map((n) => [n.kind, n.title])).toEqual([
      ['function_failing', 'first'],
      ['function_failing', 'second'],
    ]);
    // Opened again after the first: the second comes again, and only it.
    for await (const n of client.notifications.stream({ lastEventId: seen[0]!._id })) {
      expect(n._id).toBe(seen[1]!._id);
      break;
    }
  });
});
