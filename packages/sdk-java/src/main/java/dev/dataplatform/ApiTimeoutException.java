package dev.dataplatform;

/** No answer arrived within the timeout. */
public class ApiTimeoutException extends ApiConnectionException {
  private static final long serialVersionUID = 1L;

  public ApiTimeoutException(String message, String requestId, Throwable cause) {
    super(message, requestId, cause);
  }
}
