package dev.dataplatform;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/** A local HTTP server that answers from a script (say, two 503s and then a 201) and records every request. */
final class ScriptedServer implements AutoCloseable {
  /** One scripted answer; a status of 0 closes the connection without one. */
  record Scripted(int status, Map<String, String> headers, String body) {
    static Scripted json(int status, String body, String... headers) {
      Map<String, String> map = new TreeMap<>();
      for (int i = 0; i + 1 < headers.length; i += 2) map.put(headers[i], headers[i + 1]);
      map.putIfAbsent("content-type", "application/json");
      return new Scripted(status, map, body);
    }
  }

  static final Scripted DROP = new Scripted(0, Map.of(), "");

  /** One request as it arrived: header names in lower case, the first value of each. */
  record Recorded(String method, String target, Map<String, String> headers, String body) {}

  private final HttpServer server;
  private final Deque<Scripted> script = new ArrayDeque<>();
  final List<Recorded> requests = new CopyOnWriteArrayList<>();

  ScriptedServer(Scripted... answers) throws IOException {
    script.addAll(List.of(answers));
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", this::answer);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** A client of this server without credentials from the environment. */
  DataPlatform.Builder client() {
    return DataPlatform.builder().baseUrl(url()).environment(name -> null);
  }

  synchronized void then(Scripted... answers) {
    script.addAll(List.of(answers));
  }

  private void answer(HttpExchange exchange) throws IOException {
    Map<String, String> headers = new TreeMap<>();
    exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values.get(0)));
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    requests.add(
        new Recorded(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath()
            + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery()),
            headers, body));
    Scripted next;
    synchronized (this) {
      next = script.isEmpty() ? Scripted.json(500, "{\"error\":\"unscripted\",\"code\":\"internal\"}") : script.poll();
    }
    if (next.status() == 0) {
      exchange.close();
      return;
    }
    byte[] bytes = next.body().getBytes(StandardCharsets.UTF_8);
    next.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
    exchange.sendResponseHeaders(next.status(), bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
