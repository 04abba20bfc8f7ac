package dev.dataplatform;

/** No answer arrived: the connection was refused, reset, or failed to resolve. */
public class ApiConnectionException extends DataPlatformException {
  private static final long serialVersionUID = 1L;

  public ApiConnectionException(String message, String requestId, Throwable cause) {
    super(message, null, requestId, 0, null, cause);
  }
}
