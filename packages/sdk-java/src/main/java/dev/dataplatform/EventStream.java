package dev.dataplatform;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * An open server-sent event stream (the HTML standard's format), read as it arrives: iterate it, or {@link
 * #stream()} it, and close it when done (try-with-resources). Comments, the keep-alive lines, are skipped. A stream
 * is never retried: open it again with {@link #lastEventId()} to resume.
 */
public final class EventStream implements Iterable<ServerSentEvent>, AutoCloseable {
  private final HttpResponse<InputStream> response;
  private final BufferedReader reader;
  private String lastEventId;
  private ServerSentEvent next;
  private boolean ended;

  EventStream(HttpResponse<InputStream> response) {
    this.response = response;
    this.reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
  }

  /** The answer's status. */
  public int status() {
    return response.statusCode();
  }

  /** The answer's headers. */
  public HttpHeaders headers() {
    return response.headers();
  }

  /** The id of the last event read that had one: send it as {@code lastEventId} to resume after it. */
  public String lastEventId() {
    return lastEventId;
  }

  @Override
  public Iterator<ServerSentEvent> iterator() {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        if (next == null && !ended) next = read();
        return next != null;
      }

      @Override
      public ServerSentEvent next() {
        if (!hasNext()) throw new NoSuchElementException();
        ServerSentEvent event = next;
        next = null;
        return event;
      }
    };
  }

  /** The events as a sequential stream; closing it closes this. */
  public Stream<ServerSentEvent> stream() {
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED | Spliterator.NONNULL), false)
        .onClose(this::close);
  }

  private ServerSentEvent read() {
    List<String> data = new ArrayList<>();
    String event = null;
    String id = null;
    try {
      for (String line = reader.readLine(); ; line = reader.readLine()) {
        if (line == null) {
          ended = true;
          return null;
        }
        if (line.isEmpty()) {
          if (data.isEmpty() && event == null) continue;
          if (id != null) lastEventId = id;
          return new ServerSentEvent(id, event == null ? "message" : event, String.join("\n", data));
        }
        if (line.startsWith(":")) continue;
        int colon = line.indexOf(':');
        String name = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) value = value.substring(1);
        switch (name) {
          case "data" -> data.add(value);
          case "event" -> event = value;
          case "id" -> id = value.indexOf('\0') >= 0 ? id : value;
          default -> {
            // retry: and unknown fields are ignored
          }
        }
      }
    } catch (IOException error) {
      if (ended) return null;
      throw new UncheckedIOException(error);
    }
  }

  @Override
  public void close() {
    ended = true;
    try {
      reader.close();
    } catch (IOException ignored) {
      // closing a connection that already failed
    }
  }
}
