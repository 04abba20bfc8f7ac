import type { DataPlatform } from '../client.js';

/** Base of the resource classes: one per URL segment, all sharing the client's transport, retries and errors. */
export abstract class APIResource {
  protected readonly _client: DataPlatform;

  constructor(client: DataPlatform) {
    this._client = client;
  }
}
