package dev.dataplatform;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * The transport under every resource: options, request building, retries and error answers. Resources reach it
 * through {@link #call(String, String)}; so can a caller, for a route this client does not wrap yet.
 */
public final class ApiClient {
  static final String USER_AGENT = "dataplatform-java/" + DataPlatform.VERSION;

  private final HttpClient http;
  private final String baseUrl;
  private final boolean defaultBaseUrl;
  private final String apiKey;
  private volatile String token;
  private final Duration timeout;
  private final int maxRetries;
  private final Duration maxRetryWait;
  private final Map<String, String> defaultHeaders;
  private volatile RateLimitInfo rateLimit;

  ApiClient(
      HttpClient http,
      String baseUrl,
      boolean defaultBaseUrl,
      String apiKey,
      String token,
      Duration timeout,
      int maxRetries,
      Duration maxRetryWait,
      Map<String, String> defaultHeaders) {
    this.http = http;
    this.baseUrl = baseUrl;
    this.defaultBaseUrl = defaultBaseUrl;
    this.apiKey = apiKey;
    this.token = token;
    this.timeout = timeout;
    this.maxRetries = maxRetries;
    this.maxRetryWait = maxRetryWait;
    // Null values (headers to remove) are kept: Map.copyOf would refuse them.
    this.defaultHeaders = Collections.unmodifiableMap(new LinkedHashMap<>(defaultHeaders));
  }

  /** A call to {@code path} (which may carry its own query) on the server; send it with one of Call's methods. */
  public Call call(String method, String path) {
    return new Call(this, method, path);
  }

  /** One path segment, percent-encoded; an empty one would silently name another route. */
  public static String segment(String value, String what) {
    if (value == null || value.isEmpty()) {
      throw new DataPlatformException("Invalid " + what + " \"" + value + "\": expected a non-empty string");
    }
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  String baseUrl() {
    return baseUrl;
  }

  String apiKey() {
    return apiKey;
  }

  String token() {
    return token;
  }

  void setToken(String token) {
    this.token = token;
  }

  RateLimitInfo rateLimit() {
    return rateLimit;
  }

  Duration timeout() {
    return timeout;
  }

  int maxRetries() {
    return maxRetries;
  }

  /** One call, built once: every attempt sends this request unchanged (so the same Idempotency-Key). */
  record Prepared(HttpRequest request, String requestId, int maxRetries, Duration maxRetryWait) {}

  Prepared prepare(Call call) {
    RequestOptions options = call.options;
    Map<String, String> headers = new LinkedHashMap<>();
    String requestId = RequestIds.next();
    headers.put("accept", "application/json");
    headers.put("user-agent", USER_AGENT);
    headers.put("x-request-id", requestId);
    if (apiKey != null && !apiKey.isEmpty()) headers.put("x-api-key", apiKey);
    String bearer = token;
    if (bearer != null && !bearer.isEmpty()) headers.put("authorization", "Bearer " + bearer);
    if (call.json != null) headers.put("content-type", "application/json");
    // A caller's header wins, and null removes one the client would send.
    for (Map<String, String> source : List.of(defaultHeaders, call.headers, options.headers())) {
      source.forEach(
          (name, value) -> {
            if (value == null) headers.remove(name);
            else headers.put(name, value);
          });
    }
    if (options.ifMatch() != null) headers.put("if-match", options.ifMatch());
    if (!call.method.equals("GET") && !call.method.equals("HEAD")) {
      String key = options.idempotencyKey() != null ? options.idempotencyKey() : headers.get("idempotency-key");
      headers.put("idempotency-key", key != null ? key : UUID.randomUUID().toString());
    }
    byte[] body = call.json != null ? call.json : call.content;
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(uri(baseUrl + call.target()))
            .timeout(options.timeout() != null ? options.timeout() : timeout)
            .method(
                call.method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
    try {
      headers.forEach(builder::header);
    } catch (IllegalArgumentException error) {
      throw new DataPlatformException("Invalid header: " + error.getMessage());
    }
    return new Prepared(
        builder.build(),
        headers.getOrDefault("x-request-id", requestId),
        options.maxRetries() != null ? options.maxRetries() : maxRetries,
        options.maxRetryWait() != null ? options.maxRetryWait() : maxRetryWait);
  }

  /** Sends a prepared call with retries; an error answer throws its exception. */
  HttpResponse<byte[]> send(Prepared prepared) {
    for (int retry = 0; ; retry++) {
      HttpResponse<byte[]> response;
      try {
        response = http.send(prepared.request(), HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException error) {
        DataPlatformException failure = connectionError(error, prepared.requestId());
        if (retry >= prepared.maxRetries()) throw failure;
        sleep(Retry.delay(retry, null, prepared.maxRetryWait()), prepared.requestId());
        continue;
      } catch (InterruptedException error) {
        Thread.currentThread().interrupt();
        throw new ApiConnectionException("Interrupted while waiting for the answer", prepared.requestId(), error);
      }
      seen(response);
      if (response.statusCode() < 400) return response;
      sleep(judge(response, prepared, retry), prepared.requestId());
    }
  }

  /** The same as {@link #send(Prepared)} without blocking a thread, the waits between attempts included. */
  CompletableFuture<HttpResponse<byte[]>> sendAsync(Prepared prepared) {
    return attemptAsync(prepared, 0);
  }

  private CompletableFuture<HttpResponse<byte[]>> attemptAsync(Prepared prepared, int retry) {
    return http.sendAsync(prepared.request(), HttpResponse.BodyHandlers.ofByteArray())
        .handle(
            (response, error) -> {
              if (error != null) {
                Throwable cause = error instanceof CompletionException && error.getCause() != null
                    ? error.getCause()
                    : error;
                DataPlatformException failure =
                    cause instanceof IOException io
                        ? connectionError(io, prepared.requestId())
                        : new ApiConnectionException(
                            "Connection error (" + baseUrl + "): " + cause, prepared.requestId(), cause);
                if (retry >= prepared.maxRetries()) {
                  return CompletableFuture.<HttpResponse<byte[]>>failedFuture(failure);
                }
                return later(Retry.delay(retry, null, prepared.maxRetryWait()), prepared, retry + 1);
              }
              seen(response);
              if (response.statusCode() < 400) return CompletableFuture.completedFuture(response);
              try {
                return later(judge(response, prepared, retry), prepared, retry + 1);
              } catch (DataPlatformException failure) {
                return CompletableFuture.<HttpResponse<byte[]>>failedFuture(failure);
              }
            })
        .thenCompose(next -> next);
  }

  private CompletableFuture<HttpResponse<byte[]>> later(Duration delay, Prepared prepared, int retry) {
    var waited = CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS);
    return CompletableFuture.supplyAsync(() -> null, waited).thenCompose(ignored -> attemptAsync(prepared, retry));
  }

  /** Opens a streamed answer, never retried; an error answer is read in full and thrown. */
  HttpResponse<InputStream> open(Prepared prepared) {
    HttpResponse<InputStream> response;
    try {
      response = http.send(prepared.request(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException error) {
      throw connectionError(error, prepared.requestId());
    } catch (InterruptedException error) {
      Thread.currentThread().interrupt();
      throw new ApiConnectionException("Interrupted while waiting for the answer", prepared.requestId(), error);
    }
    seen(response);
    if (response.statusCode() < 400) return response;
    byte[] body;
    try (InputStream in = response.body()) {
      body = in.readAllBytes();
    } catch (IOException error) {
      body = new byte[0];
    }
    throw ApiStatusException.of(
        new ApiStatusException.Answer(response.statusCode(), response.headers(), body, prepared.requestId()));
  }

  /** After an error answer: the wait before the next attempt, or throws the answer's exception. */
  private Duration judge(HttpResponse<byte[]> response, Prepared prepared, int retry) {
    int status = response.statusCode();
    if (retry < prepared.maxRetries() && (status == 409 || Retry.isRetryableStatus(status, null))) {
      JsonNode body = Json.parseOrNull(response.body());
      JsonNode code = body == null ? null : body.get("code");
      if (Retry.isRetryableStatus(status, code != null && code.isTextual() ? code.asText() : null)) {
        Duration delay = Retry.delay(retry, response.headers(), prepared.maxRetryWait());
        if (delay != null) return delay;
      }
    }
    throw ApiStatusException.of(
        new ApiStatusException.Answer(status, response.headers(), response.body(), prepared.requestId()));
  }

  private void seen(HttpResponse<?> response) {
    RateLimitInfo info = RateLimitInfo.of(response.headers());
    if (info != null) rateLimit = info;
  }

  /** The exception for a failure without an answer; a refused default address says how to fix it. */
  private ApiConnectionException connectionError(IOException error, String requestId) {
    if (error instanceof HttpTimeoutException) {
      return new ApiTimeoutException("Request to " + baseUrl + " timed out: " + error.getMessage(), requestId, error);
    }
    if (refused(error)) {
      String message = defaultBaseUrl
          ? "Connection refused by " + baseUrl + ", the default base address (neither the baseUrl option nor the"
              + " DATAPLATFORM_BASE_URL environment variable is set). Start the server there, or point the client"
              + " at yours with DataPlatform.builder().baseUrl(...) or DATAPLATFORM_BASE_URL."
          : "Connection refused by " + baseUrl + ": is the server running there?";
      return new ApiConnectionException(message, requestId, error);
    }
    return new ApiConnectionException("Connection error (" + baseUrl + "): " + error, requestId, error);
  }

  private static boolean refused(Throwable error) {
    Throwable seen = error;
    for (int depth = 0; seen != null && depth < 6; depth++, seen = seen.getCause()) {
      if (seen instanceof ConnectException) return true;
      String message = seen.getMessage();
      if (message != null && message.toLowerCase(java.util.Locale.ROOT).contains("refused")) return true;
    }
    return false;
  }

  private static void sleep(Duration delay, String requestId) {
    try {
      Thread.sleep(delay.toMillis(), (int) (delay.toNanos() % 1_000_000));
    } catch (InterruptedException error) {
      Thread.currentThread().interrupt();
      throw new ApiConnectionException("Interrupted while waiting to retry", requestId, error);
    }
  }

  /** A URI of an address, with any character a URI may not hold (a space, a quote, a brace) percent-encoded. */
  static URI uri(String address) {
    StringBuilder out = null;
    for (int i = 0; i < address.length(); i++) {
      char c = address.charAt(i);
      boolean legal = c < 0x7f && c > 0x20 && "\"<>\\^`{|}".indexOf(c) < 0;
      if (legal) {
        if (out != null) out.append(c);
        continue;
      }
      if (out == null) out = new StringBuilder(address.substring(0, i));
      int end = Character.isHighSurrogate(c) && i + 1 < address.length() ? i + 2 : i + 1;
      for (byte b : address.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
        out.append('%').append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
      i = end - 1;
    }
    try {
      return URI.create(out == null ? address : out.toString());
    } catch (IllegalArgumentException error) {
      throw new DataPlatformException("Invalid address " + address + ": " + error.getMessage());
    }
  }
}
