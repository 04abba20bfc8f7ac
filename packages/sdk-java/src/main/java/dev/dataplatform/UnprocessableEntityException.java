package dev.dataplatform;

/** 422: the request was understood but could not be carried out (a function failed, say). */
public class UnprocessableEntityException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public UnprocessableEntityException(Answer answer) {
    super(answer);
  }
}
