import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Command } from 'commander';
import { attempt } from '../../errors/cli-error.js';
import type { Factory } from '../../factory.js';
import { type Run, withExamples } from '../command.js';
import { backupsClient } from './backups-client.js';

/** Options of `dp backups download`. */
export interface BackupsDownloadOptions {
  id: string;
  /** The file to write; `<id>.ndjson.gz` by default. */
  output: string | undefined;
}

/** `dp backups download <id> [--output file]`. */
export function newBackupsDownloadCommand(
  f: Factory,
  run: Run<BackupsDownloadOptions> = runBackupsDownload,
): Command {
  const command = new Command('download')
    .description("Download a backup's archive (gzip of NDJSON) to a file")
    .argument('<id>', 'the backup id')
    .option('-o, --output <file>', 'the file to write (default: <id>.ndjson.gz)')
    .action((id: string, options: { output?: string }) => run(f, { id, output: options.output }));
  return withExamples(command, [
    'dp backups download bkp_01J…',
    'dp backups download bkp_01J… -o latest.ndjson.gz',
  ]);
}

/** Streams the archive to the file and prints its path. */
export async function runBackupsDownload(f: Factory, options: BackupsDownloadOptions): Promise<void> {
  const { client } = await backupsClient(f);
  const file = options.output ?? `${options.id}.ndjson.gz`;
  const response = await attempt(`download backup "${options.id}"`, client.backups.download(options.id));
  await pipeline(Readable.fromWeb(response.body as never), createWriteStream(file));
  const out = await f.output();
  if (out.json) return void (await out.writeJson({ _id: options.id, file }));
  await out.write(`${file}\n`);
}
