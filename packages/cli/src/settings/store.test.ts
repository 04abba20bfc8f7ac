import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempConfigDir } from '../../test/harness.js';
import { openProfileStore } from './store.js';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('the profile store', () => {
  it('writes config.json in the chosen directory, readable and writable by the owner only', async () => {
    const dir = tempConfigDir();
    const store = await openProfileStore({ dir });
    expect(store.path).toBe(join(dir, 'config.json'));
    store.set('default', 'apiKey', 'svc_secret');
    expect(mode(store.path)).toBe(0o600);
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toEqual({
      profiles: { default: { apiKey: 'svc_secret' } },
    });
  });

  it('makes a file that others could read private again on the next write', async () => {
    const dir = tempConfigDir();
    const path = join(dir, 'config.json');
    writeFileSync(path, '{"profiles":{}}');
    chmodSync(path, 0o644);
    (await openProfileStore({ dir })).set('ci', 'token', 'tok');
    expect(mode(path)).toBe(0o600);
  });

  it('keeps profiles apart, and forgets the current one when it is removed', async () => {
    const store = await openProfileStore({ dir: tempConfigDir() });
    store.set('a', 'baseUrl', 'http://a');
    store.set('b', 'baseUrl', 'http://b');
    store.set('b', 'apiKey', 'svc_b');
    store.use('b');
    expect(store.unset('b', 'token')).toBe(false);
    expect(store.unset('b', 'apiKey')).toBe(true);
    expect(store.read()).toEqual({
      currentProfile: 'b',
      profiles: { a: { baseUrl: 'http://a' }, b: { baseUrl: 'http://b' } },
    });
    expect(store.remove('b')).toBe(true);
    expect(store.remove('b')).toBe(false);
    expect(store.read()).toEqual({ currentProfile: undefined, profiles: { a: { baseUrl: 'http://a' } } });
  });

  it('reads nothing and writes nothing when no file exists yet', async () => {
    const store = await openProfileStore({ dir: tempConfigDir() });
    expect(store.read()).toEqual({ currentProfile: undefined, profiles: {} });
    expect(() => statSync(store.path)).toThrow();
  });

  it('names the file when it is not JSON', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'config.json'), '{ not json');
    await expect(openProfileStore({ dir })).rejects.toThrow(/could not read the configuration/);
  });
});
