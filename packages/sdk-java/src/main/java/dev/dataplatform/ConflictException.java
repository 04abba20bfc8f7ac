package dev.dataplatform;

/** 409: a duplicate id, a reused idempotency key, or an aborted transaction. */
public class ConflictException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public ConflictException(Answer answer) {
    super(answer);
  }
}
