/// <reference path="./rate-limiter-flexible-modules.d.ts" />
/**
 * The rate-limiter-flexible classes the server uses, each from its own module: the package's index loads every
 * store it supports (MongoDB, MySQL, DynamoDB, Prisma, Etcd, …), code the start would compile for nothing.
 * The reference brings their declarations along to every package that type-checks the server's source.
 */
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';

export type { RateLimiterAbstract } from 'rate-limiter-flexible';
export { RateLimiterMemory, RateLimiterRedis, RateLimiterRes };
