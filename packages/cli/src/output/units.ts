/** Bytes in the units people read: 950 B, 12.3 KB, 45.6 MB, 1.2 GB (powers of 1000, as file managers show). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = -1;
  do {
    value /= 1000;
    unit++;
  } while (value >= 1000 && unit < units.length - 1);
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** A count with thousands separators: 1,234,567. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** A duration in seconds as 45s, 3m 05s or 2h 10m. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** A measured duration, finer than `formatDuration` below a minute: 340ms, 3.1s, then 2m 05s. */
export function formatElapsed(seconds: number): string {
  if (seconds < 0.9995) return `${Math.max(0, Math.round(seconds * 1000))}ms`;
  if (seconds < 59.95) return `${seconds.toFixed(1)}s`;
  return formatDuration(seconds);
}
