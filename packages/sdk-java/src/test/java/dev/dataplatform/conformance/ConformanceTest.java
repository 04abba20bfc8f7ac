package dev.dataplatform.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * Every case of spec/conformance, through the Java client, against the reference server named by
 * DATAPLATFORM_CONFORMANCE_URL (the test setup starts one per storage engine). Run with {@code -Dgroups=conformance}.
 */
@Tag("conformance")
class ConformanceTest {
  private static final String BASE_URL = System.getenv("DATAPLATFORM_CONFORMANCE_URL");
  /**
   * Cases run side by side, as the other runners run them (each signs its own users up and names its own
   * collections), so the run waits on the server's sign-ups in parallel rather than one after another.
   */
  private static final ExecutorService POOL = Executors.newFixedThreadPool(8);

  @AfterAll
  static void stop() {
    POOL.shutdownNow();
  }

  @TestFactory
  Stream<DynamicTest> everyCase() throws Exception {
    Assumptions.assumeTrue(BASE_URL != null && !BASE_URL.isBlank(), "DATAPLATFORM_CONFORMANCE_URL names no server");
    Map<String, JsonNode> cases = Runner.loadCases();
    Assumptions.assumeFalse(cases.isEmpty(), "no cases found");
    // Every case that applies to the server, started at once; each test waits for its own.
    Map<String, CompletableFuture<Void>> started = new java.util.TreeMap<>();
    cases.forEach((id, testCase) -> {
      if (testCase.path("skip").path("server").isMissingNode()) {
        started.put(id, CompletableFuture.runAsync(() -> Runner.runCase(testCase, BASE_URL), POOL));
      }
    });
    return cases.entrySet().stream().map(entry -> DynamicTest.dynamicTest(entry.getKey(), () -> {
      JsonNode reason = entry.getValue().path("skip").path("server");
      Assumptions.assumeTrue(reason.isMissingNode(), reason.asText());
      try {
        started.get(entry.getKey()).get();
      } catch (ExecutionException error) {
        if (error.getCause() instanceof Error failure) throw failure;
        throw error.getCause();
      }
    }));
  }
}
