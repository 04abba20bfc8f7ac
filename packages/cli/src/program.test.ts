import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { runCli, testIO } from '../test/harness.js';
import { examplesOf } from './commands/command.js';
import { createFactory } from './factory.js';
import { createProgram } from './program.js';
import { VERSION } from './version.js';

/** Every command of the tree with its path, root first. */
function allCommands(): { path: string[]; command: Command }[] {
  const found: { path: string[]; command: Command }[] = [];
  const visit = (command: Command, path: string[]) => {
    found.push({ path, command });
    for (const sub of command.commands) visit(sub, [...path, sub.name()]);
  };
  visit(createProgram(createFactory(testIO().io)), []);
  return found;
}

describe('the command tree', () => {
  const commands = allCommands();

  it.each(commands.map(({ path, command }) => ({ name: ['dp', ...path].join(' '), path, command })))(
    '$name --help shows a description, the global options and examples, with exit status 0',
    async ({ path, command }) => {
      expect(command.description()).not.toBe('');
      expect(examplesOf(command)?.length).toBeGreaterThan(0);
      const result = await runCli([...path, '--help']);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toContain(`Usage: dp ${path.join(' ')}`.trimEnd());
      expect(result.stdout).toContain('--base-url <url>');
      expect(result.stdout).toContain('\nExamples:\n');
      expect(result.stdout.split('\nExamples:\n')[1]).toContain('  $ dp ');
    },
  );
});

describe('dp', () => {
  it('prints its version', async () => {
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect((await runCli(['-v'])).stdout).toBe(`${VERSION}\n`);
  });

  it('lists the environment variables, the precedence and the exit statuses in its help', async () => {
    const { stdout } = await runCli(['--help']);
    expect(stdout).toContain('DATAPLATFORM_API_KEY');
    expect(stdout).toContain(
      'A flag wins over a variable, a variable over the profile, the profile over the default.',
    );
    expect(stdout).toContain('Exit status: 0 ok, 1 error, 2 usage, 3 no or refused credential');
  });

  it('shows the help on standard error with exit status 2 when a group is given no command', async () => {
    const result = await runCli(['data']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: dp data [options] [command]');
  });

  it('suggests the closest command for a typo, with exit status 2', async () => {
    const result = await runCli(['dat', 'list']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining("unknown command 'dat'") });
    expect(result.stderr).toContain('(Did you mean data?)');
  });

  it('reports a usage error as JSON on standard error with --json', async () => {
    const result = await runCli(['data', 'list', '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr)).toEqual({
      error: { message: "missing required argument 'collection'", exitCode: 2 },
    });
  });

  it('refuses an unknown global option with exit status 2', async () => {
    const result = await runCli(['whoami', '--verbose']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("error: unknown option '--verbose'");
  });
});
