package dev.dataplatform;

/** 5xx: the server failed or the cluster is unavailable. */
public class InternalServerException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public InternalServerException(Answer answer) {
    super(answer);
  }
}
