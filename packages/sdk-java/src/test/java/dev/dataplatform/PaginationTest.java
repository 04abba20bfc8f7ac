package dev.dataplatform;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.dataplatform.ScriptedServer.Scripted;
import dev.dataplatform.resources.DataListParams;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PaginationTest {
  private static Scripted page(int skip, int total, String... ids) {
    var items = new ArrayList<String>();
    for (String id : ids) items.add("{\"_id\":\"" + id + "\"}");
    return Scripted.json(200, "{\"data\":[" + String.join(",", items) + "],\"total\":" + total + ",\"limit\":2,\"skip\":" + skip + "}");
  }

  @Test
  void iteratingAListWalksEveryPageWithTheSameQuery() throws Exception {
    try (var server = new ScriptedServer(page(0, 5, "a", "b"), page(2, 5, "c", "d"), page(4, 5, "e"))) {
      var first = server.client().build().data().list("o", new DataListParams().limit(2L).sort("x"), null);
      assertEquals(List.of("a", "b"), first.data().stream().map(d -> d.get("_id")).toList());
      assertEquals(1, server.requests.size());
      List<Object> ids = new ArrayList<>();
      for (Map<String, Object> doc : first) ids.add(doc.get("_id"));
      assertEquals(List.of("a", "b", "c", "d", "e"), ids);
      assertEquals(
          List.of("/api/v1/data/o?limit=2&sort=x&skip=0", "/api/v1/data/o?limit=2&sort=x&skip=2",
              "/api/v1/data/o?limit=2&sort=x&skip=4"),
          server.requests.stream().map(ScriptedServer.Recorded::target).toList());
    }
  }

  @Test
  void aStreamIsLazyAndPagesCanBeWalkedOneByOne() throws Exception {
    try (var server = new ScriptedServer(page(0, 5, "a", "b"), page(2, 5, "c", "d"))) {
      var first = server.client().build().data().list("o");
      assertEquals(List.of("a", "b", "c"), first.stream().limit(3).map(d -> d.get("_id")).toList());
      assertEquals(2, server.requests.size());
      server.then(page(2, 5, "c", "d"), page(4, 5, "e"));
      var third = first.nextPage().nextPageAsync().join();
      assertFalse(third.hasNextPage());
      assertThrows(DataPlatformException.class, third::nextPage);
    }
  }

  @Test
  void aListAnsweringOnlyDataAndTotalTakesItsPlaceFromTheQuery() throws Exception {
    try (var server = new ScriptedServer(Scripted.json(200, "{\"data\":[{\"_id\":\"a\"}],\"total\":3}"))) {
      var first = server.client().build().data().list("o", new DataListParams().limit(1L).skip(2L), null);
      assertEquals(2, first.skip());
      assertEquals(1, first.limit());
      assertFalse(first.hasNextPage());
    }
  }

  @Test
  void anEmptyPageEndsTheWalkEvenWhenTotalSaysMore() throws Exception {
    try (var server = new ScriptedServer(page(0, 9))) {
      var first = server.client().build().data().list("o");
      assertEquals(0, first.stream().count());
      assertEquals(1, server.requests.size());
    }
  }

  @Test
  void theAsyncFirstPageWalksOnLikeTheBlockingOne() throws Exception {
    try (var server = new ScriptedServer(page(0, 3, "a", "b"), page(2, 3, "c"))) {
      var first = server.client().build().data().listAsync("o").join();
      assertEquals(3, first.stream().count());
    }
  }
}
