package dev.dataplatform.webhooks;

/** A delivery that failed verification; {@link #code()} names the check, {@link #header()} the header it read. */
public final class WebhookVerificationException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String code;
  private final String header;

  WebhookVerificationException(String code, String message, String header) {
    super(message);
    this.code = code;
    this.header = header;
  }

  /**
   * One of {@code missing_header}, {@code malformed_header}, {@code invalid_signature}, {@code timestamp_too_old},
   * {@code timestamp_in_future}, {@code invalid_secret}.
   */
  public String code() {
    return code;
  }

  /** The header the failed check read (lower case), or null. */
  public String header() {
    return header;
  }
}
