import { type FieldSummary, frequencies, isMissing, type Scalar } from '@dataplatform/contract';

/** One numeric input column of a model: a standardized number (or boolean as 0/1), or one category's indicator. */
export type Column =
  | { feature: string; kind: 'number'; mean: number; std: number }
  | { feature: string; kind: 'onehot'; value: string };

/** How rows become numbers: the columns, and the value a missing feature takes. */
export interface Encoding {
  columns: Column[];
  imputation: Record<string, Scalar>;
}

/** At most this many categories of one feature get a column of their own; rarer ones count as none. */
const MAX_CATEGORIES = 100;

function numeric(value: unknown): number {
  return typeof value === 'boolean' ? Number(value) : (value as number);
}

/**
 * The encoding learned from the training rows only (so the held-out rows do not leak into it): numbers and
 * booleans are imputed with the training mean (booleans the most frequent) and standardized; strings and
 * categories are imputed with the most frequent value and one-hot encoded.
 */
export function fitEncoding(
  rows: readonly Record<string, unknown>[],
  features: readonly FieldSummary[],
): Encoding {
  const columns: Column[] = [];
  const imputation: Record<string, Scalar> = {};
  for (const field of features) {
    const present = rows.map((row) => row[field.name]).filter((v) => !isMissing(v)) as Scalar[];
    if (field.type === 'number' || field.type === 'boolean') {
      const numbers = present.map(numeric);
      const mean = numbers.length ? numbers.reduce((s, v) => s + v, 0) / numbers.length : 0;
      const std = Math.sqrt(numbers.reduce((s, v) => s + (v - mean) ** 2, 0) / Math.max(numbers.length, 1));
      imputation[field.name] =
        field.type === 'boolean' ? ((frequencies(present)[0]?.value as boolean | undefined) ?? false) : mean;
      columns.push({ feature: field.name, kind: 'number', mean, std: std > 0 ? std : 1 });
    } else {
      const counted = frequencies(present.map(String));
      imputation[field.name] = (counted[0]?.value as string | undefined) ?? '';
      for (const { value } of counted.slice(0, MAX_CATEGORIES))
        columns.push({ feature: field.name, kind: 'onehot', value: value as string });
    }
  }
  return { columns, imputation };
}

/** A row as the model's numbers; a missing feature takes its imputed value, an unseen category none. */
export function encodeRow(encoding: Encoding, row: Record<string, unknown>): number[] {
  return encoding.columns.map((column) => {
    const raw = row[column.feature];
    const value = isMissing(raw) || typeof raw === 'object' ? encoding.imputation[column.feature] : raw;
    if (column.kind === 'onehot') return String(value) === column.value ? 1 : 0;
    const number = numeric(value);
    return Number.isFinite(number) ? (number - column.mean) / column.std : 0;
  });
}
