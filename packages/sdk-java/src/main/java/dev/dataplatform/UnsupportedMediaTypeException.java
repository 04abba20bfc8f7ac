package dev.dataplatform;

/** 415: the body's {@code Content-Type} is not one the route takes. */
public class UnsupportedMediaTypeException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public UnsupportedMediaTypeException(Answer answer) {
    super(answer);
  }
}
