package dev.dataplatform;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Options of one call; each set one overrides the client's own for that call only. Made with {@link #builder()}.
 */
public final class RequestOptions {
  /** No option set. */
  public static final RequestOptions NONE = builder().build();

  private final Map<String, String> headers;
  private final Duration timeout;
  private final Integer maxRetries;
  private final Duration maxRetryWait;
  private final String idempotencyKey;
  private final String ifMatch;

  private RequestOptions(Builder builder) {
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(builder.headers));
    this.timeout = builder.timeout;
    this.maxRetries = builder.maxRetries;
    this.maxRetryWait = builder.maxRetryWait;
    this.idempotencyKey = builder.idempotencyKey;
    this.ifMatch = builder.ifMatch;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Extra headers, lower-case names; a null value removes one the client would send. */
  public Map<String, String> headers() {
    return headers;
  }

  /** The wait for each attempt, or null for the client's. */
  public Duration timeout() {
    return timeout;
  }

  /** Retries after the first attempt, or null for the client's. */
  public Integer maxRetries() {
    return maxRetries;
  }

  /** The longest {@code Retry-After} wait sat through, or null for the client's. */
  public Duration maxRetryWait() {
    return maxRetryWait;
  }

  /** The {@code Idempotency-Key} of a write, or null for a random one. */
  public String idempotencyKey() {
    return idempotencyKey;
  }

  /** The {@code If-Match} of a write to a document, or null. */
  public String ifMatch() {
    return ifMatch;
  }

  /** Sets the options one by one. */
  public static final class Builder {
    private final Map<String, String> headers = new LinkedHashMap<>();
    private Duration timeout;
    private Integer maxRetries;
    private Duration maxRetryWait;
    private String idempotencyKey;
    private String ifMatch;

    private Builder() {}

    /** An extra header; a null value removes one the client would send. */
    public Builder header(String name, String value) {
      headers.put(name.toLowerCase(java.util.Locale.ROOT), value);
      return this;
    }

    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    public Builder maxRetries(int maxRetries) {
      this.maxRetries = maxRetries;
      return this;
    }

    public Builder maxRetryWait(Duration maxRetryWait) {
      this.maxRetryWait = maxRetryWait;
      return this;
    }

    /** The key every attempt of a write sends, so the server applies it once; a random one when not set. */
    public Builder idempotencyKey(String idempotencyKey) {
      this.idempotencyKey = idempotencyKey;
      return this;
    }

    /**
     * The {@code ETag} a document was read with: the write then happens only if the document is still that
     * version, else {@link PreconditionFailedException} (412) and nothing is written.
     */
    public Builder ifMatch(String ifMatch) {
      this.ifMatch = ifMatch;
      return this;
    }

    public RequestOptions build() {
      return new RequestOptions(this);
    }
  }
}
