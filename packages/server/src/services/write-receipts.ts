import { writeReceipt } from '@dataplatform/contract';

/** A document answer as a caller that may write but not read gets it: the system fields only. */
export function receiptText(documentText: string): string {
  return JSON.stringify(writeReceipt(JSON.parse(documentText) as Record<string, unknown>));
}

/**
 * A batch answer as a caller that may write but not read gets it: each stored document cut to its system fields;
 * deletes (`{ _id, deleted }`) and failures stay as they are.
 */
export function batchReceiptText(answerText: string): string {
  const answer = JSON.parse(answerText) as { results: { data?: Record<string, unknown> }[] };
  for (const result of answer.results) {
    if (result.data && '_createdAt' in result.data) result.data = writeReceipt(result.data);
  }
  return JSON.stringify(answer);
}
