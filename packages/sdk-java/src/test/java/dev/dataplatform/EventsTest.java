package dev.dataplatform;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.dataplatform.ScriptedServer.Scripted;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventsTest {
  @Test
  void aStreamSendsLastEventIdSkipsCommentsAndJoinsDataLines() throws Exception {
    String body = ": keep-alive\n\nid: 1\nevent: change\ndata: {\"a\":1}\n\ndata: one\ndata: two\n\n";
    try (var server = new ScriptedServer(new Scripted(200, Map.of("content-type", "text/event-stream"), body))) {
      try (var stream = server.client().build().data().changes("o", null, "0", RequestOptions.builder().header("x-cluster-id", "c1").build())) {
        List<ServerSentEvent> events = stream.stream().toList();
        assertEquals(
            List.of(new ServerSentEvent("1", "change", "{\"a\":1}"), new ServerSentEvent(null, "message", "one\ntwo")),
            events);
        assertEquals("1", stream.lastEventId());
      }
      var headers = server.requests.get(0).headers();
      assertEquals("0", headers.get("last-event-id"));
      assertEquals("text/event-stream", headers.get("accept"));
      assertEquals("c1", headers.get("x-cluster-id"));
    }
  }
}
