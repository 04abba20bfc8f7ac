package dev.dataplatform.webhooks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** WebhookVerifier gives every vector of spec/webhooks/vectors.json its expected result. */
class WebhookVectorsTest {
  private static final Path VECTORS = Path.of("..", "..", "spec", "webhooks", "vectors.json");

  private static List<JsonNode> vectors() throws IOException {
    JsonNode root = new ObjectMapper().readTree(VECTORS.toFile());
    return StreamSupport.stream(root.get("vectors").spliterator(), false).toList();
  }

  private static Map<String, List<String>> headers(JsonNode vector) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    vector.get("headers").properties().forEach(entry -> {
      List<String> values = new ArrayList<>();
      if (entry.getValue().isArray()) entry.getValue().forEach(v -> values.add(v.asText()));
      else values.add(entry.getValue().asText());
      out.put(entry.getKey(), values);
    });
    return out;
  }

  private static String result(JsonNode vector, WebhookVerifier verifier, Map<String, List<String>> headers) {
    var clock = Clock.fixed(Instant.ofEpochSecond(vector.get("now").asLong()), ZoneOffset.UTC);
    try {
      verifier
          .withClock(clock)
          .withTolerance(Duration.ofSeconds(vector.get("toleranceSeconds").asLong()))
          .verify(vector.get("body").asText(), headers);
      return "valid";
    } catch (WebhookVerificationException error) {
      return error.code();
    }
  }

  private static String expected(JsonNode vector) {
    JsonNode expected = vector.get("expected");
    return expected.get("valid").asBoolean() ? "valid" : expected.get("code").asText();
  }

  private static List<String> secrets(JsonNode vector) {
    List<String> out = new ArrayList<>();
    vector.get("secrets").forEach(s -> out.add(s.asText()));
    return out;
  }

  @TestFactory
  Stream<DynamicTest> everyVectorWithPlainHeaders() throws IOException {
    return vectors().stream().map(v -> DynamicTest.dynamicTest(v.get("id").asText(),
        () -> assertEquals(expected(v), result(v, new WebhookVerifier(secrets(v)), headers(v)))));
  }

  @TestFactory
  Stream<DynamicTest> everyVectorWithJavaHttpHeaders() throws IOException {
    // As a receiver built on java.net.http holds them: case-insensitive, repeated headers kept apart.
    return vectors().stream().map(v -> DynamicTest.dynamicTest(v.get("id").asText(), () -> {
      HttpHeaders headers = HttpHeaders.of(headers(v), (a, b) -> true);
      assertEquals(expected(v), result(v, new WebhookVerifier(secrets(v)), headers.map()));
    }));
  }

  @TestFactory
  Stream<DynamicTest> everyVectorWithASingleSecret() throws IOException {
    return vectors().stream().filter(v -> v.get("secrets").size() == 1).map(v -> DynamicTest.dynamicTest(
        v.get("id").asText(),
        () -> assertEquals(expected(v), result(v, new WebhookVerifier(secrets(v).get(0)), headers(v)))));
  }
}
