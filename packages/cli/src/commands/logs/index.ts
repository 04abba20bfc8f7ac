import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newLogsTailCommand } from './tail.js';

/** `dp logs …`: the server's request log. */
export function newLogsCommand(f: Factory): Command {
  const command = new Command('logs')
    .description('Follow the request log (a session, or an API key with logs:read)')
    .addCommand(newLogsTailCommand(f));
  return withExamples(command, ['dp logs tail', 'dp logs tail --status 4xx --json']);
}
