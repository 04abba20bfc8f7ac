/** A date-time as the reader's locale writes it, or a dash. */
export function when(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

/** A byte count in the largest unit that keeps it above one. */
export function bytes(value: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let amount = value;
  let unit = 0;
  while (amount >= 1024 && unit < units.length - 1) {
    amount /= 1024;
    unit++;
  }
  return `${unit === 0 ? amount : amount.toFixed(1)} ${units[unit]}`;
}

/** A count with the locale's grouping. */
export const count = (value: number): string => value.toLocaleString();

/** A JSON value in one line, cut to `max` characters, for table cells. */
export function cell(value: unknown, max = 80): string {
  if (value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
