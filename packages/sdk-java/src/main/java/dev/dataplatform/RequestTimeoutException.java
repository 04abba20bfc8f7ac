package dev.dataplatform;

/** 408: the request did not reach the server in full in time (retried like a connection error). */
public class RequestTimeoutException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public RequestTimeoutException(Answer answer) {
    super(answer);
  }
}
