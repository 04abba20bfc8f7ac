package dataplatform

import (
	"bufio"
	"context"
	"io"
	"iter"
	"strconv"
	"strings"
)

// ServerSentEvent is one event of a stream (a collection's changes, a webhook's deliveries).
type ServerSentEvent struct {
	// ID resumes the stream after this event (WithLastEventID).
	ID string
	// Event is the event's type; empty for the default, "message".
	Event string
	// Data is the event's data, its lines joined with "\n" (JSON for this API's streams).
	Data string
	// Retry is the reconnection delay the server asked for, in milliseconds; 0 when not given.
	Retry int
}

// events opens an event stream and yields its events until the stream or the context ends; never retried.
func (c *Client) events(ctx context.Context, cl *call, err error, opts []Option) iter.Seq2[ServerSentEvent, error] {
	return func(yield func(ServerSentEvent, error) bool) {
		if err != nil {
			yield(ServerSentEvent{}, err)
			return
		}
		cl.stream = true
		resp, _, err := c.send(ctx, cl, append([]Option{WithHeader("Accept", "text/event-stream")}, opts...))
		if err != nil {
			yield(ServerSentEvent{}, err)
			return
		}
		defer resp.Body.Close()
		if err := decodeEvents(resp.Body, yield); err != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			}
			yield(ServerSentEvent{}, c.connectionError(err, resp.Request.Header.Get("X-Request-Id")))
		}
	}
}

// decodeEvents reads the text/event-stream format and yields each event as its blank line ends it, until the
// stream ends (nil), breaks off (its error) or the loop stops (nil).
func decodeEvents(r io.Reader, yield func(ServerSentEvent, error) bool) error {
	reader := bufio.NewReader(r)
	var event ServerSentEvent
	var data []string
	for {
		line, err := reader.ReadString('\n')
		if err != nil && line == "" {
			if err == io.EOF {
				return nil
			}
			return err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if data != nil {
				event.Data = strings.Join(data, "\n")
				if !yield(event, nil) {
					return nil
				}
			}
			event, data = ServerSentEvent{ID: event.ID}, nil
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue // a comment: the server's keep-alive
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "data":
			data = append(data, value)
		case "event":
			event.Event = value
		case "id":
			event.ID = value
		case "retry":
			event.Retry, _ = strconv.Atoi(value)
		}
	}
}
