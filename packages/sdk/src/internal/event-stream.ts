/** One server-sent event as the HTML standard's `EventSource` dispatches it. */
export interface ServerSentEvent {
  /**
   * The `event:` field; `message` when the event named none. Empty for a new id sent without data: no event,
   * only a point to resume from (the parser reports it so that its order among events is kept).
   */
  event: string;
  /** The `data:` lines joined with newlines. */
  data: string;
  /** The last `id:` seen on the stream so far (it carries over to later events), '' when none. */
  id: string;
}

const LF = 10;
const CR = 13;

/**
 * The parsing half of the HTML standard's event-stream interpretation, fed with decoded text as it arrives:
 * lines end with CRLF, LF or CR (a CRLF may be split across two chunks), `:` starts a comment, an empty line
 * dispatches the event, an event without data is dropped (a new id it set is reported as an event named ''), and
 * `id:` and `retry:` persist across events.
 */
export class EventStreamParser {
  /** The last event id seen, sent back as `Last-Event-ID` to resume. */
  lastEventId = '';
  /** The reconnection delay the server asked for with `retry:`, in milliseconds. */
  retry: number | undefined;
  #partial = '';
  #afterCR = false;
  #event = '';
  #data = '';
  #hasData = false;
  /** The id of the last event (or resume point) handed out. */
  #reportedId = '';

  /** Parses the next piece of text and returns the events it completed. */
  push(text: string): ServerSentEvent[] {
    const events: ServerSentEvent[] = [];
    let start = this.#afterCR && text.charCodeAt(0) === LF ? 1 : 0;
    this.#afterCR = false;
    for (let at = start; at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (code !== LF && code !== CR) continue;
      const line = this.#partial + text.slice(start, at);
      this.#partial = '';
      this.#line(line, events);
      if (code === CR) {
        if (at + 1 === text.length) this.#afterCR = true;
        else if (text.charCodeAt(at + 1) === LF) at++;
      }
      start = at + 1;
    }
    this.#partial += text.slice(start);
    return events;
  }

  #line(line: string, events: ServerSentEvent[]): void {
    if (line === '') {
      this.#dispatch(events);
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.#data += this.#hasData ? `\n${value}` : value;
      this.#hasData = true;
    } else if (field === 'event') this.#event = value;
    else if (field === 'id') {
      if (!value.includes('\0')) this.lastEventId = value;
    } else if (field === 'retry') {
      if (/^\d+$/.test(value)) this.retry = Number(value);
    }
  }

  #dispatch(events: ServerSentEvent[]): void {
    if (this.#hasData)
      events.push({ event: this.#event || 'message', data: this.#data, id: this.lastEventId });
    else if (this.lastEventId !== this.#reportedId)
      events.push({ event: '', data: '', id: this.lastEventId });
    this.#reportedId = this.lastEventId;
    this.#event = '';
    this.#data = '';
    this.#hasData = false;
  }
}
