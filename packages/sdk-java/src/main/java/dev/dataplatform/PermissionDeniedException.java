package dev.dataplatform;

/** 403: the credential lacks a scope, or the address is blocked. */
public class PermissionDeniedException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public PermissionDeniedException(Answer answer) {
    super(answer);
  }
}
