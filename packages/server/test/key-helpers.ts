import { expect } from 'vitest';
import { ApiError } from '../src/http/errors.js';
import { type AccountSeed, createAccountWithKey, type KeyOwner, KeyService } from '../src/index.js';
import type { TestServer } from './helpers.js';

/** Checks an HTTP error answer: status, code, and the request id in body and header. */
export async function expectError(res: Response, status: number, code: string) {
  expect({
    status: res.status,
    code: res.status >= 400 ? ((await res.clone().json()) as { code: string }).code : null,
  }).toEqual({
    status,
    code,
  });
  const body = await res.json();
  expect(body.requestId).toBe(res.headers.get('x-request-id'));
  return body;
}

/** Expects a service call to fail with this API error code; returns the error. */
export async function expectApiError(call: Promise<unknown>, code: string): Promise<ApiError> {
  const error = await call.then(
    () => {
      throw new Error(`expected ${code}, but the call succeeded`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe(code);
  return error as ApiError;
}

let accounts = 0;

/** A fresh account of its own (free plan, no trial unless asked) and the owner value its keys are managed as. */
export async function newAccount(t: TestServer, seed: Partial<AccountSeed> = {}) {
  const created = await createAccountWithKey(t.server.storage, {
    email: `acct-${++accounts}-${Math.random().toString(36).slice(2)}@example.com`,
    name: 'Account',
    password: 'long enough password',
    ...seed,
  });
  const owner: KeyOwner = { userId: created.userId, robotId: null };
  return { ...created, owner };
}

/** The key service over a test server's storage, optionally with its own clock. */
export function keyService(t: TestServer, now?: () => number): KeyService {
  return new KeyService(t.server.storage, now);
}

/** Waits until the usage history of a key holds `count` entries (it is written in batches, every 100 ms). */
export async function usageOf(t: TestServer, owner: KeyOwner, keyId: string, count: number) {
  const service = keyService(t);
  await expect
    .poll(async () => (await service.usage(owner, keyId, { limit: 1000 })).total, {
      timeout: 5000,
      interval: 50,
    })
    .toBe(count);
  return (await service.usage(owner, keyId, { limit: 1000 })).data;
}
