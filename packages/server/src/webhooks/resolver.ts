import { Resolver } from 'node:dns/promises';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parseHostsFile, type ResolvedAddress } from './hosts-file.js';

export type { ResolvedAddress } from './hosts-file.js';

/** Settings of the receivers' resolver; every one has a default. */
export interface ResolverOptions {
  /** DNS servers (`192.0.2.53`, `[2001:db8::53]:53`, `127.0.0.1:5353`); the system's (resolv.conf) when empty. */
  servers?: readonly string[];
  /** Longest a lookup may take, in milliseconds (default 5000). */
  timeoutMs?: number;
  /** Names being resolved at once; a lookup of one more fails at once with EDNSBUSY (default 64). */
  maxInFlight?: number;
  /** Names whose answers are kept (default 1000); the oldest go first. */
  maxEntries?: number;
  /** Longest an answer is kept whatever its TTL, in seconds (default 300). */
  maxTtlSeconds?: number;
  /** How long a failed lookup is remembered, in milliseconds (default 2000). */
  negativeTtlMs?: number;
  /** Hosts file read once, on first use (default `/etc/hosts`); null reads none. */
  hostsFile?: string | null;
  /** Milliseconds on a monotonic clock (tests move it). */
  now?: () => number;
}

interface Answer {
  addresses?: ResolvedAddress[];
  error?: { code: string; message: string };
  expiresAt: number;
}

/** The A or AAAA lookup found no such name or no such record: nothing to ask again soon. */
const NO_RECORDS = new Set(['ENOTFOUND', 'ENODATA']);
const LOOPBACK: readonly ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

function dnsError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * Resolves receivers' host names without libuv's thread pool, so lookups of slow names can never hold back a
 * create's check, the file system or crypto (getaddrinfo, behind `dns.lookup`, takes one of the pool's 4 threads
 * for as long as a lookup lasts). Names are asked with c-ares (`Resolver#resolve4` and `resolve6`, with TTLs):
 * - IP literals and `localhost` (with `*.localhost`, RFC 6761) need no lookup;
 * - the hosts file is read once, on first use, and its names win over DNS, as with nsswitch's usual `files dns`
 *   (an edit takes a restart; other nsswitch sources such as mDNS or LDAP are not consulted);
 * - answers are kept for their TTL (at most `maxTtlSeconds`, in at most `maxEntries` names) and failures for
 *   `negativeTtlMs`; lookups of one name in flight are shared;
 * - at most `maxInFlight` names are asked at once, and each lookup fails after `timeoutMs`.
 */
export class ReceiverResolver {
  private readonly dns: Resolver;
  private readonly answers = new Map<string, Answer>();
  private readonly inFlight = new Map<string, Promise<Answer>>();
  private readonly now: () => number;
  private hosts: Promise<Map<string, ResolvedAddress[]>> | undefined;

  constructor(private readonly options: ResolverOptions = {}) {
    // c-ares (1.34 in Node 20) bases each try's wait on the server's latency so far, up to `timeout`: about 1 s
    // for a server that has answered fast, doubled for the second try, so such a server's answer slower than
    // that fails the lookup sooner than `timeoutMs` (it is remembered briefly; a delivery asks again at its next
    // attempt). `withinTime` ends every lookup at `timeoutMs`, whatever c-ares does.
    this.dns = new Resolver({ timeout: options.timeoutMs ?? 5000, tries: 2 });
    if (options.servers?.length) this.dns.setServers([...options.servers]);
    this.now = options.now ?? (() => performance.now());
  }

  /** The addresses of a name, IPv4 first; rejects with the lookup's error (`code` ENOTFOUND, ETIMEOUT, EDNSBUSY…). */
  readonly resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    const name = hostname
      .replace(/^\[(.*)\]$/, '$1')
      .replace(/\.$/, '')
      .toLowerCase();
    const family = isIP(name);
    if (family === 4 || family === 6) return [{ address: name, family }];
    if (name === 'localhost' || name.endsWith('.localhost')) return [...LOOPBACK];
    const listed = (await this.hostsTable()).get(name);
    if (listed) return [...listed];
    const cached = this.answers.get(name);
    if (cached && cached.expiresAt > this.now()) return settle(cached);
    let pending = this.inFlight.get(name);
    if (!pending) {
      const limit = this.options.maxInFlight ?? 64;
      if (this.inFlight.size >= limit)
        throw dnsError('EDNSBUSY', `lookup of ${name} refused: ${limit} lookups already in flight`);
      pending = this.query(name).finally(() => this.inFlight.delete(name));
      this.inFlight.set(name, pending);
    }
    return settle(await this.withinTime(pending, name));
  };

  /** Names being resolved now (for tests and diagnostics). */
  get lookupsInFlight(): number {
    return this.inFlight.size;
  }

  private hostsTable(): Promise<Map<string, ResolvedAddress[]>> {
    const file = this.options.hostsFile === undefined ? '/etc/hosts' : this.options.hostsFile;
    this.hosts ??= file
      ? readFile(file, 'utf8').then(parseHostsFile, () => new Map())
      : Promise.resolve(new Map());
    return this.hosts;
  }

  private async query(name: string): Promise<Answer> {
    const results = await Promise.allSettled([
      this.dns.resolve4(name, { ttl: true }),
      this.dns.resolve6(name, { ttl: true }),
    ]);
    const addresses: (ResolvedAddress & { ttl: number })[] = [];
    const failures: { code: string; message: string }[] = [];
    results.forEach((result, index) => {
      if (result.status === 'rejected') failures.push(result.reason);
      else
        for (const { address, ttl } of result.value) addresses.push({ address, ttl, family: index ? 6 : 4 });
    });
    const now = this.now();
    const negative = this.options.negativeTtlMs ?? 2000;
    // A server that failed (timeout, SERVFAIL) is asked again soon, even when the other family answered.
    const failed = failures.find((failure) => !NO_RECORDS.has(failure.code));
    let answer: Answer;
    if (addresses.length === 0) {
      const { code, message } = failed ?? failures[0] ?? { code: 'ENOTFOUND', message: `${name} not found` };
      answer = { error: { code, message }, expiresAt: now + negative };
    } else {
      const ttl = Math.min(this.options.maxTtlSeconds ?? 300, ...addresses.map((entry) => entry.ttl));
      answer = {
        addresses: addresses.map(({ address, family }) => ({ address, family })),
        expiresAt: now + (failed ? Math.min(ttl * 1000, negative) : ttl * 1000),
      };
    }
    this.remember(name, answer, now);
    return answer;
  }

  private remember(name: string, answer: Answer, now: number): void {
    this.answers.delete(name);
    // A TTL of 0 means "do not keep".
    if (answer.expiresAt <= now) return;
    if (this.answers.size >= (this.options.maxEntries ?? 1000))
      this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(name, answer);
  }

  /** The lookup's answer, or ETIMEOUT once `timeoutMs` passed (the query goes on and is kept when it lands). */
  private withinTime(pending: Promise<Answer>, name: string): Promise<Answer> {
    const timeoutMs = this.options.timeoutMs ?? 5000;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(dnsError('ETIMEOUT', `lookup of ${name} took longer than ${timeoutMs} ms`)),
        timeoutMs,
      );
      timer.unref();
    });
    return Promise.race([pending, late]).finally(() => clearTimeout(timer));
  }
}

function settle(answer: Answer): ResolvedAddress[] {
  if (answer.error) throw dnsError(answer.error.code, answer.error.message);
  return answer.addresses!.map((entry) => ({ ...entry }));
}
