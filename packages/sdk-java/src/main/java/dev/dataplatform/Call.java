package dev.dataplatform;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One call being described: its query, body, headers and options, then sent with {@link #fetch}, {@link
 * #fetchAsync}, {@link #page}, {@link #events}, {@link #location} or {@link #send}. A Call is used once.
 */
public final class Call {
  private final ApiClient client;
  final String method;
  private final String path;
  private final StringBuilder query = new StringBuilder();
  /** Query pairs kept as given, so a page can ask for the next page with another {@code skip}. */
  private final List<String[]> pairs = new ArrayList<>();
  final Map<String, String> headers = new LinkedHashMap<>();
  byte[] json;
  byte[] content;
  RequestOptions options = RequestOptions.NONE;

  Call(ApiClient client, String method, String path) {
    this.client = client;
    this.method = method;
    this.path = path;
  }

  /** A query parameter; null leaves it out, a boolean is sent as {@code true}/{@code false}. */
  public Call query(String name, Object value) {
    if (value != null) pairs.add(new String[] {name, String.valueOf(value)});
    return this;
  }

  /** A JSON body (a record, a Map, a List, a JsonNode…); null sends none. */
  public Call json(Object body) {
    this.json = body == null ? null : Json.write(body);
    return this;
  }

  /** A body sent as it is, with its content type (null: none). */
  public Call content(byte[] content, String contentType) {
    this.content = content;
    if (contentType != null) headers.put("content-type", contentType);
    return this;
  }

  /** A header of this call; null removes one the client would send. */
  public Call header(String name, String value) {
    headers.put(name.toLowerCase(java.util.Locale.ROOT), value);
    return this;
  }

  /** The options of this call; null changes nothing. */
  public Call options(RequestOptions options) {
    if (options != null) this.options = options;
    return this;
  }

  /** The path and query as sent. */
  String target() {
    if (pairs.isEmpty()) return path;
    query.setLength(0);
    for (String[] pair : pairs) {
      query.append(query.length() == 0 ? (path.indexOf('?') < 0 ? '?' : '&') : '&');
      query.append(encode(pair[0])).append('=').append(encode(pair[1]));
    }
    return path + query;
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Sends the call with retries and hands back the (read) answer; an error answer throws its exception. */
  public HttpResponse<byte[]> send() {
    return client.send(client.prepare(this));
  }

  /** {@link #send()} without blocking. */
  public CompletableFuture<HttpResponse<byte[]>> sendAsync() {
    return client.sendAsync(client.prepare(this));
  }

  /** Sends the call and reads its JSON answer as {@code type}; an empty answer is null. */
  public <T> T fetch(TypeReference<T> type) {
    return read(send(), Json.MAPPER.getTypeFactory().constructType(type));
  }

  /** {@link #fetch} without blocking. */
  public <T> CompletableFuture<T> fetchAsync(TypeReference<T> type) {
    JavaType javaType = Json.MAPPER.getTypeFactory().constructType(type);
    return sendAsync().thenApply(response -> read(response, javaType));
  }

  /** Sends the call and hands back its {@code Location} (a redirect's target), if any. */
  public Optional<String> location() {
    return send().headers().firstValue("location");
  }

  /** {@link #location()} without blocking. */
  public CompletableFuture<Optional<String>> locationAsync() {
    return sendAsync().thenApply(response -> response.headers().firstValue("location"));
  }

  /** A list route's page ({@code {data, total, limit?, skip?}}); the page fetches the later ones alike. */
  public <T> Page<T> page(TypeReference<T> item) {
    JavaType type = pageType(item);
    return pageAt(type, startSkip());
  }

  /** {@link #page} without blocking. */
  public <T> CompletableFuture<Page<T>> pageAsync(TypeReference<T> item) {
    JavaType type = pageType(item);
    return pageAtAsync(type, startSkip());
  }

  /** Opens a server-sent event stream; never retried: pass the last event id seen to resume. */
  public EventStream events(String lastEventId) {
    headers.put("accept", "text/event-stream");
    if (lastEventId != null) headers.put("last-event-id", lastEventId);
    return new EventStream(client.open(client.prepare(this)));
  }

  private static <T> T read(HttpResponse<byte[]> response, JavaType type) {
    byte[] body = response.body();
    if (body == null || body.length == 0) return null;
    try {
      return Json.MAPPER.readValue(body, type);
    } catch (IOException error) {
      String text = new String(body, StandardCharsets.UTF_8);
      throw new DataPlatformException(
          "Could not read the " + response.statusCode() + " answer as " + type.getGenericSignature() + ": "
              + error.getMessage() + " (" + (text.length() > 200 ? text.substring(0, 200) : text) + ")");
    }
  }

  private record PageBody<T>(List<T> data, Long total, Long limit, Long skip) {}

  private static JavaType pageType(TypeReference<?> item) {
    var factory = Json.MAPPER.getTypeFactory();
    return factory.constructParametricType(PageBody.class, factory.constructType(item));
  }

  /** A whole-number query parameter as given, or null. */
  private Long queryNumber(String name) {
    for (String[] pair : pairs) {
      if (pair[0].equals(name)) {
        try {
          return Long.parseLong(pair[1]);
        } catch (NumberFormatException ignored) {
          return null;
        }
      }
    }
    return null;
  }

  private long startSkip() {
    Long skip = queryNumber("skip");
    return skip == null ? 0 : skip;
  }

  /** The same call at another {@code skip}. */
  private Call at(long skip) {
    Call copy = new Call(client, method, path);
    for (String[] pair : pairs) if (!pair[0].equals("skip")) copy.pairs.add(pair);
    copy.pairs.add(new String[] {"skip", Long.toString(skip)});
    copy.headers.putAll(headers);
    copy.options = options;
    return copy;
  }

  private <T> Page<T> pageAt(JavaType type, long skip) {
    return toPage(at(skip).send(), type, skip);
  }

  private <T> CompletableFuture<Page<T>> pageAtAsync(JavaType type, long skip) {
    return at(skip).sendAsync().thenApply(response -> toPage(response, type, skip));
  }

  private <T> Page<T> toPage(HttpResponse<byte[]> response, JavaType type, long skip) {
    PageBody<T> body = read(response, type);
    if (body == null || body.data() == null) {
      throw new DataPlatformException("A list answer without data: " + Json.parseOrNull(response.body()));
    }
    List<T> data = body.data();
    // Some lists (a key's usage) answer {data, total} only: the page then takes its place from the query.
    long total = body.total() != null ? body.total() : data.size();
    Long limit = body.limit() != null ? body.limit() : queryNumber("limit");
    return new Page<>(
        data,
        total,
        limit != null ? limit : data.size(),
        body.skip() != null ? body.skip() : skip,
        next -> pageAt(type, next),
        next -> pageAtAsync(type, next));
  }
}
