import type { Readable, Writable } from 'node:stream';

/** An output stream as the CLI uses it: a Writable that may be a terminal. */
export type OutStream = Writable & { isTTY?: boolean; columns?: number };

/**
 * The process's streams and environment, handed to every command so tests can run the CLI in-process with
 * strings for streams, a made-up environment and any mix of terminals.
 */
export interface IOStreams {
  stdin: Readable & { isTTY?: boolean };
  stdout: OutStream;
  stderr: OutStream;
  env: Record<string, string | undefined>;
}

/** The streams and environment of this process. */
export function systemIO(): IOStreams {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
}

/** Whether the stream is a terminal (a person is probably reading it). */
export function isTerminal(stream: { isTTY?: boolean }): boolean {
  return stream.isTTY === true;
}

/** Writes `text`, waiting when the stream's buffer is full so a long listing never piles up in memory. */
export function write(stream: Writable, text: string): Promise<void> | undefined {
  if (stream.write(text)) return undefined;
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      stream.off('drain', done);
      stream.off('error', done);
      if (error) reject(error);
      else resolve();
    };
    stream.once('drain', done);
    stream.once('error', done);
  });
}

/** Reads a whole stream as UTF-8 text. */
export async function readAll(stream: Readable): Promise<string> {
  let text = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream) text += chunk;
  return text;
}
