package dev.dataplatform;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;

/** An error answer (status 400 and up); a subclass names its status family. */
public class ApiStatusException extends DataPlatformException {
  private static final long serialVersionUID = 1L;

  /** The answer's parts, as one value: subclasses take it whole. */
  public record Answer(int status, HttpHeaders headers, byte[] body, String sentRequestId) {}

  private final transient HttpHeaders headers;
  private final transient JsonNode body;
  private final String text;

  public ApiStatusException(Answer answer) {
    this(answer, Json.parseOrNull(answer.body()));
  }

  private ApiStatusException(Answer answer, JsonNode body) {
    super(
        message(answer, body),
        textField(body, "code"),
        requestIdOf(answer, body),
        answer.status(),
        body == null ? null : body.get("details"),
        null);
    this.headers = answer.headers();
    this.body = body;
    this.text = new String(answer.body(), StandardCharsets.UTF_8);
  }

  /** The answer's headers. */
  public HttpHeaders headers() {
    return headers;
  }

  /** The parsed error body ({@code {error, code, details?, requestId}}); null when it is not JSON. */
  public JsonNode body() {
    return body;
  }

  /** The error body as text (a proxy's HTML page, say). */
  public String bodyText() {
    return text;
  }

  private static final Map<Integer, Function<Answer, ApiStatusException>> BY_STATUS =
      Map.ofEntries(
          Map.entry(400, BadRequestException::new),
          Map.entry(401, AuthenticationException::new),
          Map.entry(402, PaymentRequiredException::new),
          Map.entry(403, PermissionDeniedException::new),
          Map.entry(404, NotFoundException::new),
          Map.entry(405, MethodNotAllowedException::new),
          Map.entry(408, RequestTimeoutException::new),
          Map.entry(409, ConflictException::new),
          Map.entry(412, PreconditionFailedException::new),
          Map.entry(413, PayloadTooLargeException::new),
          Map.entry(414, UriTooLongException::new),
          Map.entry(415, UnsupportedMediaTypeException::new),
          Map.entry(422, UnprocessableEntityException::new),
          Map.entry(428, PreconditionRequiredException::new),
          Map.entry(429, RateLimitException::new),
          Map.entry(431, HeadersTooLargeException::new));

  /** The one factory: the subclass for the answer's status, or this class for a status without one. */
  public static ApiStatusException of(Answer answer) {
    if (answer.status() >= 500) return new InternalServerException(answer);
    return BY_STATUS.getOrDefault(answer.status(), ApiStatusException::new).apply(answer);
  }

  private static String textField(JsonNode body, String name) {
    JsonNode value = body == null ? null : body.get(name);
    return value != null && value.isTextual() ? value.asText() : null;
  }

  private static String requestIdOf(Answer answer, JsonNode body) {
    String fromBody = textField(body, "requestId");
    if (fromBody != null && !fromBody.isEmpty()) return fromBody;
    return answer.headers().firstValue("x-request-id").orElse(answer.sentRequestId());
  }

  private static String message(Answer answer, JsonNode body) {
    String code = textField(body, "code");
    String text = textField(body, "error");
    if (text == null && body == null && answer.body().length > 0) {
      String raw = new String(answer.body(), StandardCharsets.UTF_8);
      text = raw.length() > 200 ? raw.substring(0, 200) : raw;
    }
    return answer.status() + (code != null ? " " + code : "") + (text != null ? ": " + text : "");
  }
}
