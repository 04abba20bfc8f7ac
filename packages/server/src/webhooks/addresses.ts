import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';

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

/** Classifies an IP address; IPv4 inside IPv6 (mapped, translated, NAT64) is judged as the IPv4 address it carries. */
export function classifyAddress(address: string): AddressClass {
  if (!ipaddr.isValid(address)) return 'reserved';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const range = v6.range();
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (range === 'rfc6145' || range === 'rfc6052')
      parsed = ipaddr.fromByteArray(v6.toByteArray().slice(12));
  }
  return CLASS_OF_RANGE[parsed.range()] ?? 'reserved';
}

/** Which internal ranges a server accepts as receivers. */
export interface ReceiverRules {
  /** Private, link-local and loopback ranges (`DATAPLATFORM_WEBHOOK_ALLOW_PRIVATE`). */
  allowPrivate: boolean;
  /** Loopback only (`DATAPLATFORM_WEBHOOK_ALLOW_LOOPBACK`; on by default in development mode). */
  allowLoopback: boolean;
}

type Resolve = (hostname: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

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
 */
export class ReceiverPolicy {
  constructor(
    private readonly rules: ReceiverRules,
    private readonly resolve: Resolve = systemResolve,
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
    let addresses: LookupAddress[];
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
    dnsLookup(hostname, { family: options.family ?? 0, all: true }, (error, addresses) => {
      if (error) return callback(error);
      const allowed = addresses.filter(({ address }) => this.refusal(address) === null);
      if (allowed.length === 0) {
        const reason = this.refusal(addresses[0]!.address);
        return callback(new ReceiverRefused(`receiver address refused: ${hostname} resolves to ${reason}`));
      }
      if (options.all) return callback(null, allowed);
      return callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
}
