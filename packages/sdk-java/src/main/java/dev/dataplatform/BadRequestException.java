package dev.dataplatform;

/** 400: the request is not of the documented form ({@code validation_error}, {@code invalid_json}, …). */
public class BadRequestException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public BadRequestException(Answer answer) {
    super(answer);
  }
}
