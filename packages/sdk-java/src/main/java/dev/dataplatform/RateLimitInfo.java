package dev.dataplatform;

import java.net.http.HttpHeaders;

/**
 * The key's rate limit as an answer's {@code RateLimit-*} headers told it.
 *
 * @param limit requests allowed per minute
 * @param remaining requests left in the current window
 * @param resetSeconds seconds until the window resets
 */
public record RateLimitInfo(long limit, long remaining, long resetSeconds) {
  /** Reads the three headers; null when one is missing or not a number (most answers have none). */
  static RateLimitInfo of(HttpHeaders headers) {
    var limit = headers.firstValue("ratelimit-limit");
    if (limit.isEmpty()) return null;
    try {
      return new RateLimitInfo(
          Long.parseLong(limit.get()),
          Long.parseLong(headers.firstValue("ratelimit-remaining").orElse("")),
          Long.parseLong(headers.firstValue("ratelimit-reset").orElse("")));
    } catch (NumberFormatException error) {
      return null;
    }
  }
}
