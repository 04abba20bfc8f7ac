import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config.js';
import type { Notifier } from '../notifications/notifier.js';
import type { Storage } from '../storage/types.js';
import { ReceiverPolicy } from './addresses.js';
import { type Clock, systemClock } from './clock.js';
import { DeliveryDispatcher } from './dispatch.js';
import { openSecretBox } from './encryption-key.js';
import { ReceiverResolver } from './resolver.js';
import { DeliverySender } from './sender.js';
import { WebhookService } from './service.js';
import { EventStreams } from './stream.js';
import { DeliveryWorker } from './worker.js';

/** The webhook machinery of one server instance: the routes' service, the event streams and the delivery worker. */
export interface WebhookRuntime {
  service: WebhookService;
  streams: EventStreams;
  /** Null on an instance without the key of the stored secrets: it captures events but does not deliver. */
  worker: DeliveryWorker | null;
  /** Signs and posts one event to a subscription's receiver; null as the worker is. */
  sender: DeliverySender | null;
  /** Stops the worker (waiting for deliveries in flight) and closes its connections. */
  close(): Promise<void>;
}

/** Opens the webhook machinery; the worker is made but not started. */
export async function openWebhooks(
  config: Pick<
    ServerConfig,
    | 'encryptionKey'
    | 'dataDir'
    | 'webhookAllowPrivate'
    | 'webhookAllowLoopback'
    | 'webhookRetrySchedule'
    | 'webhookPollInterval'
    | 'webhookConcurrency'
    | 'webhookDnsServers'
    | 'webhookDnsTimeout'
  >,
  storage: Storage,
  log: FastifyBaseLogger,
  clock: Clock = systemClock,
  /** Told of every delivery attempt, with its cluster (billing's usage meter). */
  onAttempt?: (clusterId: string) => void,
  /** Tells subscription owners of failing and disabled webhooks. */
  notifier?: Notifier,
): Promise<WebhookRuntime> {
  const box = await openSecretBox(config, storage, log);
  // One resolver for the create-time check and the connections' lookups, so both see the same answers.
  const resolver = new ReceiverResolver({
    servers: config.webhookDnsServers,
    timeoutMs: config.webhookDnsTimeout,
  });
  const policy = new ReceiverPolicy(
    { allowPrivate: config.webhookAllowPrivate, allowLoopback: config.webhookAllowLoopback },
    resolver.resolve,
  );
  const service = new WebhookService(storage, policy, box, clock);
  const streams = new EventStreams(storage, service);
  const dispatcher = new DeliveryDispatcher(policy);
  const sender = box ? new DeliverySender(box, dispatcher) : null;
  const worker = sender
    ? new DeliveryWorker({
        storage,
        sender,
        clock,
        schedule: config.webhookRetrySchedule,
        pollIntervalMs: config.webhookPollInterval,
        concurrency: config.webhookConcurrency,
        log,
        onAttempt,
        notifier,
      })
    : null;
  return {
    service,
    streams,
    worker,
    sender,
    async close() {
      await worker?.stop();
      await dispatcher.close();
    },
  };
}
