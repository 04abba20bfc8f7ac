import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors/cli-error.js';
import { type IOStreams, isTerminal, readAll } from '../iostreams.js';

/** Text read from where the user pointed, and how to name that place in a message. */
export interface SourceText {
  text: string;
  origin: string;
}

/**
 * Reads a command's input the way curl and gh do: `@path` reads a file, `-` or `@-` reads standard input,
 * no value reads standard input when it is not a terminal, anything else is the text itself.
 */
export async function readSource(
  io: IOStreams,
  value: string | undefined,
  what: string,
): Promise<SourceText> {
  if (value === undefined) {
    if (isTerminal(io.stdin)) {
      throw new UsageError(
        `no ${what} given`,
        `give the ${what} as an argument, as @file, or on standard input`,
      );
    }
    return { text: await readAll(io.stdin), origin: 'standard input' };
  }
  if (value === '-' || value === '@-') return { text: await readAll(io.stdin), origin: 'standard input' };
  if (value.startsWith('@')) {
    const path = value.slice(1);
    try {
      return { text: await readFile(path, 'utf8'), origin: path };
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
      throw new UsageError(`could not read the ${what} from ${path}: ${reason}`);
    }
  }
  return { text: value, origin: 'the argument' };
}

/** Parses JSON input, or a usage error that says where the bad JSON came from and what is wrong with it. */
export function parseJsonSource(source: SourceText, what: string): unknown {
  if (source.text.trim() === '') throw new UsageError(`the ${what} from ${source.origin} is empty`);
  try {
    return JSON.parse(source.text);
  } catch (error) {
    throw new UsageError(`the ${what} from ${source.origin} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Reads one JSON object: a document or a patch. */
export async function readJsonObject(
  io: IOStreams,
  value: string | undefined,
  what: string,
): Promise<Record<string, unknown>> {
  const source = await readSource(io, value, what);
  const parsed = parseJsonSource(source, what);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const hint = Array.isArray(parsed) ? 'for several documents at once, use `dp batch <file>`' : undefined;
    throw new UsageError(`the ${what} from ${source.origin} must be a JSON object`, hint);
  }
  return parsed as Record<string, unknown>;
}
