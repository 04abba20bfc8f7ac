package dev.dataplatform;

/** 405: the path exists, but not with this method; the {@code Allow} header lists the ones it has. */
public class MethodNotAllowedException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public MethodNotAllowedException(Answer answer) {
    super(answer);
  }
}
