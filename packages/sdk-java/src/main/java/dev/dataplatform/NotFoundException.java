package dev.dataplatform;

/** 404: the document, key, webhook or route does not exist. */
public class NotFoundException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public NotFoundException(Answer answer) {
    super(answer);
  }
}
