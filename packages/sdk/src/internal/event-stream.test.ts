import { describe, expect, it } from 'vitest';
import { EventStreamParser, type ServerSentEvent } from './event-stream.js';

/** Feeds the pieces one after the other and collects every event. */
function parse(...pieces: string[]): { events: ServerSentEvent[]; parser: EventStreamParser } {
  const parser = new EventStreamParser();
  const events = pieces.flatMap((piece) => parser.push(piece));
  return { events, parser };
}

describe('EventStreamParser', () => {
  it('reads id, event and data, skipping comments and the one space after the colon', () => {
    const { events } = parse(': keep-alive\n\nid: evt_1\nevent: document.created\ndata: {"a":1}\n\n');
    expect(events).toEqual([{ id: 'evt_1', event: 'document.created', data: '{"a":1}' }]);
  });

  it('joins data lines with newlines and names an event without `event:` "message"', () => {
    expect(parse('data: one\ndata:two\ndata:  three\n\n').events).toEqual([
      { id: '', event: 'message', data: 'one\ntwo\n three' },
    ]);
  });

  it('gives the same events whatever the chunking, CRLF split across chunks included', () => {
    const text = 'retry: 2000\r\n\r\nid: 1\r\nevent: a\r\ndata: x\r\n\r\nid: 2\rdata: y\r\rdata: z\n\n';
    const whole = parse(text).events;
    expect(whole).toEqual([
      { id: '1', event: 'a', data: 'x' },
      { id: '2', event: 'message', data: 'y' },
      { id: '2', event: 'message', data: 'z' },
    ]);
    for (let cut = 1; cut < text.length; cut++) {
      expect(parse(text.slice(0, cut), text.slice(cut)).events, `cut at ${cut}`).toEqual(whole);
    }
    expect(parse(...text.split('')).events).toEqual(whole);
  });

  it('keeps the last id and the retry delay, and drops an event that has no data but reports its new id', () => {
    const { events, parser } = parse('id: evt_9\nevent: lonely\n\nretry: 1500\nretry: soon\n\n');
    expect(events).toEqual([{ id: 'evt_9', event: '', data: '' }]);
    expect(parser.lastEventId).toBe('evt_9');
    expect(parser.retry).toBe(1500);
  });

  it('reports a resume point in its place among the events, and an id only once', () => {
    const { events } = parse(
      'retry: 2000\nid: start_1\n\nid: e1\ndata: a\n\nid: e1\n\n: keep-alive\n\nid: e2\n\ndata: b\n\n',
    );
    expect(events).toEqual([
      { id: 'start_1', event: '', data: '' },
      { id: 'e1', event: 'message', data: 'a' },
      { id: 'e2', event: '', data: '' },
      { id: 'e2', event: 'message', data: 'b' },
    ]);
  });

  it('ignores an id holding NUL, unknown fields, and a field line without a colon', () => {
    const { events } = parse('id: a\0b\nfoo: bar\ndata\n\n');
    expect(events).toEqual([{ id: '', event: 'message', data: '' }]);
  });

  it('does not dispatch an event whose blank line has not arrived yet', () => {
    const parser = new EventStreamParser();
    expect(parser.push('data: half')).toEqual([]);
    expect(parser.push('\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ id: '', event: 'message', data: 'half' }]);
  });
});
