package dev.dataplatform;

/** 412: {@code If-Match} named a version the document no longer has. */
public class PreconditionFailedException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public PreconditionFailedException(Answer answer) {
    super(answer);
  }
}
