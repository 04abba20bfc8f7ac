package dev.dataplatform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RetryRulesTest {
  private static HttpHeaders headers(String name, String value) {
    return HttpHeaders.of(Map.of(name, List.of(value)), (a, b) -> true);
  }

  @Test
  void whichStatusesAreRetried() {
    assertTrue(Retry.isRetryableStatus(408, null));
    assertTrue(Retry.isRetryableStatus(429, null));
    assertTrue(Retry.isRetryableStatus(502, null));
    assertTrue(Retry.isRetryableStatus(409, "write_conflict"));
    assertFalse(Retry.isRetryableStatus(409, "idempotency_mismatch"));
    assertFalse(Retry.isRetryableStatus(404, null));
  }

  @Test
  void theServerSaysHowLongInMillisecondsSecondsOrADate() {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    assertEquals(Duration.ofMillis(250), Retry.serverDelay(headers("retry-after-ms", "250"), now));
    assertEquals(Duration.ofSeconds(2), Retry.serverDelay(headers("retry-after", "2"), now));
    assertEquals(
        Duration.ofSeconds(30), Retry.serverDelay(headers("retry-after", "Thu, 01 Jan 2026 00:00:30 GMT"), now));
    assertNull(Retry.serverDelay(headers("retry-after", "soon"), now));
  }

  @Test
  void backoffDoublesUpToEightSecondsLessAQuarterAtMost() {
    assertEquals(Duration.ofMillis(500), Retry.backoff(0, 0));
    assertEquals(Duration.ofMillis(750), Retry.backoff(1, 1));
    assertEquals(Duration.ofSeconds(8), Retry.backoff(10, 0));
    assertNull(Retry.delay(0, headers("retry-after", "61"), Duration.ofSeconds(60)));
  }
}
