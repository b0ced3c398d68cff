import { BlockList, isIP } from 'node:net';

// What commands may reach on the network (`command-network`, CONTRACT §2 and §6): the policy, the
// host patterns, which addresses the proxy may connect to, and what the log, the summary and a
// command's result say about it.

/** none: loopback in the command's own namespace; hosts: HTTP(S) to these through patchloop's proxy; all: unrestricted. */
export type CommandNetwork = { kind: 'none' } | { kind: 'all' } | { kind: 'hosts'; hosts: string[] };

// A host name as the proxy compares it: letters, digits, hyphens and dots, optionally led by `*.`
// for any subdomain. Ports, schemes and paths are not part of it.
const HOST_PATTERN = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** `none`, `all`, or host names (comma- or newline-separated); throws an Error that says what is wrong. */
export function parseCommandNetwork(raw: string): CommandNetwork {
  const v = raw.trim().toLowerCase();
  if (v === '' || v === 'none') return { kind: 'none' };
  if (v === 'all') return { kind: 'all' };
  const hosts = v
    .split(/[,\n]/)
    .map((s) => s.trim().replace(/\.$/, ''))
    .filter(Boolean);
  const bad = hosts.find((h) => !HOST_PATTERN.test(h));
  if (bad !== undefined)
    throw new Error(
      `command-network is none, all, or host names such as registry.npmjs.org or *.pythonhosted.org (comma- or newline-separated); "${bad}" is not a host name.`,
    );
  return { kind: 'hosts', hosts: [...new Set(hosts)] };
}

/** A destination's host as a command asked for it, lower-cased, without a trailing dot or IPv6 brackets. */
export function normalHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** Whether `host` is allowed: equal to a pattern, or a subdomain of a `*.` pattern's domain (not the domain itself). */
export function hostAllowed(patterns: readonly string[], host: string): boolean {
  const h = normalHost(host);
  return patterns.some((p) =>
    p.startsWith('*.') ? h.endsWith(p.slice(1)) && h.length > p.length - 1 : h === p,
  );
}

// Addresses that are not the public internet: this host and its neighbours, the clouds' metadata
// services (169.254.169.254, fd00:ec2::254, 100.100.100.200), private and shared networks,
// documentation and benchmark ranges, multicast and the reserved rest. A name that resolves only to
// these is refused even when the host list allows it: an allowed name must not become a way to the
// runner's own services.
// Two lists: one BlockList holding both families matches IPv4 addresses against IPv6 rules (as
// IPv4-mapped addresses), and ::ffff:0:0/96 would then take in every IPv4 address.
const [NOT_PUBLIC_V4, NOT_PUBLIC_V6] = (() => {
  const list4 = new BlockList();
  const list6 = new BlockList();
  const v4: [string, number][] = [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 3],
  ];
  const v6: [string, number][] = [
    ['::', 96],
    ['64:ff9b:1::', 48],
    ['100::', 64],
    ['2001::', 23],
    ['2001:db8::', 32],
    ['2002::', 16],
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
  ];
  for (const [net, bits] of v4) list4.addSubnet(net, bits, 'ipv4');
  for (const [net, bits] of v6) list6.addSubnet(net, bits, 'ipv6');
  return [list4, list6];
})();

/** True for a public unicast address; an IPv4 address mapped into IPv6 is judged as the IPv4 one. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !NOT_PUBLIC_V4.check(address, 'ipv4');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  // any other IPv4-mapped form (::ffff:7f00:1) is refused rather than decoded
  if (/^::ffff:/i.test(address)) return false;
  return !NOT_PUBLIC_V6.check(address, 'ipv6');
}

/** One destination the proxy refused, with how often. */
export interface RefusedHost {
  host: string;
  reason: string;
  count: number;
}

/** How many refused hosts the log and the summary list; the rest are counted. */
export const REFUSED_SHOWN = 10;

/** The policy in a few words, for the log, the summary and the model. */
export function describeNetwork(policy: CommandNetwork): string {
  if (policy.kind === 'none') return 'none (each command has its own loopback only)';
  if (policy.kind === 'all') return 'all (commands use the runner’s network)';
  return `HTTP and HTTPS to ${policy.hosts.join(', ')} only, through patchloop’s proxy`;
}

/** The refused hosts, deduplicated and capped: `a.example (3×), b.example, … and 4 more`. */
export function listRefused(refused: readonly RefusedHost[], shown = REFUSED_SHOWN): string {
  const head = refused.slice(0, shown).map((r) => (r.count > 1 ? `${r.host} (${r.count}×)` : r.host));
  if (refused.length > shown) head.push(`and ${refused.length - shown} more`);
  return head.join(', ');
}

/** One line for the summary: the policy and, when there were any, the hosts refused. */
export function networkSummaryLine(policy: CommandNetwork, refused: readonly RefusedHost[]): string {
  const base = describeNetwork(policy);
  return refused.length ? `${base}; refused: ${listRefused(refused)}` : base;
}

// What a program prints when it finds no network at all (no route, no name server).
const NO_NETWORK =
  /ENETUNREACH|EAI_AGAIN|Network is unreachable|Could not resolve host|Temporary failure in name resolution|getaddrinfo ENOTFOUND|Name or service not known/i;

/**
 * The note added to a command's result: hosts the proxy refused while it ran, or (without any)
 * output that looks like a missing network. undefined when there is nothing to say.
 */
export function networkNote(
  policy: CommandNetwork,
  refusedNow: readonly RefusedHost[],
  output: string,
): string | undefined {
  if (policy.kind === 'all') return undefined;
  // corepack, told there is no network (COREPACK_ENABLE_NETWORK=0, set with none), names what it wanted
  const corepack = /Network access disabled by the environment; can't reach (\S+)/.exec(output);
  if (corepack && policy.kind === 'none')
    return `[corepack wanted to download ${corepack[1]}: the version package.json's packageManager names is not on this machine, and command-network is none, so commands download nothing. Install that version in a step before patchloop (corepack install), or allow registry.npmjs.org in the workflow's command-network input.]`;
  if (refusedNow.length)
    return `[command-network refused ${listRefused(refusedNow, 5)} (${refusedNow[0]!.reason}). Commands may reach only ${policy.kind === 'hosts' ? policy.hosts.join(', ') : 'their own loopback'}; the workflow's command-network input sets this.]`;
  if (!NO_NETWORK.test(output)) return undefined;
  return policy.kind === 'none'
    ? '[command-network is none: commands have no network but their own loopback, so downloads and outside services fail. The workflow’s command-network input can allow hosts.]'
    : `[command-network allows only HTTP and HTTPS to ${policy.hosts.join(', ')}, through the proxy in HTTPS_PROXY / HTTP_PROXY; a program that ignores those variables finds no network.]`;
}
