import type { Redis } from 'ioredis';
import type { ServerConfig } from './config.js';

/** State that several server instances must share beyond the database: Redis, when configured. */
export interface SharedState {
  redis: Redis | undefined;
  close(): Promise<void>;
}

/** Connects to `REDIS_URL` when it is set and checks that Redis answers. */
export async function openSharedState(config: Pick<ServerConfig, 'redisUrl'>): Promise<SharedState> {
  if (!config.redisUrl) return { redis: undefined, close: async () => {} };
  // Loaded only here: a single instance without Redis never needs the client.
  const { Redis } = await import('ioredis');
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  try {
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new Error(`REDIS_URL is set but Redis does not answer: ${(error as Error).message}`);
  }
  return {
    redis,
    async close() {
      await redis.quit();
    },
  };
}
