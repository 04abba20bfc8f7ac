import { type IOStreams, isTerminal } from '../../iostreams.js';
import { formatBytes, formatCount, formatDuration } from '../../output/units.js';
import type { Tally } from './source.js';

/** Shows how an upload goes; `stop` clears what it drew. */
export interface Progress {
  stop(): void;
}

/** What the progress knows of the upload. */
export interface ProgressInput {
  io: IOStreams;
  tally: Tally;
  /** Bytes of the file, when known. */
  size: number | undefined;
  /** Whether lines count documents (NDJSON, CSV, not compressed). */
  countsDocuments: boolean;
  /** Nothing is shown (--json). */
  quiet: boolean;
}

const BAR_WIDTH = 24;
const REDRAW_MS = 100;

/** One line: bar and percent (when the size is known), bytes, documents, rate and time left. */
export function progressLine(input: ProgressInput, elapsedSeconds: number, width = 100): string {
  const { tally, size } = input;
  const parts: string[] = [];
  const fraction = size ? Math.min(1, tally.bytes / size) : undefined;
  if (fraction !== undefined) {
    const filled = Math.round(fraction * BAR_WIDTH);
    parts.push(`[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${Math.floor(fraction * 100)}%`);
    parts.push(`${formatBytes(tally.bytes)} / ${formatBytes(size!)}`);
  } else parts.push(formatBytes(tally.bytes));
  const seconds = Math.max(elapsedSeconds, 0.001);
  if (input.countsDocuments) {
    parts.push(`${formatCount(tally.lines)} docs`);
    parts.push(`${formatCount(tally.lines / seconds)} docs/s`);
  } else parts.push(`${formatBytes(tally.bytes / seconds)}/s`);
  if (fraction !== undefined && fraction > 0 && fraction < 1) {
    parts.push(`${formatDuration((elapsedSeconds / fraction) * (1 - fraction))} left`);
  }
  return parts.join('  ').slice(0, Math.max(20, width - 1));
}

/**
 * On a terminal, a line redrawn ten times a second; otherwise a plain line at each tenth of the file (or every
 * 5 seconds when the size is unknown), for logs. Nothing with --json.
 */
export function startProgress(input: ProgressInput): Progress {
  const { io } = input;
  if (input.quiet) return { stop() {} };
  const started = Date.now();
  const elapsed = () => (Date.now() - started) / 1000;
  if (isTerminal(io.stderr) && !io.env.CI) {
    const draw = () => io.stderr.write(`\r\x1b[2K${progressLine(input, elapsed(), io.stderr.columns)}`);
    const timer = setInterval(draw, REDRAW_MS);
    timer.unref?.();
    return {
      stop() {
        clearInterval(timer);
        io.stderr.write('\r\x1b[2K');
      },
    };
  }
  let lastStep = 0;
  let lastAt = started;
  const report = (last = false) => {
    const { size, tally } = input;
    const step = size ? Math.floor((tally.bytes / size) * 10) : 0;
    const due = size ? step > lastStep : Date.now() - lastAt >= 5000;
    if (!due && !(last && tally.bytes > 0 && (size === undefined || lastStep < 10))) return;
    lastStep = last ? 10 : step;
    lastAt = Date.now();
    io.stderr.write(`uploaded ${progressLine(input, elapsed())}\n`);
  };
  const timer = setInterval(report, 250);
  timer.unref?.();
  return {
    stop() {
      clearInterval(timer);
      report(true);
    },
  };
}
