import ipaddr from 'ipaddr.js';
import { ReceiverResolver, type ResolvedAddress } from './resolver.js';

/** What an IP address is, as far as receiver addresses go. */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved';

const CLASS_OF_RANGE: Readonly<Record<string, AddressClass>> = {
  unicast: 'public',
  loopback: 'loopback',
  // 0.0.0.0 and :: reach the local host.
  unspecified: 'loopback',
  private: 'private',
  uniqueLocal: 'private',
  carrierGradeNat: 'private',
  deprecatedSiteLocal: 'private',
  linkLocal: 'link-local',
};

/** Global unicast IPv6 (RFC 4291, IANA): every public IPv6 receiver is inside it. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** The well-known NAT64 prefix (RFC 6052), whose IPv4 address is always the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/**
 * Parses an IPv6 address, or null. A dotted IPv4 tail is written as hex first: ipaddr.js reads `::a.b.c.d`
 * (IPv4-compatible, the form inet_ntop gives DNS answers in ::/96) as `::ffff:a.b.c.d` (IPv4-mapped).
 */
function parseIPv6(address: string): ipaddr.IPv6 | null {
  const tail = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  let text = address;
  if (tail) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(tail[2]!)) return null;
    const [a, b, c, d] = ipaddr.IPv4.parse(tail[2]!).octets as [number, number, number, number];
    text = `${tail[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  return ipaddr.IPv6.isValid(text) ? ipaddr.IPv6.parse(text) : null;
}

/**
 * Classifies an IP address. IPv4 inside IPv6 at a fixed place (mapped `::ffff:a.b.c.d`, translated
 * `::ffff:0:a.b.c.d`, well-known NAT64 `64:ff9b::a.b.c.d`) is judged as the IPv4 address it carries. Every other
 * IPv6 address outside 2000::/3 that is not loopback, unspecified, private or link-local is reserved: that takes
 * in IPv4-compatible `::a.b.c.d` (deprecated by RFC 4291, and routed to the IPv4 host by some stacks), NAT64
 * local-use prefixes (64:ff9b:1::/48, where the IPv4 address sits wherever the network's prefix length puts it)
 * and unassigned space. 6to4 (2002::/16) and Teredo (2001::/32) reach an IPv4 host through a relay: reserved
 * too, whatever IPv4 address they carry.
 */
export function classifyAddress(address: string): AddressClass {
  if (ipaddr.IPv4.isValid(address)) return CLASS_OF_RANGE[ipaddr.IPv4.parse(address).range()] ?? 'reserved';
  const v6 = parseIPv6(address);
  if (!v6) return 'reserved';
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || v6.match(NAT64_WELL_KNOWN))
    return classifyAddress(ipaddr.fromByteArray(v6.toByteArray().slice(12)).toString());
  const kind = CLASS_OF_RANGE[range] ?? 'reserved';
  return kind === 'public' && !v6.match(GLOBAL_UNICAST) ? 'reserved' : kind;
}

/** Which internal ranges a server accepts as receivers. */
export interface ReceiverRules {
  /** Private, link-local and loopback ranges (`DATAPLATFORM_WEBHOOK_ALLOW_PRIVATE`). */
  allowPrivate: boolean;
  /** Loopback only (`DATAPLATFORM_WEBHOOK_ALLOW_LOOPBACK`; on by default in development mode). */
  allowLoopback: boolean;
}

/** Resolves a host name (see ReceiverResolver); rejects when it does not resolve now. */
export type Resolve = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The host of a URL as an IP literal (IPv6 without brackets), or null for a name. */
function literalHost(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(host) ? host : null;
}

/** A refused receiver address, with the reason the caller or the attempt record is told. */
export class ReceiverRefused extends Error {
  readonly code = 'ERECEIVERREFUSED';
}

/**
 * The receiver address rules: only http(s); addresses in private, loopback and link-local ranges only when the
 * server allows them; reserved ranges never. Checked when a subscription is made and again at each delivery,
 * where `lookup` vets the addresses a name resolves to at connection time, so DNS cannot change it in between.
 * Both resolve names with the same `resolve` (by default a ReceiverResolver: c-ares, cached, bounded, timed out).
 */
export class ReceiverPolicy {
  constructor(
    private readonly rules: ReceiverRules,
    private readonly resolve: Resolve = new ReceiverResolver().resolve,
  ) {}

  /** Why an address may not receive deliveries, or null when it may. */
  refusal(address: string): string | null {
    const kind = classifyAddress(address);
    if (kind === 'public') return null;
    if (kind === 'loopback' && (this.rules.allowLoopback || this.rules.allowPrivate)) return null;
    if ((kind === 'private' || kind === 'link-local') && this.rules.allowPrivate) return null;
    const setting =
      kind === 'loopback'
        ? ' (allowed with DATAPLATFORM_WEBHOOK_ALLOW_LOOPBACK or DATAPLATFORM_WEBHOOK_ALLOW_PRIVATE)'
        : kind === 'reserved'
          ? ''
          : ' (allowed with DATAPLATFORM_WEBHOOK_ALLOW_PRIVATE)';
    return `${address} is a ${kind} address${setting}`;
  }

  /**
   * Why a receiver URL is refused, or null. Every address its name resolves to must be allowed; a name that
   * does not resolve now is accepted (it is checked again at each delivery).
   */
  async check(url: string): Promise<string | null> {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'only http and https addresses';
    const literal = literalHost(parsed);
    if (literal) return this.refusal(literal);
    let addresses: readonly ResolvedAddress[];
    try {
      addresses = await this.resolve(parsed.hostname);
    } catch {
      return null;
    }
    for (const { address } of addresses) {
      const reason = this.refusal(address);
      if (reason) return `${parsed.hostname} resolves to ${reason}`;
    }
    return null;
  }

  /** Throws ReceiverRefused when the URL names a refused IP address itself (a connection does no lookup then). */
  checkLiteral(url: URL): void {
    const literal = literalHost(url);
    const reason = literal && this.refusal(literal);
    if (reason) throw new ReceiverRefused(`receiver address refused: ${reason}`);
  }

  /** A `lookup` for net.connect that hands on only allowed addresses, and fails when none is left. */
  readonly lookup = (
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (...args: unknown[]) => void,
  ): void => {
    this.resolve(hostname).then(
      (resolved) => {
        const { family } = options;
        const addresses =
          family === 4 || family === 6 ? resolved.filter((a) => a.family === family) : resolved;
        if (addresses.length === 0) {
          const error = new Error(`no IPv${family} address for ${hostname}`);
          return callback(Object.assign(error, { code: 'ENOTFOUND' }));
        }
        const allowed = addresses.filter(({ address }) => this.refusal(address) === null);
        if (allowed.length === 0) {
          const reason = this.refusal(addresses[0]!.address);
          return callback(new ReceiverRefused(`receiver address refused: ${hostname} resolves to ${reason}`));
        }
        if (options.all) return callback(null, allowed);
        return callback(null, allowed[0]!.address, allowed[0]!.family);
      },
      (error) => callback(error),
    );
  };
}
