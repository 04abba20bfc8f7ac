package dev.dataplatform;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/** Request ids: a random prefix per process and a counter, the form the server keeps as it is and logs. */
final class RequestIds {
  private static final String PREFIX = "req_" + HexFormat.of().formatHex(new SecureRandom().generateSeed(6));
  private static final AtomicLong COUNTER = new AtomicLong();

  private RequestIds() {}

  /** A new {@code X-Request-Id} for one call; every attempt of the call sends the same id. */
  static String next() {
    String count = Long.toString(COUNTER.incrementAndGet(), 36);
    return PREFIX + "0".repeat(Math.max(0, 8 - count.length())) + count;
  }
}
