import type { StoredDocument, WebhookEvent } from '../contract-types.js';
import { DataPlatformError } from '../core/error.js';
import type { ServerSentEvent } from '../internal/event-stream.js';
import type { EventStreamOptions } from '../internal/request-options.js';
import { type ResumeHooks, resumingEventStream } from '../internal/resuming-event-stream.js';
import type { SqlParam } from './query.js';

/** One change of a collection, as a webhook receiver gets it; `id` is the event id to resume after. */
export type ChangeEvent<T extends object> = Omit<WebhookEvent, 'data' | 'previous'> & {
  /** The document after the change; for `document.deleted`, as it was before. */
  data: StoredDocument<T>;
  /** For `document.updated`: the document before the change. */
  previous?: StoredDocument<T>;
};

/** Options of `client.data.subscribe()`. */
export interface SubscribeOptions
  extends Pick<EventStreamOptions, 'signal' | 'headers' | 'timeout' | 'idleTimeout'>,
    ResumeHooks {
  /** A condition in the SQL helper's grammar (`status = ? AND total > 100`), matched against each changed document. */
  where?: string;
  /** Values of the `?` placeholders of `where`, in order. */
  params?: SqlParam[];
  /** Start after this event id (a `ChangeEvent.id` kept from before); default: changes from now on. */
  since?: string;
}

/** The stream's `error` event: why the server closed it. */
interface StreamErrorBody {
  code?: string;
  message?: string;
}

/** The server no longer keeps the event a subscription asked to resume after: reload, then subscribe from now. */
export class ChangeStreamGoneError extends DataPlatformError {
  override name = 'ChangeStreamGoneError';
  constructor(
    message: string,
    /** The id the subscription tried to resume after. */
    readonly lastEventId: string,
  ) {
    super(message);
  }
}

/**
 * The changes of a collection, resumed by itself after every drop (see `resumingEventStream`). An `error` event
 * other than `gone` (a reader too far behind, say) comes before the server closes the stream, and the stream then
 * resumes after the last event received; `gone` ends it with ChangeStreamGoneError.
 */
export async function* changeEvents<T extends object>(
  open: (options: EventStreamOptions) => AsyncGenerator<ServerSentEvent, void, undefined>,
  options: SubscribeOptions,
): AsyncGenerator<ChangeEvent<T>, void, undefined> {
  const { where, params, since, onOpen, onDrop, ...request } = options;
  const query = {
    where,
    params: params === undefined ? undefined : JSON.stringify(params),
  };
  const events = resumingEventStream((resume) => open({ ...request, ...resume, query }), {
    lastEventId: since,
    signal: request.signal,
    onOpen,
    onDrop,
  });
  for await (const event of events) {
    const body = parse(event);
    if (event.event !== 'error') {
      yield body as ChangeEvent<T>;
      continue;
    }
    const error = body as StreamErrorBody;
    if (error.code === 'gone') {
      throw new ChangeStreamGoneError(error.message ?? `Event ${event.id} is no longer kept`, event.id);
    }
  }
}

function parse(event: ServerSentEvent): unknown {
  try {
    return JSON.parse(event.data);
  } catch (error) {
    throw new DataPlatformError(`Could not parse event ${event.id} of the change stream as JSON`, {
      cause: error,
    });
  }
}
