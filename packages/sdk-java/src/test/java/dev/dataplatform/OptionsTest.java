package dev.dataplatform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dataplatform.ScriptedServer.Scripted;
import dev.dataplatform.resources.DataListParams;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OptionsTest {
  private static final Scripted DOC = Scripted.json(200, "{\"_id\":\"a\"}");

  @Test
  void readsKeyTokenAndAddressFromTheEnvironment() {
    Map<String, String> env =
        Map.of("DATAPLATFORM_API_KEY", "svc_env", "DATAPLATFORM_TOKEN", "tok", "DATAPLATFORM_BASE_URL", "http://h.test/");
    var client = DataPlatform.builder().environment(env::get).build();
    assertEquals("svc_env", client.apiKey());
    assertEquals("tok", client.token());
    assertEquals("http://h.test", client.baseUrl());
  }

  @Test
  void optionsWinOverTheEnvironmentAndEmptyVariablesAreUnset() {
    Map<String, String> env = Map.of("DATAPLATFORM_API_KEY", "svc_env", "DATAPLATFORM_BASE_URL", " ");
    var client = DataPlatform.builder().apiKey("svc_mine").environment(env::get).build();
    assertEquals("svc_mine", client.apiKey());
    assertEquals(DataPlatform.DEFAULT_BASE_URL, client.baseUrl());
  }

  @Test
  void anAddressWithoutASchemeIsRefused() {
    var error =
        assertThrows(
            DataPlatformException.class, () -> DataPlatform.builder().baseUrl("localhost:5000").build());
    assertTrue(error.getMessage().contains("localhost:5000"));
  }

  @Test
  void everyCallSendsItsOwnRequestIdItsCredentialsAndAcceptsJson() throws Exception {
    try (var server = new ScriptedServer(DOC, DOC)) {
      var client = server.client().apiKey("svc_k").token("tok").build();
      client.data().get("o", "a");
      client.data().get("o", "a");
      var first = server.requests.get(0).headers();
      assertEquals("application/json", first.get("accept"));
      assertEquals("svc_k", first.get("x-api-key"));
      assertEquals("Bearer tok", first.get("authorization"));
      assertEquals("dataplatform-java/" + DataPlatform.VERSION, first.get("user-agent"));
      assertTrue(first.get("x-request-id").startsWith("req_"));
      assertNotEquals(first.get("x-request-id"), server.requests.get(1).headers().get("x-request-id"));
    }
  }

  @Test
  void perCallAndDefaultHeadersAddAndRemove() throws Exception {
    try (var server = new ScriptedServer(DOC)) {
      var client = server.client().apiKey("svc_k").defaultHeader("X-Cluster-Id", "c1").build();
      var options = RequestOptions.builder().header("x-api-key", null).header("x-extra", "1").ifMatch("\"v1\"").build();
      client.data().update("o", "a", Map.of("x", 1), options);
      var headers = server.requests.get(0).headers();
      assertNull(headers.get("x-api-key"));
      assertEquals("1", headers.get("x-extra"));
      assertEquals("c1", headers.get("x-cluster-id"));
      assertEquals("\"v1\"", headers.get("if-match"));
      assertEquals("application/json", headers.get("content-type"));
    }
  }

  @Test
  void pathSegmentsArePercentEncodedAndAnEmptyOneIsRefusedBeforeSending() throws Exception {
    try (var server = new ScriptedServer(DOC)) {
      var client = server.client().build();
      client.data().get("my orders", "a/b?c");
      assertEquals("/api/v1/data/my%20orders/a%2Fb%3Fc", server.requests.get(0).target());
      assertThrows(DataPlatformException.class, () -> client.data().get("o", ""));
      assertEquals(1, server.requests.size());
    }
  }

  @Test
  void queryValuesAreSentAsTheServerReadsThem() throws Exception {
    try (var server = new ScriptedServer(Scripted.json(200, "{\"data\":[],\"total\":0,\"limit\":5,\"skip\":0}"))) {
      server.client().build().data().list("o", new DataListParams().limit(5L).sort("-total"), null).data();
      assertEquals("/api/v1/data/o?limit=5&sort=-total&skip=0", server.requests.get(0).target());
    }
  }

  @Test
  void setTokenChangesTheBearerOfLaterCallsAndRateLimitHeadersAreRemembered() throws Exception {
    var limited = Scripted.json(200, "{\"_id\":\"a\"}", "ratelimit-limit", "100", "ratelimit-remaining", "99",
        "ratelimit-reset", "30");
    try (var server = new ScriptedServer(DOC, limited)) {
      var client = server.client().build();
      assertNull(client.rateLimit());
      client.data().get("o", "a");
      client.setToken("new");
      client.data().get("o", "a");
      assertFalse(server.requests.get(0).headers().containsKey("authorization"));
      assertEquals("Bearer new", server.requests.get(1).headers().get("authorization"));
      assertEquals(new RateLimitInfo(100, 99, 30), client.rateLimit());
    }
  }

  @Test
  void withOptionsChangesOnlyWhatItNames() {
    var client = DataPlatform.builder().apiKey("k").baseUrl("http://h.test").environment(n -> null).build();
    var changed = client.withOptions(b -> b.timeout(Duration.ofSeconds(5)));
    assertEquals("k", changed.apiKey());
    assertEquals("http://h.test", changed.baseUrl());
  }

  @Test
  void theVersionIsThePomVersion() throws Exception {
    String pom = java.nio.file.Files.readString(java.nio.file.Path.of("pom.xml"));
    assertTrue(pom.contains("<version>" + DataPlatform.VERSION + "</version>"));
  }
}
