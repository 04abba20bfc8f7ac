package dev.dataplatform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dataplatform.ScriptedServer.Scripted;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class RetriesTest {
  /** A 503 that asks for a 1 ms wait, so the test does not sit through the backoff. */
  private static Scripted unavailable() {
    return Scripted.json(503, "{\"error\":\"busy\",\"code\":\"unavailable\"}", "retry-after-ms", "1");
  }

  private static final Scripted CREATED = Scripted.json(201, "{\"_id\":\"a\",\"_createdAt\":\"t\",\"_updatedAt\":\"t\"}");

  @Test
  void aWriteRetriedAfter503sSendsOneIdempotencyKeyAndRequestId() throws Exception {
    try (var server = new ScriptedServer(unavailable(), unavailable(), CREATED)) {
      Map<String, Object> created = server.client().build().data().create("orders", Map.of("total", 1));
      assertEquals("a", created.get("_id"));
      assertEquals(3, server.requests.size());
      var first = server.requests.get(0).headers();
      assertNotNull(first.get("idempotency-key"));
      for (var request : server.requests) {
        assertEquals(first.get("idempotency-key"), request.headers().get("idempotency-key"));
        assertEquals(first.get("x-request-id"), request.headers().get("x-request-id"));
        assertEquals("{\"total\":1}", request.body());
      }
    }
  }

  @Test
  void twoWritesGetTwoIdempotencyKeysAndAGivenOneIsSentAsItIs() throws Exception {
    try (var server = new ScriptedServer(CREATED, CREATED, CREATED)) {
      var client = server.client().build();
      client.data().create("orders", Map.of());
      client.data().create("orders", Map.of());
      client.data().create("orders", Map.of(), RequestOptions.builder().idempotencyKey("mine").build());
      var keys = server.requests.stream().map(r -> r.headers().get("idempotency-key")).toList();
      assertNotEquals(keys.get(0), keys.get(1));
      assertEquals("mine", keys.get(2));
    }
  }

  @Test
  void readsCarryNoIdempotencyKey() throws Exception {
    try (var server = new ScriptedServer(CREATED)) {
      server.client().build().data().get("orders", "a");
      assertNull(server.requests.get(0).headers().get("idempotency-key"));
    }
  }

  @Test
  void givesUpAfterMaxRetriesWithTheLastError() throws Exception {
    try (var server = new ScriptedServer(unavailable(), unavailable(), unavailable(), CREATED)) {
      var error = assertThrows(InternalServerException.class, () -> server.client().build().data().get("o", "a"));
      assertEquals(503, error.status());
      assertEquals("unavailable", error.code());
      assertEquals(3, server.requests.size());
    }
  }

  @Test
  void aFinalConflictIsNotRetriedAndATransientOneIs() throws Exception {
    var duplicate = Scripted.json(409, "{\"error\":\"exists\",\"code\":\"conflict\"}");
    var busy = Scripted.json(409, "{\"error\":\"busy\",\"code\":\"write_conflict\"}", "retry-after-ms", "1");
    try (var server = new ScriptedServer(duplicate, busy, CREATED)) {
      var client = server.client().build();
      assertThrows(ConflictException.class, () -> client.data().create("o", Map.of()));
      assertEquals(1, server.requests.size());
      client.data().create("o", Map.of());
      assertEquals(3, server.requests.size());
    }
  }

  @Test
  void aRateLimitLongerThanMaxRetryWaitFailsAtOnce() throws Exception {
    var limited = Scripted.json(429, "{\"error\":\"slow down\",\"code\":\"rate_limited\"}", "retry-after", "60");
    try (var server = new ScriptedServer(limited, CREATED)) {
      var client = server.client().maxRetryWait(Duration.ofSeconds(1)).build();
      assertThrows(RateLimitException.class, () -> client.data().get("o", "a"));
      assertEquals(1, server.requests.size());
    }
  }

  @Test
  void aDroppedConnectionIsRetried() throws Exception {
    try (var server = new ScriptedServer(ScriptedServer.DROP, CREATED)) {
      assertEquals("a", server.client().build().data().get("o", "a").get("_id"));
      assertEquals(2, server.requests.size());
    }
  }

  @Test
  void clientErrorsAreNotRetried() throws Exception {
    try (var server = new ScriptedServer(Scripted.json(400, "{\"error\":\"no\",\"code\":\"validation_error\"}"))) {
      assertThrows(BadRequestException.class, () -> server.client().build().data().get("o", "a"));
      assertEquals(1, server.requests.size());
    }
  }

  @Test
  void theAsyncFlavourRetriesAlikeAndFailsWithTheSameException() throws Exception {
    try (var server = new ScriptedServer(unavailable(), CREATED, Scripted.json(404, "{\"error\":\"x\",\"code\":\"not_found\"}"))) {
      var client = server.client().build();
      assertEquals("a", client.data().getAsync("o", "a").join().get("_id"));
      var failure = assertThrows(CompletionException.class, () -> client.data().getAsync("o", "b").join());
      var error = assertInstanceOf(NotFoundException.class, failure.getCause());
      assertEquals("not_found", error.code());
      assertEquals(3, server.requests.size());
    }
  }

  @Test
  void aRefusedConnectionToTheDefaultAddressNamesTheOptionAndTheVariable() throws Exception {
    // A port just freed: nothing listens there. The default address is replaced by way of the environment only.
    String url;
    try (var server = new ScriptedServer()) {
      url = server.url();
    }
    var client = DataPlatform.builder().baseUrl(url).maxRetries(0).environment(n -> null).build();
    var error = assertThrows(ApiConnectionException.class, () -> client.data().get("o", "a"));
    assertTrue(error.getMessage().contains("is the server running there?"), error.getMessage());
    assertTrue(error.requestId().startsWith("req_"));
    var defaults = DataPlatform.builder().maxRetries(0).environment(n -> null).build();
    assertEquals(DataPlatform.DEFAULT_BASE_URL, defaults.baseUrl());
    try {
      defaults.data().get("o", "a");
      Assumptions.abort("a server answers on the default address here");
    } catch (ApiConnectionException refused) {
      assertTrue(refused.getMessage().contains("DATAPLATFORM_BASE_URL"), refused.getMessage());
    } catch (ApiStatusException answered) {
      Assumptions.abort("a server answers on the default address here");
    }
  }
}
