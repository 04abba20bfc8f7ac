import type { DataPlatform, RequestLogEntry, RequestLogParams } from '@dataplatform/sdk';
import { Command, InvalidArgumentError, Option } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { wholeNumber, withExamples } from '../command.js';
import { onInterrupt } from '../interrupt.js';

/** Options of `dp logs tail`. */
export interface LogsTailOptions {
  /** A status code (`404`) or class (`4xx`). */
  status?: string;
  method?: RequestLogParams['method'];
  /** Paths that start with this. */
  path?: string;
  key?: string;
  /** Milliseconds between two looks at the log. */
  interval: number;
}

/** The tail's own reads of the log: never shown, or every look would add a line. */
const OWN_PATHS = ['/api/logs/requests', '/api/v1/logs/requests'];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** `dp logs tail [--status 4xx] [--method POST] [--path /api/v1/data] [--key id]`. */
export function newLogsTailCommand(
  f: Factory,
  run: (f: Factory, options: LogsTailOptions, stop?: AbortSignal) => Promise<void> = runLogsTail,
): Command {
  const command = new Command('tail')
    .description('Follow requests to the server as they are answered, until Ctrl-C')
    .option('--status <status>', 'only this status (404) or class (4xx)', checkStatus)
    .addOption(new Option('--method <method>', 'only this method').choices(METHODS))
    .option('--path <prefix>', 'only paths that start with this')
    .option('--key <id>', 'only requests made with this API key')
    .addOption(
      new Option('--interval <ms>', 'milliseconds between looks at the log')
        .argParser(wholeNumber(100, 60_000))
        .default(1000)
        .hideHelp(),
    )
    .action((options: LogsTailOptions) => run(f, options));
  return withExamples(command, [
    'dp logs tail',
    'dp logs tail --status 5xx',
    'dp logs tail --method POST --path /api/v1/data/orders --json',
  ]);
}

function checkStatus(value: string): string {
  if (!/^([1-5][0-9][0-9]|[1-5]xx)$/.test(value))
    throw new InvalidArgumentError('expected a status (404) or a class (4xx).');
  return value;
}

/**
 * Follows the request log from now on: looks every second for requests answered since the last look and prints
 * them oldest first (a line on a terminal, JSON lines otherwise), until Ctrl-C, SIGTERM or `stop`. With a session
 * it shows the user's requests and their clusters'; with an API key (`logs:read`) its cluster's.
 */
export async function runLogsTail(f: Factory, options: LogsTailOptions, stop?: AbortSignal): Promise<void> {
  const client = await f.client();
  const out = await f.output();
  const interrupt = stop ? undefined : onInterrupt();
  const signal = stop ?? interrupt!.signal;
  const filters: RequestLogParams = {
    status: options.status,
    method: options.method,
    path: options.path,
    keyId: options.key,
  };
  f.io.stderr.write(
    f.flags.json
      ? `${JSON.stringify({ status: 'ready' })}\n`
      : `${out.errStyle.green('Ready!')} Following requests (Ctrl-C to stop)\n`,
  );
  let since = new Date().toISOString();
  const seenAtSince = new Set<string>();
  try {
    while (!signal.aborted) {
      const fresh = await attempt('read the request log', look(client, { ...filters, from: since }));
      for (const entry of fresh) {
        if (seenAtSince.has(entry._id) || OWN_PATHS.some((p) => entry.path.startsWith(p))) continue;
        if (entry.t !== since) seenAtSince.clear();
        since = entry.t;
        seenAtSince.add(entry._id);
        await print(out, entry);
      }
      await sleep(options.interval, signal);
    }
  } finally {
    interrupt?.dispose();
  }
}

/** Requests answered from `from` on, oldest first (a page of up to 1000 newest, which one second rarely passes). */
async function look(client: DataPlatform, params: RequestLogParams): Promise<RequestLogEntry[]> {
  const page = client.token
    ? await client.logs.requests.list({ ...params, limit: 1000 })
    : await client.logs.requests.listByKey({ ...params, limit: 1000 });
  return [...page.data].reverse();
}

async function print(out: Awaited<ReturnType<Factory['output']>>, entry: RequestLogEntry): Promise<void> {
  if (!out.tty || out.json) return void (await out.writeJsonLine(entry));
  const { green, yellow, red, dim } = out.style;
  const colour = entry.status >= 500 ? red : entry.status >= 400 ? yellow : green;
  const clock = new Date(entry.t).toTimeString().slice(0, 8);
  await out.write(
    `${dim(clock)}  ${colour(String(entry.status))}  ${entry.method.padEnd(6)} ${entry.path} ${dim(`(${Math.round(entry.durationMs)} ms)`)}  ${dim(entry.requestId)}\n`,
  );
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
