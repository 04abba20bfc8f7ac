import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../src/index.js';
import { useMockedApi } from './mocked-api.js';

const { signedIn } = useMockedApi();

const CODE = 'export default async function (input, ctx) { return input; }';

describe('client.functions', () => {
  it('creates, lists, reads, deploys, runs and deletes a function', async () => {
    const client = await signedIn();
    const fn = await client.functions.create({ name: 'hello', code: CODE });
    expect(fn).toMatchObject({ name: 'hello', version: 1 });
    await expect(client.functions.create({ name: 'hello', code: CODE })).rejects.toBeInstanceOf(
      ConflictError,
    );
    const names: string[] = [];
    for await (const each of client.functions.list()) names.push(each.name);
    expect(names).toEqual(['hello']);
    expect((await client.functions.get(fn._id)).code).toBe(CODE);
    expect((await client.functions.deploy(fn._id, { code: CODE })).version).toBe(2);
    const run = await client.functions.invoke(fn._id, { a: 1 });
    expect(run).toMatchObject({ result: null });
    expect((await client.functions.invocations(fn._id)).total).toBe(1);
    await client.functions.delete(fn._id);
    await expect(client.functions.get(fn._id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('client.triggers', () => {
  it('creates a schedule trigger, pauses, resumes and runs it by hand', async () => {
    const client = await signedIn();
    const fn = await client.functions.create({ name: 'nightly', code: CODE });
    const trigger = await client.triggers.create({
      name: 'nightly',
      source: { type: 'schedule', cron: '0 3 * * *' },
      target: { function: fn._id },
    });
    expect(trigger).toMatchObject({ active: true, lastRunAt: null });
    expect((await client.triggers.pause(trigger._id)).active).toBe(false);
    expect((await client.triggers.resume(trigger._id)).active).toBe(true);
    expect(await client.triggers.run(trigger._id)).toMatchObject({
      status: 'queued',
      event: { manual: true },
    });
    expect((await client.triggers.runs(trigger._id)).total).toBe(1);
    await expect(
      client.triggers.create({
        name: 'x',
        source: { type: 'schedule', cron: '0 * * * *' },
        target: { function: 'fn_none' },
      }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
