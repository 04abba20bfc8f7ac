import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cluster } from '@dataplatform/contract';
import { expect } from 'vitest';
import { bearer, type SignedUp, signUp, type TestServer } from './helpers.js';

/** A request with a session token. */
export function asUser(
  t: TestServer,
  who: SignedUp,
  method: string,
  path: string,
  body?: unknown,
  headers = {},
) {
  return t.call(method, path, { key: null, headers: { ...bearer(who.token), ...headers }, body });
}

/** A signed-up user on `plan`. */
export async function userOn(t: TestServer, plan: string): Promise<SignedUp> {
  const who = await signUp(t);
  await t.server.storage.accounts.setPlan(who.user._id, plan, new Date().toISOString());
  return who;
}

/** A new cluster of `who`. */
export async function createCluster(t: TestServer, who: SignedUp, name: string) {
  const res = await asUser(t, who, 'POST', '/api/clusters', { name });
  expect(res.status, await res.clone().text()).toBe(201);
  return Cluster.parse(await res.json());
}

/** The token of the last invitation mailed to `email`, read from `<data dir>/outbox.jsonl` (no SMTP configured). */
export function invitationTokenFromOutbox(t: TestServer, email: string): string {
  const lines = readFileSync(join(t.dataDir, 'outbox.jsonl'), 'utf8').trim().split('\n');
  const mail = lines
    .map((line) => JSON.parse(line) as { to: string; text: string })
    .filter((m) => m.to === email && m.text.includes('invitations/accept'))
    .at(-1);
  if (!mail) throw new Error(`no invitation mailed to ${email}`);
  return decodeURIComponent(/token=([^\s&]+)/.exec(mail.text)![1]!);
}

/** A new user who joined `clusterId` as `role` by an invitation of `owner`, accepted with the mailed token. */
export async function memberAs(
  t: TestServer,
  owner: SignedUp,
  clusterId: string,
  role: string,
): Promise<SignedUp> {
  const who = await signUp(t);
  const invited = await asUser(t, owner, 'POST', `/api/clusters/${clusterId}/invitations`, {
    email: who.email,
    role,
  });
  expect(invited.status, await invited.clone().text()).toBe(201);
  const token = invitationTokenFromOutbox(t, who.email);
  const accepted = await asUser(t, who, 'POST', '/api/clusters/invitations/accept', { token });
  expect(accepted.status, await accepted.clone().text()).toBe(200);
  return who;
}
