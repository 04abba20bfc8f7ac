/**
 * The body of a dataplatform delivery (docs/api.md, Webhooks). Pass it as the type parameter of the adapters,
 * or narrow `payload` to it yourself; the verifier never depends on it.
 */
export interface DataPlatformEvent<TDocument = Record<string, unknown>> {
  /** `evt_…`; the same in every attempt of a delivery, so receivers de-duplicate by it. */
  id: string;
  type: 'document.created' | 'document.updated' | 'document.deleted';
  /** ISO 8601. */
  createdAt: string;
  collection: string;
  documentId: string;
  data: TDocument | null;
  previous?: TDocument | null;
  /** True only for a test event (sent with `POST …/webhooks/{id}/test`): no document changed. */
  test?: boolean;
}
