package dev.dataplatform;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Every operation of openapi.json is a method of the client, under its operationId, blocking and async. */
class CoverageTest {
  private static final Set<String> KEYWORDS = Set.of("import", "new", "default", "class");

  private static List<String> operationIds() throws Exception {
    JsonNode doc = new ObjectMapper().readTree(Path.of("..", "contract", "openapi.json").toFile());
    List<String> ids = new ArrayList<>();
    doc.get("paths").forEach(item -> item.forEach(op -> {
      if (op.has("operationId")) ids.add(op.get("operationId").asText());
    }));
    return ids;
  }

  private static Method method(Class<?> type, String name) {
    return Arrays.stream(type.getMethods()).filter(m -> m.getName().equals(name)).findFirst().orElse(null);
  }

  @TestFactory
  Stream<DynamicTest> everyOperationIsAMethod() throws Exception {
    List<String> ids = operationIds();
    assertTrue(ids.size() > 50);
    return ids.stream().map(id -> DynamicTest.dynamicTest(id, () -> {
      String[] parts = id.split("\\.");
      Class<?> type = DataPlatform.class;
      for (int i = 0; i < parts.length - 1; i++) {
        Method accessor = method(type, parts[i]);
        if (accessor == null) fail(type.getSimpleName() + " has no resource " + parts[i]);
        type = accessor.getReturnType();
      }
      String name = parts[parts.length - 1] + (KEYWORDS.contains(parts[parts.length - 1]) ? "_" : "");
      Method blocking = method(type, name);
      if (blocking == null) fail(type.getSimpleName() + " has no method " + name);
      boolean stream = blocking.getReturnType() == EventStream.class;
      Method async = method(type, name.replaceAll("_$", "") + "Async");
      assertTrue(stream || (async != null && async.getReturnType() == CompletableFuture.class), id + " has no async flavour");
    }));
  }
}
