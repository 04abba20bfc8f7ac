/**
 * MSW handlers for the dataplatform API, derived from the contract's route table and backed by an
 * in-memory model with the reference server's semantics, so code that calls the API can be tested offline.
 * @packageDocumentation
 */
import type { RequestHandler } from 'msw';
import { createDataPlatformMocks } from './create-mocks.js';

export type { MockMail } from './accounts.js';
export {
  createDataPlatformMocks,
  type DataPlatformMocks,
  type DataPlatformMocksOptions,
  DEFAULT_BASE_URL,
} from './create-mocks.js';
export { type AddKeyOptions, type KeyStatus, MOCK_API_KEY } from './keys.js';
export type { MockStore } from './mock-store.js';

/** Handlers of a default mock instance on `http://localhost:5000`; call it with `MOCK_API_KEY`. */
export const handlers: RequestHandler[] = createDataPlatformMocks().handlers;
