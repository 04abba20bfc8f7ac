package dev.dataplatform;

/** 413: the body is over the server's limit (1 MiB by default). */
public class PayloadTooLargeException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public PayloadTooLargeException(Answer answer) {
    super(answer);
  }
}
