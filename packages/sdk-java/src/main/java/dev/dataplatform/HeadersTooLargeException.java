package dev.dataplatform;

/** 431: the request line and headers together exceed the server's limit. */
public class HeadersTooLargeException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public HeadersTooLargeException(Answer answer) {
    super(answer);
  }
}
