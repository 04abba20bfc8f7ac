package dev.dataplatform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ErrorsTest {
  private static ApiStatusException.Answer answer(int status, String body, Map<String, List<String>> headers) {
    return new ApiStatusException.Answer(
        status, HttpHeaders.of(headers, (a, b) -> true), body.getBytes(StandardCharsets.UTF_8), "req_sent");
  }

  @ParameterizedTest
  @CsvSource({
    "400, BadRequestException", "401, AuthenticationException", "402, PaymentRequiredException",
    "403, PermissionDeniedException", "404, NotFoundException", "405, MethodNotAllowedException",
    "408, RequestTimeoutException", "409, ConflictException", "412, PreconditionFailedException",
    "413, PayloadTooLargeException", "414, UriTooLongException", "415, UnsupportedMediaTypeException",
    "422, UnprocessableEntityException", "428, PreconditionRequiredException", "429, RateLimitException",
    "431, HeadersTooLargeException", "500, InternalServerException", "503, InternalServerException",
    "418, ApiStatusException"
  })
  void theStatusPicksTheClass(int status, String name) {
    var error = ApiStatusException.of(answer(status, "{\"error\":\"e\",\"code\":\"c\",\"requestId\":\"req_1\"}", Map.of()));
    assertEquals(name, error.getClass().getSimpleName());
    assertEquals(status, error.status());
    assertEquals("c", error.code());
    assertEquals("req_1", error.requestId());
    assertEquals(status + " c: e", error.getMessage());
  }

  @Test
  void withoutAnIdInTheBodyTheAnswerHeaderNamesTheRequest() {
    var error = ApiStatusException.of(answer(404, "{\"error\":\"e\",\"code\":\"not_found\",\"details\":{\"id\":\"x\"}}",
        Map.of("x-request-id", List.of("req_header"))));
    assertEquals("req_header", error.requestId());
    assertEquals("x", error.details().get("id").asText());
  }

  @Test
  void aProxyPageWithoutJsonStillNamesTheRequestItWasSentAs() {
    var error = ApiStatusException.of(answer(502, "<html>Bad gateway</html>", Map.of()));
    assertSame(InternalServerException.class, error.getClass());
    assertEquals("req_sent", error.requestId());
    assertNull(error.code());
    assertNull(error.body());
    assertTrue(error.getMessage().contains("Bad gateway"));
  }
}
