package dev.dataplatform;

/** 428: device sign-in is not confirmed yet ({@code authorization_pending}); poll again after the interval. */
public class PreconditionRequiredException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public PreconditionRequiredException(Answer answer) {
    super(answer);
  }
}
