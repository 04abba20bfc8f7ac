package dev.dataplatform;

/** 401: no credential, an unknown one, or an expired or paused key. */
public class AuthenticationException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public AuthenticationException(Answer answer) {
    super(answer);
  }
}
