package dev.dataplatform;

/** 429: the key used up its requests for this minute; {@code Retry-After} says for how long. */
public class RateLimitException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public RateLimitException(Answer answer) {
    super(answer);
  }
}
