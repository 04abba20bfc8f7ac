import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countsText, paceText } from '../../src/commands/jobs/show.js';
import { tempConfigDir } from '../harness.js';
import { BIN, dp } from './binary.js';
import { useReferenceServer } from './reference-server.js';

const reference = useReferenceServer();

/** Settings of a user who signs in: the server's address and a fresh configuration directory, no key. */
function userEnv(): Record<string, string> {
  const { url } = reference();
  return { DATAPLATFORM_BASE_URL: url, DATAPLATFORM_CONFIG_DIR: tempConfigDir() };
}

describe('signing in, uploading and jobs against the reference server', () => {
  it('logs in by e-mail, uploads 100,000 NDJSON rows and a CSV file, lists the jobs, and logs out', async () => {
    const env = userEnv();
    const { email, password } = reference();
    const login = await dp(['login', '--email', email, '--password-stdin'], { env, stdin: `${password}\n` });
    expect(login).toMatchObject({ code: 0, stdout: '' });
    const whoami = await dp(['whoami', '--json'], { env });
    expect(JSON.parse(whoami.stdout)).toMatchObject({
      credential: { kind: 'token' },
      user: { email },
      plan: 'team',
    });

    const dir = tempConfigDir();
    const ndjson = join(dir, 'events.ndjson');
    let text = '';
    for (let i = 0; i < 100_000; i++) text += `{"i":${i},"kind":"e${i % 7}"}\n`;
    writeFileSync(ndjson, text);
    const upload = await dp(['upload', ndjson, '--collection', 'events'], { env });
    expect(upload.code).toBe(0);
    const job = JSON.parse(upload.stdout);
    expect(job).toMatchObject({
      status: 'succeeded',
      counts: { rows: 100_000, inserted: 100_000, failed: 0 },
    });
    // Piped, progress is plain lines on standard error: what was sent, then what the server says it stored.
    expect(upload.stderr.trim().split('\n').slice(-2)).toEqual([
      expect.stringMatching(
        /^sent [\d.]+ MB, 100,000 rows in \S+; waiting for the server to finish the import$/,
      ),
      `imported 100,000 rows: 100,000 stored, 0 refused into "events"${paceText(job)}`,
    ]);
    expect(paceText(job)).toMatch(/^ in \S+ \([\d,]+ rows\/s, timed by the server\)$/);
    const count = await dp(['data', 'list', 'events', '--limit', '1', '--json'], { env });
    expect(JSON.parse(count.stdout).total).toBe(100_000);

    const csv = join(dir, 'people.csv');
    writeFileSync(csv, 'name,age,member\nada,36,true\n"hopper, grace",85,false\nbroken\n');
    const csvUpload = await dp(['upload', csv, '-c', 'people', '--json'], { env });
    expect(csvUpload.code).toBe(0);
    const csvJob = JSON.parse(csvUpload.stdout);
    expect(csvJob).toMatchObject({
      counts: { rows: 3, inserted: 2, failed: 1 },
      errors: [{ line: 4, code: 'invalid_row' }],
    });
    const people = await dp(['data', 'list', 'people', '--sort', 'age', '--json'], { env });
    expect(
      JSON.parse(people.stdout).data.map(({ name, age, member }: Record<string, unknown>) => ({
        name,
        age,
        member,
      })),
    ).toEqual([
      { name: 'ada', age: 36, member: true },
      { name: 'hopper, grace', age: 85, member: false },
    ]);

    const jobs = await dp(['jobs', '--json'], { env });
    expect(JSON.parse(jobs.stdout).data.map((j: { _id: string }) => j._id)).toEqual([csvJob._id, job._id]);
    const got = await dp(['jobs', 'get', job._id], { env });
    expect(JSON.parse(got.stdout)).toEqual(job);
    const watched = await dp(['jobs', 'watch', job._id, '--json'], { env });
    expect(JSON.parse(watched.stdout)).toEqual(job);
    const cancel = await dp(['jobs', 'cancel', job._id], { env });
    expect(cancel.code).toBe(6);

    const logout = await dp(['logout'], { env });
    expect(logout.code).toBe(0);
    const after = await dp(['whoami'], { env });
    expect(after.code).toBe(3);
  }, 120_000);

  it.each([
    {
      name: 'with-header.csv',
      text: `id,name,score\n${Array.from({ length: 20_000 }, (_, i) => `${i},name ${i},${i % 100}`).join('\n')}\n`,
      rows: 20_000,
    },
    { name: 'crlf.csv', text: 'a,b\r\n1,2\r\n\r\n"x\r\ny",3\r\n""\r\nshort', rows: 3 },
    { name: 'blank-lines.ndjson', text: '{"n":1}\r\n\r\n \t\n{"n":2}\nnot json', rows: 3 },
    { name: 'array.json', text: '[\n  {"n":1},\n  {"s":"],[{\\"}"}\n]\n', rows: 2 },
    { name: 'sniffed', text: '\uFEFFname\nada\n\ngrace', rows: 2 },
  ])(
    "counts the rows of $name as the server does, and ends with the job's own count and pace",
    async ({ name, text, rows }) => {
      const file = join(tempConfigDir(), name);
      writeFileSync(file, text);
      const upload = await dp(['upload', file, '-c', 'counted'], { env: reference().env() });
      expect(upload.code).toBe(0);
      const job = JSON.parse(upload.stdout);
      expect(job.counts.rows).toBe(rows);
      expect(upload.stderr.trim().split('\n').slice(-2)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^sent [\\d.]+ K?B, ${rows.toLocaleString('en-US')} rows in \\S+; waiting for the server`,
          ),
        ),
        `imported ${countsText(job)} into "counted"${paceText(job)}`,
      ]);
    },
  );

  it('resumes an upload that stopped at a bad row, storing every row once', async () => {
    const env = reference().env();
    const file = join(tempConfigDir(), 'rows.ndjson');
    const rows = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ i }));
    rows[3210] = '{"i":';
    writeFileSync(file, `${rows.join('\n')}\n`);
    const first = await dp(['upload', file, '-c', 'resumable', '--on-error', 'abort'], { env });
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('--resume job_');
    rows[3210] = JSON.stringify({ i: 3210 });
    writeFileSync(file, `${rows.join('\n')}\n`);
    const second = await dp(['upload', file, '-c', 'resumable', '--resume', '--json'], { env });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({
      _id: JSON.parse(first.stdout)._id,
      counts: { inserted: 5000 },
    });
    const count = await dp(['data', 'list', 'resumable', '--limit', '1', '--json'], { env });
    expect(JSON.parse(count.stdout).total).toBe(5000);
  }, 60_000);
});

describe('the password prompt on a terminal', () => {
  it('asks for the password without echoing it, under a pseudo-terminal made by script(1)', async () => {
    const env = userEnv();
    const { email, password } = reference();
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} login --email ${email}`;
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'dumb', ...env },
    });
    let screen = '';
    const prompted = new Promise<void>((resolve) => {
      child.stdout.on('data', (chunk: Buffer) => {
        screen += chunk.toString('utf8');
        if (screen.includes('Password for')) resolve();
      });
    });
    const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
    await prompted;
    // Raw mode is on once the prompt is out; give the terminal a moment to switch before typing.
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.stdin.write(`${password}\r`);
    const code = await exited;
    expect(code).toBe(0);
    expect(screen).toContain(`Password for ${email}: `);
    expect(screen).not.toContain(password);
    expect(screen).toContain(`Logged in as ${email}`);
    const saved = JSON.parse(readFileSync(join(env.DATAPLATFORM_CONFIG_DIR!, 'config.json'), 'utf8'));
    expect(saved.profiles.default.token).toEqual(expect.any(String));
  }, 30_000);
});
