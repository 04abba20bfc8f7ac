package dev.dataplatform;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/** When to retry and how long to wait: the same rules as the Node and Python clients (docs/java.md, "Retries"). */
final class Retry {
  /**
   * 409 codes no retry can change: a duplicate id stays a duplicate, a reused Idempotency-Key stays mismatched (the
   * retry carries the same key), an aborted transaction failed on its own operations. Other 409s are transient.
   */
  static final Set<String> FINAL_CONFLICTS = Set.of("conflict", "idempotency_mismatch", "transaction_aborted");

  /** The longest server-requested wait sat through by default: covers the API's {@code Retry-After: 60}. */
  static final Duration MAX_RETRY_WAIT = Duration.ofSeconds(60);

  private Retry() {}

  /** Whether an error answer is worth another attempt: 408, 409 (not its final codes), 429 and 5xx. */
  static boolean isRetryableStatus(int status, String code) {
    if (status == 409) return code == null || !FINAL_CONFLICTS.contains(code);
    return status == 408 || status == 429 || status >= 500;
  }

  /** The wait the server asked for: {@code retry-after-ms}, else {@code Retry-After} (seconds or HTTP date). */
  static Duration serverDelay(HttpHeaders headers, Instant now) {
    String ms = headers.firstValue("retry-after-ms").orElse("").trim();
    if (!ms.isEmpty()) {
      try {
        double value = Double.parseDouble(ms);
        if (value >= 0) return Duration.ofNanos((long) (value * 1_000_000));
      } catch (NumberFormatException ignored) {
        // falls through to Retry-After
      }
    }
    String after = headers.firstValue("retry-after").orElse("").trim();
    if (after.isEmpty()) return null;
    try {
      double seconds = Double.parseDouble(after);
      return seconds >= 0 ? Duration.ofNanos((long) (seconds * 1_000_000_000L)) : null;
    } catch (NumberFormatException ignored) {
      // an HTTP date, below
    }
    try {
      Instant date = ZonedDateTime.parse(after, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      Duration left = Duration.between(now, date);
      return left.isNegative() ? Duration.ZERO : left;
    } catch (DateTimeParseException error) {
      return null;
    }
  }

  /** Exponential backoff with jitter: 0.5 s, 1 s, 2 s … capped at 8 s, each shortened by up to a quarter. */
  static Duration backoff(int retry, double jitter) {
    double seconds = Math.min(0.5 * Math.pow(2, retry), 8.0) * (1 - jitter * 0.25);
    return Duration.ofNanos((long) (seconds * 1_000_000_000L));
  }

  /** The wait before retry number {@code retry} (0-based); null: do not retry (the server asked for too long). */
  static Duration delay(int retry, HttpHeaders headers, Duration maxWait) {
    Duration asked = headers == null ? null : serverDelay(headers, Instant.now());
    if (asked == null) return backoff(retry, ThreadLocalRandom.current().nextDouble());
    return asked.compareTo(maxWait) <= 0 ? asked : null;
  }
}
