package dev.dataplatform.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The runner's matchers tell a wrong answer from a right one, as spec/conformance/README.md describes them. */
class MatchTest {
  private static JsonNode json(String text) throws Exception {
    return Match.JSON.readTree(text);
  }

  private static List<String> mismatches(String actual, String matcher) throws Exception {
    return Match.mismatches(json(actual), json(matcher), json("{\"user\":{\"id\":\"u1\"},\"n\":2}"), "body");
  }

  @Test
  void scalarsObjectsAndArraysMatchAsJsonDoes() throws Exception {
    assertTrue(mismatches("{\"a\":1.0,\"b\":2}", "{\"a\":1}").isEmpty());
    assertEquals(List.of("body.a: expected 1, got true"), mismatches("{\"a\":true}", "{\"a\":1}"));
    assertEquals(List.of("body: expected 2 items, got 1"), mismatches("[1]", "[1,2]"));
    assertEquals(List.of("body.a: missing, expected 1"), mismatches("{}", "{\"a\":1}"));
  }

  @Test
  void variablesAreWrittenIn() throws Exception {
    assertTrue(mismatches("{\"owner\":\"u1\",\"path\":\"/x/u1/2\"}", "{\"owner\":\"{{user.id}}\",\"path\":\"/x/{{user.id}}/{{n}}\"}").isEmpty());
    assertTrue(mismatches("2", "\"{{n}}\"").isEmpty());
    assertThrows(Match.CaseError.class, () -> mismatches("1", "\"{{nobody}}\""));
  }

  @Test
  void operatorsHoldOrSayWhy() throws Exception {
    assertTrue(mismatches("{\"a\":3}", "{\"a\":{\"$type\":\"integer\"},\"b\":{\"$absent\":true}}").isEmpty());
    assertEquals(1, mismatches("{\"a\":3.5}", "{\"a\":{\"$type\":\"integer\"}}").size());
    assertEquals(1, mismatches("{\"a\":\"x\"}", "{\"a\":{\"$absent\":true}}").size());
    assertTrue(mismatches("\"req_12\"", "{\"$regex\":\"^req_\\\\d+$\",\"$length\":6}").isEmpty());
    assertEquals(1, mismatches("\"é😀\"", "{\"$length\":2}").size());
    assertTrue(mismatches("[{\"a\":1},{\"a\":2}]", "{\"$contains\":{\"a\":2}}").isEmpty());
    assertEquals(1, mismatches("[{\"a\":1}]", "{\"$contains\":{\"a\":2}}").size());
  }
}
