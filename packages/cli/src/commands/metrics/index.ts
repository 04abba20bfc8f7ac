import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newMetricsShowCommand } from './show.js';
import { newMetricsSummaryCommand } from './summary.js';

/** `dp metrics …`: request metrics and totals of a cluster. `dp metrics` alone shows the series. */
export function newMetricsCommand(f: Factory): Command {
  const command = new Command('metrics')
    .description('Request metrics and totals of a cluster (needs a session: `dp login`)')
    .addCommand(newMetricsShowCommand(f), { isDefault: true })
    .addCommand(newMetricsSummaryCommand(f));
  return withExamples(command, ['dp metrics', 'dp metrics --interval hour', 'dp metrics summary']);
}
