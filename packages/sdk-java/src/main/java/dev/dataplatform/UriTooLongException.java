package dev.dataplatform;

/** 414: a path segment is longer than any identifier the API uses. */
public class UriTooLongException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public UriTooLongException(Answer answer) {
    super(answer);
  }
}
