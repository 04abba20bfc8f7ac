import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, runCli, tempConfigDir } from '../../../test/harness.js';
import { newCompletionCommand } from './completion.js';

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

async function script(shell: string): Promise<string> {
  const result = await runCli(['completion', shell]);
  expect(result.code).toBe(0);
  const file = join(tempConfigDir(), `dp.${shell}`);
  writeFileSync(file, result.stdout);
  return file;
}

describe('dp completion: arguments', () => {
  it.each(['bash', 'zsh', 'fish'])('takes %s', async (shell) => {
    expect(await parseArgs(newCompletionCommand, [shell])).toMatchObject({ ok: true, options: { shell } });
  });

  it('refuses another shell with exit status 2', async () => {
    const parsed = await parseArgs(newCompletionCommand, ['powershell']);
    expect(parsed).toMatchObject({ ok: false, code: 2 });
    expect(parsed.ok || parsed.stderr).toContain('Allowed choices are bash, zsh, fish');
  });
});

describe('dp completion bash', () => {
  /** What bash offers for the words typed, the last one being completed. */
  async function complete(...typed: string[]): Promise<string[]> {
    const file = await script('bash');
    const words = ['dp', ...typed].map((w) => `'${w}'`).join(' ');
    const out = execFileSync(
      'bash',
      [
        '-c',
        `source ${file}; COMP_WORDS=(${words}); COMP_CWORD=${typed.length}; _dp_completion; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      { encoding: 'utf8' },
    );
    return out.split('\n').filter(Boolean).sort();
  }

  it.each([
    [['d'], ['data']],
    [
      [''],
      [
        'backups',
        'batch',
        'billing',
        'clusters',
        'completion',
        'config',
        'data',
        'functions',
        'indexes',
        'intelligence',
        'jobs',
        'keys',
        'login',
        'logout',
        'logs',
        'metrics',
        'notifications',
        'profiles',
        'schema',
        'sql',
        'triggers',
        'upload',
        'webhooks',
        'whoami',
      ],
    ],
    [['data', 'l'], ['list']],
    [['data', 'list', 'orders', '--l'], ['--limit']],
    [['--json', 'data', 'r'], ['replace']],
    [
      ['completion', ''],
      ['bash', 'fish', 'zsh'],
    ],
    [
      ['config', 'set', ''],
      ['api-key', 'base-url', 'token'],
    ],
    [
      ['sql', '--p'],
      ['--param', '--profile'],
    ],
    [['--profile', ''], []],
  ])('offers %j → %j', async (typed, offered) => {
    expect(await complete(...typed)).toEqual(offered);
  });

  it('completes a file after @', async () => {
    const dir = tempConfigDir();
    writeFileSync(join(dir, 'order.json'), '{}');
    expect(await complete('data', 'insert', 'orders', `@${dir}/ord`)).toEqual([`@${dir}/order.json`]);
  });
});

describe('dp completion zsh', () => {
  /**
   * What `_dp` hands to zsh's `_describe` for the words typed: the completion system itself is replaced by a stub
   * that prints the candidates' names, so the test reads what the script offers without a terminal.
   */
  function complete(file: string, ...typed: string[]): string[] {
    const words = ['dp', ...typed].map((w) => `'${w}'`).join(' ');
    const stub =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh parameter expansions, not a template.
      'compdef() { :; }; _describe() { local -a list; list=("${(@P)${@[-1]}}"); print -l -- "${list[@]%%:*}"; }';
    const run = `${stub}; source ${file}; words=(${words}); CURRENT=${typed.length + 1}; PREFIX='${typed.at(-1)}'; _dp`;
    const out = execFileSync('zsh', ['-f', '-c', run], { encoding: 'utf8' });
    return out
      .split('\n')
      .filter((name) => name.startsWith(typed.at(-1) ?? '') && name !== '')
      .sort();
  }

  it.skipIf(!has('zsh'))('offers subcommands, argument values and options', async () => {
    const file = await script('zsh');
    expect(complete(file, 'da')).toEqual(['data']);
    expect(complete(file, 'data', 'u')).toEqual(['update']);
    expect(complete(file, 'data', 'list', 'orders', '--s')).toEqual(['--skip', '--sort']);
    expect(complete(file, 'completion', 'f')).toEqual(['fish']);
  });
});

describe('dp completion fish', () => {
  it.skipIf(!has('fish'))('offers subcommands and options in fish', async () => {
    const file = await script('fish');
    const complete = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', `source ${file}; complete -C '${line}'`], {
        encoding: 'utf8',
      })
        .split('\n')
        .filter(Boolean)
        .map((entry) => entry.split('\t')[0]);
    expect(complete('dp data l')).toEqual(['list']);
    expect(complete('dp data list orders --li')).toEqual(['--limit']);
    expect(complete('dataplatform sq')).toEqual(['sql']);
  });
});
