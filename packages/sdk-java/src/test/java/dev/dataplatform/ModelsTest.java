package dev.dataplatform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dataplatform.models.ApiKey;
import dev.dataplatform.models.ApiKeyCreate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The generated records read every field of an answer, and send only the fields they hold. */
class ModelsTest {
  @Test
  void aRecordReadsEveryFieldAndIgnoresNewOnes() throws Exception {
    String json = "{\"_id\":\"k1\",\"name\":\"r\",\"prefix\":\"svc_ab\",\"scopes\":[\"data:read\"],\"status\":\"active\","
        + "\"createdAt\":\"t0\",\"lastUsedAt\":\"t1\",\"aFieldOfANewerServer\":1}";
    ApiKey key = Json.MAPPER.readValue(json, ApiKey.class);
    assertEquals("k1", key._id());
    assertEquals(List.of("data:read"), key.scopes());
    assertEquals("t1", key.lastUsedAt());
    assertEquals(null, key.expiresAt());
  }

  @Test
  void theConstructorOfTheRequiredComponentsSendsNothingElse() {
    var body = new ApiKeyCreate("reader", List.of("data:read"));
    assertEquals("{\"name\":\"reader\",\"scopes\":[\"data:read\"]}", new String(Json.write(body)));
  }
}
