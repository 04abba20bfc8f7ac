package dev.dataplatform;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/** The one ObjectMapper of the client: thread-safe once configured, and costly to make, so made once. */
final class Json {
  /** A newer server may add fields: an old client reads the ones it knows. */
  static final ObjectMapper MAPPER =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private Json() {}

  static byte[] write(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (JsonProcessingException error) {
      throw new DataPlatformException("Could not write the body as JSON: " + error.getOriginalMessage());
    }
  }

  /** A body as JSON, or null when it is empty or not JSON (an error page of a proxy, say). */
  static JsonNode parseOrNull(byte[] body) {
    if (body == null || body.length == 0) return null;
    try {
      return MAPPER.readTree(body);
    } catch (IOException error) {
      return null;
    }
  }
}
