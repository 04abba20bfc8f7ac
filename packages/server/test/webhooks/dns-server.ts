import { createSocket, type RemoteInfo } from 'node:dgram';
import * as packet from 'dns-packet';

/** What the test server knows of one name; a name it does not know is answered NXDOMAIN. */
export interface DnsRecord {
  a?: string[];
  aaaa?: string[];
  /** Seconds (default 60). */
  ttl?: number;
  /** Queries for the name get no answer until `release()`: a slow server, as slow as the test wants. */
  hold?: boolean;
}

/** A DNS server on 127.0.0.1 (UDP) that a ReceiverResolver is pointed at with `servers: [server.address]`. */
export interface DnsServer {
  /** `127.0.0.1:<port>`. */
  address: string;
  /** The names and types asked so far, in order (`a.test A`). */
  queries: string[];
  /** Replaces or adds a name. */
  set(name: string, record: DnsRecord): void;
  /** The names with queries held now. */
  held(): Set<string>;
  /** Resolves once queries for `count` names are held. */
  waitForHeld(count: number): Promise<void>;
  /** Answers every held query, and no longer holds any name. */
  release(): void;
  close(): Promise<void>;
}

type Query = { message: packet.Packet; question: packet.Question; from: RemoteInfo };

/** Starts a DNS server answering from `zone` (names in lower case). */
export async function startDnsServer(zone: Record<string, DnsRecord> = {}): Promise<DnsServer> {
  const records = new Map(Object.entries(zone));
  const socket = createSocket('udp4');
  const queries: string[] = [];
  let held: Query[] = [];
  let waiters: { count: number; resolve: () => void }[] = [];
  const heldNames = () => new Set(held.map((query) => query.question.name.toLowerCase()));

  const answer = ({ message, question, from }: Query) => {
    const record = records.get(question.name.toLowerCase());
    const data = question.type === 'A' ? record?.a : question.type === 'AAAA' ? record?.aaaa : undefined;
    const reply = packet.encode({
      id: message.id,
      type: 'response',
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (record ? 0 : 3), // rcode 3: NXDOMAIN
      questions: [question],
      answers: (data ?? []).map((address) => ({
        type: question.type as 'A',
        class: 'IN' as const,
        name: question.name,
        ttl: record?.ttl ?? 60,
        data: address,
      })),
    });
    socket.send(reply, from.port, from.address);
  };

  socket.on('message', (buffer, from) => {
    const message = packet.decode(buffer);
    const question = message.questions?.[0];
    if (!question) return;
    queries.push(`${question.name.toLowerCase()} ${question.type}`);
    if (!records.get(question.name.toLowerCase())?.hold) return answer({ message, question, from });
    held.push({ message, question, from });
    const names = heldNames().size;
    for (const waiter of waiters) if (names >= waiter.count) waiter.resolve();
    waiters = waiters.filter((waiter) => names < waiter.count);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));

  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries,
    set: (name, record) => records.set(name, record),
    held: heldNames,
    waitForHeld: (count) =>
      heldNames().size >= count
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ count, resolve })),
    release() {
      for (const [name, record] of records) if (record.hold) records.set(name, { ...record, hold: false });
      const queued = held;
      held = [];
      for (const query of queued) answer(query);
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
