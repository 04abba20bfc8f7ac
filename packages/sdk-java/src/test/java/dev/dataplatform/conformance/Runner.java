package dev.dataplatform.conformance;

import static dev.dataplatform.conformance.Match.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.dataplatform.ApiConnectionException;
import dev.dataplatform.ApiStatusException;
import dev.dataplatform.Call;
import dev.dataplatform.DataPlatform;
import dev.dataplatform.DataPlatformException;
import dev.dataplatform.EventStream;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The Java runner of spec/conformance: each case's requests go through the client's own {@link Call} (no retries,
 * no credentials of the client's own), so the client's request building, exception classes and request ids are
 * what is checked; an error answer is read back from the exception the client threw.
 */
final class Runner {
  static final Path CASES = Path.of("..", "..", "spec", "conformance");
  private static final String SETUP_PASSWORD = "correct horse battery staple";
  private static final SecureRandom RANDOM = new SecureRandom();

  private Runner() {}

  /** A step that did not get the answer it expects. */
  static final class ConformanceFailure extends AssertionError {
    private static final long serialVersionUID = 1L;

    ConformanceFailure(String message) {
      super(message);
    }
  }

  /** Every case, by its path under spec/conformance without {@code .json}. */
  static Map<String, JsonNode> loadCases() throws IOException {
    Map<String, JsonNode> cases = new TreeMap<>();
    try (Stream<Path> areas = Files.list(CASES)) {
      for (Path area : areas.filter(Files::isDirectory).toList()) {
        try (Stream<Path> files = Files.list(area)) {
          for (Path file : files.filter(f -> f.toString().endsWith(".json")).toList()) {
            String id = area.getFileName() + "/" + file.getFileName().toString().replaceAll("\\.json$", "");
            cases.put(id, JSON.readTree(file.toFile()));
          }
        }
      }
    }
    return cases;
  }

  private record Answer(int status, HttpHeaders headers, JsonNode body) {}

  private static Answer send(DataPlatform client, JsonNode step, ObjectNode variables, Map<String, String> kinds) {
    JsonNode request = step.get("request");
    Call call = client.call(request.get("method").asText(), Match.interpolate(request.get("path"), variables).asText());
    if (request.hasNonNull("auth")) {
      String auth = request.get("auth").asText();
      String kind = kinds.get(auth);
      if ("account".equals(kind)) call.header("authorization", "Bearer " + Match.lookup(variables, auth + ".token").asText());
      else if ("key".equals(kind)) call.header("x-api-key", Match.lookup(variables, auth + ".secret").asText());
      else throw new Match.CaseError("auth names " + auth + ", which the setup does not make");
    }
    if (request.has("json")) {
      byte[] json = Match.jsonText(Match.interpolate(request.get("json"), variables)).getBytes(StandardCharsets.UTF_8);
      call.content(json, "application/json");
    } else if (request.has("body")) {
      JsonNode body = Match.interpolate(request.get("body"), variables);
      String text = body.isTextual() ? body.asText() : Match.jsonText(body);
      call.content(text.repeat(request.path("repeatBody").asInt(1)).getBytes(StandardCharsets.UTF_8), null);
    }
    // A step sends only the headers it names: the client's own Accept and User-Agent are taken out, unless the
    // step names them (the client keeps its X-Request-Id, which every answer must echo).
    call.header("accept", null);
    call.header("user-agent", null);
    request.path("headers").properties().forEach(e -> {
      JsonNode value = Match.interpolate(e.getValue(), variables);
      call.header(e.getKey(), value.isTextual() ? value.asText() : Match.jsonText(value));
    });
    try {
      if (request.path("stream").asBoolean(false)) {
        try (EventStream stream = call.events(null)) {
          return new Answer(stream.status(), stream.headers(), MissingNode.getInstance());
        }
      }
      HttpResponse<byte[]> response = call.send();
      return new Answer(response.statusCode(), response.headers(), body(response.headers(), response.body()));
    } catch (ApiStatusException error) {
      checkExceptionClass(error);
      return new Answer(error.status(), error.headers(), body(error.headers(), error.bodyText().getBytes(StandardCharsets.UTF_8)));
    }
  }

  /**
   * Sends a step. A body larger than the server takes may be refused before it is read, and the connection closed
   * while it is still being written; the reset can take the refusal along, so no answer arrives at all. Such a step
   * (one with {@code repeatBody}) is sent once more when no answer came: a lost answer is no answer the case checks.
   */
  private static Answer sendOnce(DataPlatform client, JsonNode step, ObjectNode variables, Map<String, String> kinds) {
    try {
      return send(client, step, variables, kinds);
    } catch (ApiConnectionException lost) {
      if (!step.get("request").has("repeatBody")) throw lost;
      return send(client, step, variables, kinds);
    }
  }

  private static JsonNode body(HttpHeaders headers, byte[] bytes) {
    if (bytes.length == 0) return MissingNode.getInstance();
    String text = new String(bytes, StandardCharsets.UTF_8);
    if (headers.firstValue("content-type").orElse("").contains("json")) {
      try {
        return JSON.readTree(text);
      } catch (IOException error) {
        throw new ConformanceFailure("a JSON answer that does not parse: " + text);
      }
    }
    return TextNode.valueOf(text);
  }

  /** The client's exception for an answer: the class of its status, and the code and id of its body. */
  private static void checkExceptionClass(ApiStatusException error) {
    byte[] raw = error.bodyText().getBytes(StandardCharsets.UTF_8);
    var expected = ApiStatusException.of(new ApiStatusException.Answer(error.status(), error.headers(), raw, ""));
    if (error.getClass() != expected.getClass()) {
      throw new ConformanceFailure(error.status() + " threw " + error.getClass().getSimpleName() + ", not "
          + expected.getClass().getSimpleName());
    }
    JsonNode body = error.body() != null && error.body().isObject() ? error.body() : JSON.createObjectNode();
    String code = body.path("code").isTextual() ? body.get("code").asText() : null;
    String requestId = body.path("requestId").asText("");
    if (!java.util.Objects.equals(error.code(), code) || (!requestId.isEmpty() && !requestId.equals(error.requestId()))) {
      throw new ConformanceFailure("the exception's code or request id differs from its body: " + error.getMessage());
    }
  }

  private static JsonNode header(Answer answer, String name) {
    List<String> values = answer.headers().allValues(name);
    return values.isEmpty() ? MissingNode.getInstance() : TextNode.valueOf(String.join(", ", values));
  }

  private static List<String> check(JsonNode step, Answer answer, ObjectNode variables) {
    JsonNode expect = step.get("expect");
    List<String> problems = new ArrayList<>();
    if (answer.status() != expect.get("status").asInt()) {
      problems.add("status: expected " + expect.get("status") + ", got " + answer.status());
    }
    if (answer.status() >= 400) {
      ObjectNode shape = JSON.createObjectNode();
      shape.set("error", JSON.createObjectNode().put("$type", "string"));
      shape.set("code", expect.has("code") ? expect.get("code") : JSON.createObjectNode().put("$type", "string"));
      JsonNode id = header(answer, "x-request-id");
      shape.set("requestId", id.isMissingNode() ? JSON.createObjectNode().put("$any", true) : id);
      problems.addAll(Match.mismatches(answer.body(), shape, variables, "body"));
    } else if (expect.has("code")) {
      problems.add("code: expected " + expect.get("code") + ", but the answer is a success");
    }
    expect.path("headers").properties().forEach(e -> problems.addAll(
        Match.mismatches(header(answer, e.getKey()), e.getValue(), variables, "headers." + e.getKey().toLowerCase())));
    if (expect.has("body")) problems.addAll(Match.mismatches(answer.body(), expect.get("body"), variables, "body"));
    return problems;
  }

  private static JsonNode captured(Answer answer, String source) {
    if (source.equals("status")) return IntNode.valueOf(answer.status());
    if (source.equals("body")) return answer.body();
    if (source.startsWith("body.")) return Match.pathValue(answer.body(), source.substring("body.".length()));
    if (source.startsWith("headers.")) return header(answer, source.substring("headers.".length()));
    throw new Match.CaseError("cannot capture " + source + ": use body, body.<path>, headers.<name> or status");
  }

  private static ObjectNode setupStep(String method, String path, String auth, JsonNode json, String capture) {
    ObjectNode step = JSON.createObjectNode();
    ObjectNode request = step.putObject("request").put("method", method).put("path", path);
    if (auth != null) request.put("auth", auth);
    request.set("json", json);
    step.putObject("expect").put("status", 201);
    step.putObject("capture").put(capture, "body");
    return step;
  }

  /** Runs one case against the server at {@code baseUrl}; throws ConformanceFailure at the first wrong answer. */
  static void runCase(JsonNode testCase, String baseUrl) {
    ObjectNode variables = JSON.createObjectNode();
    byte[] unique = new byte[8];
    RANDOM.nextBytes(unique);
    variables.put("$unique", HexFormat.of().formatHex(unique));
    Map<String, String> kinds = new TreeMap<>();
    List<Map.Entry<String, JsonNode>> steps = new ArrayList<>();
    for (JsonNode fixture : testCase.path("setup")) {
      if (fixture.has("account")) {
        String name = fixture.get("account").asText();
        String email = name + "-" + variables.get("$unique").asText() + "@example.com";
        ObjectNode json = JSON.createObjectNode().put("email", email).put("password", SETUP_PASSWORD).put("name", name);
        steps.add(Map.entry("setup: account " + name, setupStep("POST", "/api/auth/signup", null, json, name)));
        kinds.put(name, "account");
        variables.set("$" + name, JSON.createObjectNode().put("email", email).put("password", SETUP_PASSWORD));
      } else {
        String key = fixture.get("key").asText();
        ObjectNode json = JSON.createObjectNode().put("name", key);
        json.set("scopes", fixture.get("scopes"));
        steps.add(Map.entry("setup: key " + key, setupStep("POST", "/api/keys", fixture.get("owner").asText(), json, key)));
        kinds.put(key, "key");
      }
    }
    int number = 0;
    for (JsonNode step : testCase.get("steps")) {
      number++;
      String title = step.hasNonNull("title") ? " (" + step.get("title").asText() + ")" : "";
      steps.add(Map.entry("step " + number + title, step));
    }

    // No credentials and no retries of the client's own: a case says exactly what each request carries.
    DataPlatform client = DataPlatform.builder().baseUrl(baseUrl).apiKey("").token("").maxRetries(0).build();
    for (var entry : steps) {
      JsonNode step = entry.getValue();
      Answer answer;
      try {
        answer = sendOnce(client, step, variables, kinds);
      } catch (Match.CaseError | DataPlatformException error) {
        throw new ConformanceFailure(testCase.get("title").asText() + "\n" + entry.getKey() + ": " + error.getMessage());
      }
      step.path("capture").properties().forEach(capture -> {
        JsonNode value = captured(answer, capture.getValue().asText());
        JsonNode extra = variables.get("$" + capture.getKey());
        if (extra != null && value.isObject()) {
          ObjectNode merged = ((ObjectNode) value).deepCopy();
          merged.setAll((ObjectNode) extra);
          value = merged;
        }
        variables.set(capture.getKey(), value);
      });
      List<String> problems = check(step, answer, variables);
      if (!problems.isEmpty()) {
        JsonNode request = step.get("request");
        throw new ConformanceFailure(testCase.get("title").asText() + "\n" + entry.getKey() + ": "
            + request.get("method").asText() + " " + request.get("path").asText() + "\n  "
            + String.join("\n  ", problems) + "\n  answer: " + answer.status() + " " + Match.show(answer.body()));
      }
    }
  }
}
