import { type IOStreams, isTerminal } from '../../iostreams.js';
import { formatBytes, formatCount, formatDuration, formatElapsed } from '../../output/units.js';
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
  /** Nothing is shown (--json). */
  quiet: boolean;
}

const BAR_WIDTH = 24;
const REDRAW_MS = 100;

/**
 * The line while the file is sent: bar and percent (when the size is known), bytes sent, the rows in them, the
 * pace of the bytes and the time left to send them. Only the server knows how fast rows are stored, so no rate
 * of rows is shown: the server reads what is sent a little later, and buffers in between hide the difference.
 */
export function sendingLine(input: Pick<ProgressInput, 'tally' | 'size'>, seconds: number): string {
  const { tally, size } = input;
  const parts = ['sending'];
  const fraction = size ? Math.min(1, tally.bytes / size) : undefined;
  if (fraction !== undefined) {
    const filled = Math.round(fraction * BAR_WIDTH);
    parts.push(`[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${Math.floor(fraction * 100)}%`);
    parts.push(`${formatBytes(tally.bytes)} / ${formatBytes(size!)}`);
  } else parts.push(formatBytes(tally.bytes));
  if (tally.rows !== undefined) parts.push(`${formatCount(tally.rows)} rows`);
  parts.push(`${formatBytes(tally.bytes / Math.max(seconds, 0.001))}/s`);
  if (fraction !== undefined && fraction > 0 && fraction < 1) {
    parts.push(`${formatDuration((seconds / fraction) * (1 - fraction))} left`);
  }
  return parts.join('  ');
}

/**
 * The line once every byte is sent, while the server finishes storing the rows: what was sent and in how long,
 * and (on a terminal, redrawn) how long the wait for the server has lasted.
 */
export function sentLine(tally: Tally, sendSeconds: number, waitSeconds?: number): string {
  const rows = tally.rows === undefined ? '' : `, ${formatCount(tally.rows)} rows`;
  const waited = waitSeconds === undefined ? '' : ` (${formatDuration(waitSeconds)})`;
  return `sent ${formatBytes(tally.bytes)}${rows} in ${formatElapsed(sendSeconds)}; waiting for the server to finish the import${waited}`;
}

/**
 * On a terminal, a line redrawn ten times a second; otherwise a plain line at each tenth of the file (or every
 * 5 seconds when the size is unknown), for logs. Nothing with --json.
 */
export function startProgress(input: ProgressInput): Progress {
  const { io, tally } = input;
  if (input.quiet) return { stop() {} };
  const started = Date.now();
  const seconds = (from: number, to = Date.now()) => (to - from) / 1000;
  const line = (terminal: boolean) =>
    tally.sentAt === undefined
      ? sendingLine(input, seconds(started))
      : sentLine(tally, seconds(started, tally.sentAt), terminal ? seconds(tally.sentAt) : undefined);
  if (isTerminal(io.stderr) && !io.env.CI) {
    // One line that fits, so that \r redraws it in place.
    const draw = () =>
      io.stderr.write(`\r\x1b[2K${line(true).slice(0, Math.max(20, (io.stderr.columns || 100) - 1))}`);
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
  let sentShown = false;
  const report = (last = false) => {
    if (tally.sentAt !== undefined) {
      if (!sentShown) io.stderr.write(`${line(false)}\n`);
      sentShown = true;
      return;
    }
    const { size } = input;
    // The tenth that ends the file is the "sent" line.
    const step = size ? Math.min(9, Math.floor((tally.bytes / size) * 10)) : 0;
    const due = size ? step > lastStep : Date.now() - lastAt >= 5000;
    if (!due && !(last && tally.bytes > 0)) return;
    lastStep = step;
    lastAt = Date.now();
    io.stderr.write(`${line(false)}\n`);
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
