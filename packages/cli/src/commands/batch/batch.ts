import type { BatchOperation, BatchResponse } from '@dataplatform/sdk';
import { Command } from 'commander';
import { attempt, CliError, UsageError } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { parseJsonSource, readSource } from '../../input/source.js';
import { type Run, withExamples } from '../command.js';

/** Options of `dp batch`. */
export interface BatchOptions {
  /** The operations: a path, `-` for standard input, or undefined for standard input. */
  file?: string | undefined;
  transaction: boolean;
  idempotencyKey?: string | undefined;
}

/** `dp batch <file>`. */
export function newBatchCommand(f: Factory, run: Run<BatchOptions> = runBatch): Command {
  const command = new Command('batch')
    .description('Run up to 1000 operations in one request, in order; --transaction for all or nothing')
    .argument('[file]', 'JSON file: an array of operations or { "operations": [...] }; - for standard input')
    .option(
      '--transaction',
      'apply every operation or none (a failure keeps nothing and exits with status 6)',
      false,
    )
    .option(
      '--idempotency-key <key>',
      'send this Idempotency-Key, so running the command again never writes twice',
    )
    .action((file: string | undefined, options: Omit<BatchOptions, 'file'>) => run(f, { file, ...options }));
  return withExamples(command, [
    'dp batch ops.json --transaction',
    `echo '[{"op":"insert","collection":"orders","data":{"total":1}},{"op":"get","collection":"orders","id":"o-1"}]' | dp batch`,
    '# ops.json: [{ "op": "insert"|"get"|"update"|"patch"|"delete", "collection": "orders", "id"?: "…", "data"?: {…} }, …]',
  ]);
}

/**
 * Prints one result per operation (`--json`: the API's `{ results, transaction }`). Exits with status 1 when some
 * operation failed, after printing every result.
 */
export async function runBatch(f: Factory, options: BatchOptions): Promise<void> {
  const file = options.file === undefined || options.file === '-' ? options.file : `@${options.file}`;
  const source = await readSource(f.io, file, 'operations');
  const batch = batchOf(parseJsonSource(source, 'operations'), source.origin);
  const { operations } = batch;
  const transaction = options.transaction || batch.transaction;
  const client = await f.client();
  const answer: BatchResponse = await attempt(
    `run the batch of ${operations.length} operations${transaction ? ' as one transaction' : ''}`,
    client.data.batch(operations, { transaction, idempotencyKey: options.idempotencyKey }),
  );
  const out = await f.output();
  const failed = answer.results.filter((r) => r.error !== undefined).length;
  if (out.json) await out.writeJson(answer);
  else if (!out.tty) for (const result of answer.results) await out.writeJsonLine(result);
  else {
    const rows = answer.results.map((r, i) => {
      const op = operations[i];
      const id =
        r.data && typeof r.data === 'object' && '_id' in r.data ? r.data._id : op && 'id' in op ? op.id : '';
      return [
        r.index,
        op?.op,
        op?.collection,
        id,
        r.status,
        r.error ? `${r.error.code}: ${r.error.error}` : 'ok',
      ];
    });
    await out.writeTable(['#', 'op', 'collection', '_id', 'status', 'result'], rows);
  }
  if (failed > 0) {
    throw new CliError(`${failed} of ${answer.results.length} operations failed`, {
      hint: 'the results above say which and why; the others were applied',
    });
  }
  const count = answer.results.length;
  out.success(`${count} ${count === 1 ? 'operation' : 'operations'} done`);
}

/**
 * The operations of a batch file: a bare array, or an object with `operations` (and maybe `transaction`). Each
 * operation is passed on as written: the server checks them and names the first wrong one.
 */
function batchOf(value: unknown, origin: string): { operations: BatchOperation[]; transaction: boolean } {
  if (Array.isArray(value)) return { operations: value as BatchOperation[], transaction: false };
  if (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { operations?: unknown }).operations)
  ) {
    const { operations, transaction } = value as { operations: BatchOperation[]; transaction?: unknown };
    return { operations, transaction: transaction === true };
  }
  throw new UsageError(
    `the operations from ${origin} are neither an array nor an object with "operations"`,
    'write [{ "op": "insert", "collection": "orders", "data": { … } }, …]',
  );
}
