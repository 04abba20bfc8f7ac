// What goes wrong, as classes to catch. Run: DATAPLATFORM_BASE_URL=… DATAPLATFORM_API_KEY=… pnpm errors
import {
  APIConnectionError,
  APIError,
  BadRequestError,
  DataPlatform,
  NotFoundError,
  PermissionDeniedError,
} from '@dataplatform/sdk';

const client = new DataPlatform();

/** Runs a call that should fail and says which class it failed with. */
async function explain(what: string, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
    console.log(`${what}: no error`);
  } catch (error) {
    // Every error of a request has a status (undefined when no answer came), a code and a request id.
    if (!(error instanceof APIError)) throw error;
    console.log(
      `${what}: ${error.name} ${error.status ?? '-'} ${error.code ?? '-'} (request ${error.requestId})`,
    );
    if (error instanceof NotFoundError) console.log('  nothing there: create it first');
    if (error instanceof BadRequestError) console.log('  details:', JSON.stringify(error.details));
    if (error instanceof PermissionDeniedError) console.log('  the key lacks a scope');
    if (error instanceof APIConnectionError) console.log('  no answer: is the server running?');
  }
}

await explain('a missing document', () => client.data.get('orders', 'no-such-id'));
await explain('a field the server sets', () => client.data.create('orders', { _createdAt: 'yesterday' }));
await explain('a statement that is not a SELECT', () => client.data.sql('DELETE FROM orders'));
// A port nobody listens on, without retries: the error still has the id the request was sent with.
await explain('an address with no server', () =>
  client.withOptions({ baseUrl: 'http://127.0.0.1:9', maxRetries: 0 }).data.list('orders'),
);
