import type { JobRowError, PredictResult } from '@dataplatform/contract';
import type { DocumentOperation } from '../../storage/documents.js';
import { nextId } from '../document-operations.js';
import type { Guard } from '../schema-guards.js';
import type { SourceRow } from './source-rows.js';

/**
 * The documents a batch prediction writes for some source rows, `{ sourceId, prediction, probabilities? }`, as
 * inserts, and the rows the output collection's strict validator refuses (as an import's bad rows: by line, the
 * row's number in the source counting from 1). The inserts go through `documents.apply`, which writes their
 * outbox events in the same transaction, so webhooks and change streams see predictions as any other write.
 */
export function predictionDocuments(
  rows: readonly SourceRow[],
  answer: PredictResult,
  outputCollection: string,
  guard: Guard | null,
  firstLine: number,
): { operations: DocumentOperation[]; refused: JobRowError[] } {
  const now = new Date().toISOString();
  const operations: DocumentOperation[] = [];
  const refused: JobRowError[] = [];
  rows.forEach((row, i) => {
    const fields = {
      sourceId: row._id ?? null,
      prediction: answer.predictions[i] ?? null,
      ...(answer.probabilities ? { probabilities: answer.probabilities[i] } : {}),
    };
    const violation = guard?.(fields);
    if (violation) {
      refused.push({ line: firstLine + i, code: violation.code, message: violation.message });
      return;
    }
    operations.push({
      kind: 'insert',
      collection: outputCollection,
      row: {
        // The source's id, so that a run again after a restart finds what it wrote (a conflict, not a copy).
        id: typeof row._id === 'string' ? row._id : nextId(),
        data: JSON.stringify(fields),
        createdAt: now,
        updatedAt: now,
      },
    });
  });
  return { operations, refused };
}
