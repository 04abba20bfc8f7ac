package dev.dataplatform.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.dataplatform.ConflictException;
import dev.dataplatform.DataPlatform;
import dev.dataplatform.NotFoundException;
import dev.dataplatform.PreconditionFailedException;
import dev.dataplatform.RequestOptions;
import dev.dataplatform.models.ApiKeyCreate;
import dev.dataplatform.models.DataBatchBody;
import dev.dataplatform.models.Deleted;
import dev.dataplatform.models.SignInRequest;
import dev.dataplatform.models.SignUpRequest;
import dev.dataplatform.models.SqlRequest;
import dev.dataplatform.resources.DataImportParams;
import dev.dataplatform.resources.DataListParams;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The client's own typed calls against the reference server the test setup started (DATAPLATFORM_CONFORMANCE_URL,
 * with the key DATAPLATFORM_LIVE_API_KEY): the records read real answers, and retries, pages and errors hold there.
 */
@Tag("conformance")
class LiveTest {
  private static final String BASE_URL = System.getenv("DATAPLATFORM_CONFORMANCE_URL");
  private static final String API_KEY = System.getenv("DATAPLATFORM_LIVE_API_KEY");

  private DataPlatform client;
  private String collection;

  @BeforeEach
  void connect() {
    Assumptions.assumeTrue(BASE_URL != null && API_KEY != null, "no reference server named");
    client = DataPlatform.builder().baseUrl(BASE_URL).apiKey(API_KEY).build();
    collection = "java_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
  }

  @Test
  void aDocumentRoundTrip() {
    Map<String, Object> created = client.data().create(collection, Map.of("total", 42, "customer", Map.of("name", "ada")));
    String id = (String) created.get("_id");
    assertEquals(42, client.data().get(collection, id).get("total"));
    assertEquals(43, client.data().update(collection, id, Map.of("total", 43)).get("total"));
    assertNull(client.data().replace(collection, id, Map.of("note", "x")).get("total"));
    assertEquals(new Deleted(id, true), client.data().delete(collection, id));
    var error = assertThrows(NotFoundException.class, () -> client.data().get(collection, id));
    assertEquals("not_found", error.code());
    assertFalse(error.requestId().isEmpty());
  }

  @Test
  void aRetriedWriteIsStoredOnce() {
    // The same Idempotency-Key twice, as a retry after a lost answer sends it: the server replays the first.
    var options = RequestOptions.builder().idempotencyKey("k-" + collection).build();
    var first = client.data().create(collection, Map.of("n", 1), options);
    var again = client.data().create(collection, Map.of("n", 1), options);
    assertEquals(first.get("_id"), again.get("_id"));
    assertEquals(1, client.data().list(collection).total());
  }

  @Test
  void aDuplicateIdIsAConflictAndIfMatchGuardsAWrite() {
    client.data().create(collection, Map.of("_id", "same", "n", 1));
    assertEquals("conflict", assertThrows(ConflictException.class,
        () -> client.data().create(collection, Map.of("_id", "same"))).code());
    var stale = RequestOptions.builder().ifMatch("\"an-older-version\"").build();
    assertThrows(PreconditionFailedException.class, () -> client.data().update(collection, "same", Map.of("n", 2), stale));
    assertEquals(1, client.data().get(collection, "same").get("n"));
  }

  @Test
  void aBatchThenEveryPageWalkedBlockingAndAsync() {
    List<Object> operations = new ArrayList<>();
    for (int n = 0; n < 25; n++) operations.add(Map.of("op", "insert", "collection", collection, "data", Map.of("n", n)));
    var result = client.data().batch(new DataBatchBody(operations));
    assertEquals(25, result.results().size());
    assertTrue(result.results().stream().allMatch(r -> r.status() == 201));
    var params = new DataListParams().limit(10L).sort("n");
    List<Object> seen = new ArrayList<>();
    for (Map<String, Object> doc : client.data().list(collection, params, null)) seen.add(doc.get("n"));
    assertEquals(25, seen.size());
    assertEquals(0, seen.get(0));
    assertEquals(24, seen.get(24));
    var first = client.data().listAsync(collection, params, null).join();
    assertEquals(25, first.total());
    assertEquals(25, first.stream().count());
  }

  @Test
  void sqlAnImportAndItsJob() {
    byte[] lines = "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n".getBytes(StandardCharsets.UTF_8);
    var job = client.data().import_(collection, lines, "application/x-ndjson", new DataImportParams().format("ndjson"), null);
    assertNotNull(job._id());
    assertEquals("import", job.kind());
    assertEquals(job._id(), client.data().jobs().get(job._id())._id());
    client.data().create(collection, Map.of("n", 10));
    var rows = client.data().sql(new SqlRequest("SELECT * FROM " + collection + " WHERE n > ?", List.of(5), null));
    assertEquals(1, rows.data().size());
    assertEquals(10, rows.data().get(0).get("n"));
  }

  @Test
  void anAccountSignsUpSignsInAndMakesAKey() {
    String email = collection + "@example.com";
    var anonymous = DataPlatform.builder().baseUrl(BASE_URL).apiKey("").token("").build();
    var session = anonymous.auth().signup(new SignUpRequest(email, "correct horse battery staple", "java"));
    assertEquals(email, session.user().email());
    var signedIn = anonymous.auth().signinAsync(new SignInRequest(email, "correct horse battery staple")).join();
    anonymous.setToken(signedIn.token());
    assertEquals(session.user()._id(), anonymous.auth().me().user()._id());
    var key = anonymous.keys().create(new ApiKeyCreate("reader", List.of("data:read")));
    assertTrue(key.secret().length() > 10);
    assertEquals(List.of("data:read"), key.key().scopes());
    assertTrue(anonymous.keys().list().data().stream().anyMatch(k -> k._id().equals(key.key()._id())));
  }
}
