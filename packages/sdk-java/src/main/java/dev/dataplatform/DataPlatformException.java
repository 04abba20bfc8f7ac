package dev.dataplatform;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Base class of every exception this client throws. An error answer is an {@link ApiStatusException} (one subclass
 * per status family), a call without an answer an {@link ApiConnectionException}; a misused client (an invalid base
 * address, say) throws this class itself.
 */
public class DataPlatformException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String code;
  private final String requestId;
  private final int status;
  private final transient JsonNode details;

  /** An error of the client itself: no answer, no code. */
  public DataPlatformException(String message) {
    this(message, null, "", 0, null, null);
  }

  protected DataPlatformException(
      String message, String code, String requestId, int status, JsonNode details, Throwable cause) {
    super(message, cause);
    this.code = code;
    this.requestId = requestId == null ? "" : requestId;
    this.status = status;
    this.details = details;
  }

  /**
   * The machine-readable code of the error body, e.g. {@code not_found} ({@code dev.dataplatform.models.ErrorCode}
   * lists the documented ones); null when no answer or no code arrived.
   */
  public String code() {
    return code;
  }

  /**
   * The request's id; quote it in bug reports. From the body, else the {@code X-Request-Id} answer header, else the
   * one the client sent (which the server logs too). Empty for an error of the client itself.
   */
  public String requestId() {
    return requestId;
  }

  /** The HTTP status; 0 when no answer arrived. */
  public int status() {
    return status;
  }

  /** Extra facts from the error body (the invalid field, the scope required), or null. */
  public JsonNode details() {
    return details;
  }
}
