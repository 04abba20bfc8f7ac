// rate-limiter-flexible declares its classes on the package's index only; these are the same classes, each from
// the module that defines it (see rate-limiter-stores.ts, which says why).
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  export { RateLimiterMemory as default } from 'rate-limiter-flexible';
}
declare module 'rate-limiter-flexible/lib/RateLimiterRedis.js' {
  export { RateLimiterRedis as default } from 'rate-limiter-flexible';
}
declare module 'rate-limiter-flexible/lib/RateLimiterRes.js' {
  export { RateLimiterRes as default } from 'rate-limiter-flexible';
}
