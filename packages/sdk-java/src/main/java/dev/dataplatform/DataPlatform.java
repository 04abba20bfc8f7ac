package dev.dataplatform;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The dataplatform API client: every resource of the contract ({@code client.data().get("orders", id)}), each
 * method in a blocking and a {@code CompletableFuture} flavour ({@code getAsync}). Thread-safe; make one and share
 * it.
 *
 * <p>Options not given are read from {@code DATAPLATFORM_API_KEY}, {@code DATAPLATFORM_TOKEN} and {@code
 * DATAPLATFORM_BASE_URL} (else {@code http://localhost:5000}):
 *
 * <pre>{@code
 * DataPlatform client = DataPlatform.builder().apiKey("svc_...").build();
 * Map<String, Object> order = client.data().get("orders", orderId);
 * }</pre>
 */
public final class DataPlatform extends DataPlatformResources {
  /** The client's version, sent in its {@code User-Agent}. */
  public static final String VERSION = "1.0.0";
  /** The base address used when neither the {@code baseUrl} option nor DATAPLATFORM_BASE_URL is set. */
  public static final String DEFAULT_BASE_URL = "http://localhost:5000";
  /** The wait for each attempt unless the {@code timeout} option says otherwise. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
  /** Retries after the first attempt unless the {@code maxRetries} option says otherwise. */
  public static final int DEFAULT_MAX_RETRIES = 2;

  private final ApiClient api;
  private final Builder options;

  private DataPlatform(ApiClient api, Builder options) {
    super(api);
    this.api = api;
    this.options = options;
  }

  /** Sets the client's options one by one; those left out come from the environment, then the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A client with every option from the environment or the defaults. */
  public static DataPlatform create() {
    return builder().build();
  }

  /**
   * A client with some options changed and the same connection pool: {@code client.withOptions(b ->
   * b.timeout(Duration.ofSeconds(5)))}.
   */
  public DataPlatform withOptions(UnaryOperator<Builder> changes) {
    Builder copy = options.copy();
    copy.apiKey = api.apiKey();
    copy.token = api.token();
    return changes.apply(copy).build();
  }

  /** A call to a route this client does not wrap yet, with the client's credentials, retries and errors. */
  public Call call(String method, String path) {
    return api.call(method, path);
  }

  /** The server address, without a trailing slash. */
  public String baseUrl() {
    return api.baseUrl();
  }

  /** The API key in use, or null. */
  public String apiKey() {
    return api.apiKey();
  }

  /** The bearer token in use, or null. */
  public String token() {
    return api.token();
  }

  /** Sends {@code token} as {@code Authorization: Bearer} from now on (a session's, after signing in); null stops. */
  public void setToken(String token) {
    api.setToken(token);
  }

  /** The key's rate limit as the last answer with {@code RateLimit-*} headers told it; null before any. */
  public RateLimitInfo rateLimit() {
    return api.rateLimit();
  }

  /** The options of a client; {@link #build()} makes it. */
  public static final class Builder {
    private String apiKey;
    private String token;
    private String baseUrl;
    private Duration timeout;
    private Integer maxRetries;
    private Duration maxRetryWait;
    private final Map<String, String> defaultHeaders = new LinkedHashMap<>();
    private HttpClient httpClient;
    private UnaryOperator<String> environment = System::getenv;

    private Builder() {}

    private Builder copy() {
      Builder copy = new Builder();
      copy.apiKey = apiKey;
      copy.token = token;
      copy.baseUrl = baseUrl;
      copy.timeout = timeout;
      copy.maxRetries = maxRetries;
      copy.maxRetryWait = maxRetryWait;
      copy.defaultHeaders.putAll(defaultHeaders);
      copy.httpClient = httpClient;
      copy.environment = environment;
      return copy;
    }

    /** The API key sent as {@code X-API-Key}; else DATAPLATFORM_API_KEY. An empty one sends none. */
    public Builder apiKey(String apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    /** A session token sent as {@code Authorization: Bearer}; else DATAPLATFORM_TOKEN. An empty one sends none. */
    public Builder token(String token) {
      this.token = token;
      return this;
    }

    /** The server's address, such as {@code https://api.example.com}; else DATAPLATFORM_BASE_URL. */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    /** The wait for each attempt (60 s by default). */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** Retries after the first attempt (2 by default); 0 turns retries off. */
    public Builder maxRetries(int maxRetries) {
      if (maxRetries < 0) throw new DataPlatformException("maxRetries must be 0 or more, not " + maxRetries);
      this.maxRetries = maxRetries;
      return this;
    }

    /** The longest {@code Retry-After} wait sat through (60 s by default); a longer one fails at once. */
    public Builder maxRetryWait(Duration maxRetryWait) {
      this.maxRetryWait = maxRetryWait;
      return this;
    }

    /** A header sent with every call; null removes one the client would send. */
    public Builder defaultHeader(String name, String value) {
      defaultHeaders.put(name.toLowerCase(Locale.ROOT), value);
      return this;
    }

    /**
     * The {@link HttpClient} to send with, shared with other code; by default one of the client's own (HTTP/1.1, no
     * redirects followed). Give one that follows no redirects: a redirect's {@code Location} is the answer.
     */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = httpClient;
      return this;
    }

    /** Where unset options are read from instead of the process environment (for tests). */
    Builder environment(UnaryOperator<String> environment) {
      this.environment = environment;
      return this;
    }

    private String env(String name) {
      String value = environment.apply(name);
      return value == null || value.isBlank() ? null : value.trim();
    }

    /** The client; fails with a DataPlatformException when the base address is not an http(s) address. */
    public DataPlatform build() {
      String key = apiKey != null ? apiKey : env("DATAPLATFORM_API_KEY");
      String bearer = token != null ? token : env("DATAPLATFORM_TOKEN");
      String given = baseUrl != null ? baseUrl : env("DATAPLATFORM_BASE_URL");
      String address = given != null ? given : DEFAULT_BASE_URL;
      URI uri;
      try {
        uri = URI.create(address);
      } catch (IllegalArgumentException error) {
        uri = null;
      }
      // `localhost:5000` parses with the scheme "localhost": the scheme is checked too.
      if (uri == null
          || uri.getScheme() == null
          || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))
          || uri.getRawAuthority() == null) {
        throw new DataPlatformException(
            "Invalid baseUrl \"" + given + "\": expected an http(s) address such as " + DEFAULT_BASE_URL);
      }
      String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceAll("/+$", "");
      Duration wait = timeout != null ? timeout : DEFAULT_TIMEOUT;
      HttpClient http =
          httpClient != null
              ? httpClient
              : HttpClient.newBuilder()
                  .version(HttpClient.Version.HTTP_1_1)
                  .followRedirects(HttpClient.Redirect.NEVER)
                  .connectTimeout(wait)
                  .build();
      ApiClient api =
          new ApiClient(
              http,
              uri.getScheme() + "://" + uri.getRawAuthority() + path,
              given == null,
              key,
              bearer,
              wait,
              maxRetries != null ? maxRetries : DEFAULT_MAX_RETRIES,
              maxRetryWait != null ? maxRetryWait : Retry.MAX_RETRY_WAIT,
              defaultHeaders);
      Builder frozen = copy();
      frozen.httpClient = http;
      return new DataPlatform(api, frozen);
    }
  }
}
