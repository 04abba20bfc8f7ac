import type { TestProject } from 'vitest/node';
import {
  hasCommand,
  postgresBinaries,
  startPostgres,
  startRedis,
  startStripeMock,
  stripeMockBinary,
  type TestService,
} from './services.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Administrative address of the test PostgreSQL, or null when none could be started. */
    postgresUrl: string | null;
    /** Address of the test Redis, or null. */
    redisUrl: string | null;
    /** Address of the test stripe-mock, or null. */
    stripeMockUrl: string | null;
  }
}

/**
 * Starts one PostgreSQL, one Redis and one stripe-mock for the whole run. Without the binaries the PostgreSQL and Redis tests
 * skip with a notice, except in CI, where a missing service fails the run: CI must never skip them quietly.
 */
export default async function setup(project: TestProject) {
  const services: TestService[] = [];
  const bin = postgresBinaries();
  const ci = Boolean(process.env.CI);
  if (bin) {
    const pg = await startPostgres(bin);
    services.push(pg);
    project.provide('postgresUrl', pg.url);
  } else {
    if (ci)
      throw new Error('PostgreSQL server binaries are missing; .ci/run installs the postgresql package');
    console.warn(
      "\n⚠ PostgreSQL binaries not found: the PostgreSQL engine tests are skipped (install Debian's postgresql).\n",
    );
    project.provide('postgresUrl', null);
  }
  if (hasCommand('redis-server')) {
    const redis = await startRedis();
    services.push(redis);
    project.provide('redisUrl', redis.url);
  } else {
    if (ci) throw new Error('redis-server is missing; .ci/run installs the redis-server package');
    console.warn(
      "\n⚠ redis-server not found: the shared rate-limit tests are skipped (install Debian's redis-server).\n",
    );
    project.provide('redisUrl', null);
  }
  const stripeMock = stripeMockBinary();
  if (stripeMock) {
    const stripe = await startStripeMock(stripeMock);
    services.push(stripe);
    project.provide('stripeMockUrl', stripe.url);
  } else {
    if (ci) throw new Error('stripe-mock is missing; .ci/run installs it with go install');
    console.warn(
      '\n⚠ stripe-mock not found: the Stripe payment tests are skipped (go install github.com/stripe/stripe-mock@latest).\n',
    );
    project.provide('stripeMockUrl', null);
  }
  return async () => {
    await Promise.all(services.map((service) => service.stop()));
  };
}
