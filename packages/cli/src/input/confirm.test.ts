import { describe, expect, it } from 'vitest';
import { testIO } from '../../test/harness.js';
import { confirm } from './confirm.js';

const action = 'delete document "o-1" of "orders"';

describe('confirm', () => {
  it('goes on with --yes without asking, terminal or not', async () => {
    for (const stdin of [true, false]) {
      const { io, stderr } = testIO({ tty: { stdin, stderr: true } });
      await expect(confirm(io, { yes: true, action })).resolves.toBeUndefined();
      expect(stderr()).toBe('');
    }
  });

  it.each([
    { what: 'a pipe', tty: { stderr: true } },
    { what: 'a terminal input with standard error redirected', tty: { stdin: true } },
  ])('refuses with status 2 on $what, naming --yes', async ({ tty }) => {
    const { io } = testIO({ tty, stdin: 'y\n' });
    await expect(confirm(io, { yes: undefined, action })).rejects.toMatchObject({
      exitCode: 2,
      message: `refusing to ${action} without confirmation: standard input is not a terminal to ask on`,
      hint: 'pass --yes to confirm',
    });
  });

  it.each(['y\n', 'Y\n', 'yes\r\n', ' y \n'])('goes on when the person answers %j', async (answer) => {
    const { io, stderr } = testIO({ tty: { stdin: true, stderr: true }, stdin: answer });
    await expect(confirm(io, { yes: false, action })).resolves.toBeUndefined();
    expect(stderr()).toBe('Delete document "o-1" of "orders"? [y/N] ');
  });

  it.each(['\n', 'n\n', 'no\n', 'sure\n', ''])('stops with status 1 on %j', async (answer) => {
    const { io } = testIO({ tty: { stdin: true, stderr: true }, stdin: answer });
    await expect(confirm(io, { yes: undefined, action })).rejects.toMatchObject({
      exitCode: 1,
      message: `did not ${action}: not confirmed`,
    });
  });
});
