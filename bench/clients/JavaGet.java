import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dataplatform.DataPlatform;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * GET by id through the Java client and through raw HttpClient on the same HttpClient, in alternating rounds. Prints
 * one JSON line: per flavour and target, the requests per second of each round. Run by bench/java.mjs.
 */
public final class JavaGet {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final TypeReference<Map<String, Object>> DOCUMENT = new TypeReference<>() {};

  private static String url;
  private static String key;
  private static String id;
  private static double seconds;
  private static int threads;
  private static int inFlight;

  public static void main(String[] args) throws Exception {
    url = args[0];
    key = args[1];
    id = args[2];
    int rounds = Integer.parseInt(args[3]);
    seconds = Double.parseDouble(args[4]);
    threads = Integer.parseInt(args[5]);
    inFlight = Integer.parseInt(args[6]);

    // The same settings for both: HTTP/1.1, no redirects followed, one connection pool.
    HttpClient http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .followRedirects(HttpClient.Redirect.NEVER)
        .connectTimeout(Duration.ofSeconds(60))
        .build();
    DataPlatform client = DataPlatform.builder().baseUrl(url).apiKey(key).httpClient(http).build();
    // Each call builds its request, as a program reading documents by id does (httpx's `pool.get` does too).
    Supplier<HttpRequest> request = () -> HttpRequest.newBuilder(URI.create(url + "/api/v1/data/orders/" + id))
        .header("x-api-key", key)
        .header("accept", "application/json")
        .timeout(Duration.ofSeconds(60))
        .build();

    Map<String, Runnable> sync = new LinkedHashMap<>();
    sync.put("raw", () -> raw(http, request.get()));
    sync.put("client", () -> client.data().get("orders", id));
    Map<String, Supplier<CompletableFuture<?>>> async = new LinkedHashMap<>();
    async.put("raw", () -> http.sendAsync(request.get(), HttpResponse.BodyHandlers.ofByteArray()).thenApply(JavaGet::parse));
    async.put("client", () -> client.data().getAsync("orders", id));

    Map<String, Map<String, List<Double>>> result = new LinkedHashMap<>();
    for (String flavour : List.of("sync", "async")) {
      Map<String, List<Double>> rates = new LinkedHashMap<>();
      rates.put("raw", new ArrayList<>());
      rates.put("client", new ArrayList<>());
      result.put(flavour, rates);
      // Warm-up: connections opened, both code paths compiled by the JIT.
      for (String name : List.of("raw", "client")) {
        if (flavour.equals("sync")) syncRate(sync.get(name));
        else asyncRate(async.get(name));
      }
      for (int r = 0; r < rounds; r++) {
        // Alternating which goes first, so a drift of the machine's speed falls on both alike.
        for (String name : r % 2 == 0 ? List.of("raw", "client") : List.of("client", "raw")) {
          rates.get(name).add(flavour.equals("sync") ? syncRate(sync.get(name)) : asyncRate(async.get(name)));
        }
      }
    }
    System.out.println(MAPPER.writeValueAsString(result));
  }

  private static Map<String, Object> raw(HttpClient http, HttpRequest request) {
    try {
      return parse(http.send(request, HttpResponse.BodyHandlers.ofByteArray()));
    } catch (Exception error) {
      throw new IllegalStateException(error);
    }
  }

  private static Map<String, Object> parse(HttpResponse<byte[]> response) {
    if (response.statusCode() >= 400) throw new IllegalStateException("status " + response.statusCode());
    try {
      return MAPPER.readValue(response.body(), DOCUMENT);
    } catch (Exception error) {
      throw new IllegalStateException(error);
    }
  }

  /** Requests per second of `threads` threads calling `call` in a loop for `seconds`. */
  private static double syncRate(Runnable call) throws InterruptedException {
    AtomicLong count = new AtomicLong();
    long start = System.nanoTime();
    long deadline = start + (long) (seconds * 1e9);
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      workers.add(new Thread(() -> {
        while (System.nanoTime() < deadline) {
          call.run();
          count.incrementAndGet();
        }
      }));
    }
    workers.forEach(Thread::start);
    for (Thread worker : workers) worker.join();
    return count.get() / ((System.nanoTime() - start) / 1e9);
  }

  /** Requests per second of `inFlight` chains, each starting its next call when the last completes. */
  private static double asyncRate(Supplier<CompletableFuture<?>> call) {
    AtomicLong count = new AtomicLong();
    long start = System.nanoTime();
    long deadline = start + (long) (seconds * 1e9);
    List<CompletableFuture<Void>> chains = new ArrayList<>();
    for (int i = 0; i < inFlight; i++) chains.add(chain(call, count, deadline));
    CompletableFuture.allOf(chains.toArray(CompletableFuture[]::new)).join();
    return count.get() / ((System.nanoTime() - start) / 1e9);
  }

  private static CompletableFuture<Void> chain(Supplier<CompletableFuture<?>> call, AtomicLong count, long deadline) {
    if (System.nanoTime() >= deadline) return CompletableFuture.completedFuture(null);
    return call.get().thenCompose(ignored -> {
      count.incrementAndGet();
      return chain(call, count, deadline);
    });
  }
}
