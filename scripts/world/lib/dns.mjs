// Zones, DNSSEC keys and server configs for Knot (authoritative) and Unbound (recursive).
// Keys live in Knot's KASP database under data/world/dns/keys and are generated once with keymgr,
// so the root's trust anchor and every DS stay stable across `up` runs.
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { createHash, randomBytes } from "node:crypto"
import { BASE_TLDS, DNSBLS, INFRA } from "./model.mjs"
import { ORIGIN_ZONES, originRecords } from "./rpki.mjs"
import { fqdn, mkdirp, reverseName, run, txtStrings, write } from "./util.mjs"

export const SERIAL = 2026010100
/** The reverse zone of ::1 alone (RFC 3596 2.5), delegated straight from the root. */
const V6_LOOPBACK_REVERSE = `1.${"0.".repeat(31)}ip6.arpa`
const LAG_SERIAL = 2025120100
const NS_SET = ["ns1.dns-host.net.", "ns2.dns-host.net."]
/**
 * The name-server hosts a scenario's `ns` may list (docs/world.md): ns1 has IPv4 and IPv6, ns2 and
 * ns4 IPv4 only, each in a /24 of its own; lame.dns-host.net is the lagging Knot, which does not
 * serve the scenario zones (it answers REFUSED: a lame delegation, RFC 1912 2.8).
 */
const NS_HOSTS = {
  "ns1.dns-host.net.": ["A 127.53.0.1", "AAAA ::1"],
  "ns2.dns-host.net.": ["A 127.53.3.2"],
  "ns4.dns-host.net.": ["A 127.53.4.4"],
  "lame.dns-host.net.": ["A 127.53.0.9"]
}
/** A scenario's NS set: its `ns` (host names, absolute) or the default pair. */
export const nsSetOf = (s) => (s.ns ?? NS_SET).map((n) => fqdn(n))
const TLD_NS = ["a.gtld-servers.net.", "b.gtld-servers.net."]

/**
 * Knot signing policies by scenario `dnssec` value (docs/world.md). Signatures are refreshed while
 * they have more left than the SOA expire (1000 hours, `soa` below), so a secondary that lost its
 * primary never serves expired signatures (what the DNSSEC check warns of); `short-sigs` keeps
 * signatures 20 days at most, less than its SOA expire, and never fewer than 12.
 */
const LIFETIME = { lifetime: "90d", refresh: "50d" }
export const POLICIES = {
  ecdsa: { algorithm: "ecdsap256sha256", nsec3: { iterations: 0, salt: 0 } },
  "bogus-ds": { algorithm: "ecdsap256sha256", nsec3: { iterations: 0, salt: 0 } },
  "nsec3-legacy": { algorithm: "ecdsap256sha256", nsec3: { iterations: 10, salt: 8 } },
  rsasha1: { algorithm: "rsasha1", ksk: 2048, zsk: 1024 },
  nsec: { algorithm: "ecdsap256sha256" },
  "sha1-ds": { algorithm: "rsasha256", ksk: 2048, zsk: 2048 },
  "short-sigs": { algorithm: "ecdsap256sha256", lifetime: "20d", refresh: "12d" }
}

const soa = (origin, serial) =>
  `$ORIGIN ${fqdn(origin)}\n$TTL 300\n@ SOA ${NS_SET[0]} hostmaster.${origin === "." ? "" : fqdn(origin)} ${serial} 86400 7200 3600000 3600\n`

const substitute = (line, s) =>
  line
    .replace(/\{mx(\d+)\}/g, (_, i) => s.mx[Number(i)]?.addr ?? "0.0.0.0")
    .replace(/\{web\}/g, s.web?.addr ?? "0.0.0.0")
    .replace(/\{domain\}/g, s.domain)

/** The zone file body for one scenario (auto records first, then the scenario's own lines). */
export const scenarioZone = (s, extra, serial, records) => {
  const lines = [soa(s.domain, serial)]
  for (const ns of nsSetOf(s)) lines.push(`@ NS ${ns}`)
  if (s.web) {
    for (const name of s.web.names ?? ["@"]) {
      lines.push(`${name} A ${s.web.addr}`)
      if (s.aaaa && name === "@") lines.push(`${name} AAAA ${s.aaaa}`)
    }
  }
  if (s.nullMx) lines.push("@ MX 0 .")
  for (const m of s.mx) {
    // An implicit MX is no record at all: mail goes to the domain's own address (RFC 5321 5.1).
    if (!m.implicit) lines.push(`@ MX ${m.pref} ${fqdn(m.host)}`)
    const inZone = m.host === s.domain || m.host.endsWith(`.${s.domain}`)
    if (inZone) lines.push(`${fqdn(m.host)} A ${m.addr}`)
    if (m.aaaa && inZone) lines.push(`${fqdn(m.host)} AAAA ${m.aaaa}`)
    if (m.tlsa === "match") lines.push(`_25._tcp.${fqdn(m.host)} TLSA 3 1 1 ${extra.spki[m.host]}`)
    if (m.tlsa === "mismatch") lines.push(`_25._tcp.${fqdn(m.host)} TLSA 3 1 1 ${"ab".repeat(32)}`)
  }
  for (const d of s.dkim ?? [])
    lines.push(`${d.selector}._domainkey TXT ${txtStrings(s._dkim?.[d.selector] ?? "v=DKIM1; p=")}`)
  for (const r of records) lines.push(substitute(r, s))
  return lines.join("\n") + "\n"
}

const keymgr = (conf, zone, ...args) => run("keymgr", ["-c", conf, zone, ...args])

/**
 * Generate KSK+ZSK once for a zone; return its SHA-256 DS records (RFC 4509). The DS lines are
 * cached beside the KASP database (deleted with it), which saves two keymgr runs per zone per boot.
 */
const dsCache = new Map()
export const ensureKeys = (conf, zone, policy) => {
  const cacheFile = join(conf, "..", "keys", "ds-cache.json")
  if (dsCache.size === 0 && existsSync(cacheFile))
    for (const [k, v] of Object.entries(JSON.parse(readFileSync(cacheFile, "utf8")))) dsCache.set(k, v)
  const key = `${zone} ${policy.algorithm}`
  const cached = dsCache.get(key)
  if (cached) return cached
  // Keys of another algorithm (the scenario's dnssec type changed) are deleted and replaced.
  const lines = keymgr(conf, zone, "list").trim().split("\n").filter(Boolean)
  const wanted = policy.algorithm.toUpperCase()
  const stale = lines.filter((l) => (l.split(/\s+/)[3] ?? "").split("/")[0] !== wanted)
  for (const l of stale) keymgr(conf, zone, "delete", l.split(/\s+/)[0] ?? "")
  if (stale.length > 0) for (const k of [...dsCache.keys()]) if (k.startsWith(`${zone} `)) dsCache.delete(k)
  if (lines.length === stale.length) {
    keymgr(conf, zone, "generate", `algorithm=${policy.algorithm}`, "ksk=yes", `size=${policy.ksk ?? 256}`)
    keymgr(conf, zone, "generate", `algorithm=${policy.algorithm}`, "ksk=no", `size=${policy.zsk ?? 256}`)
  }
  const ds = keymgr(conf, zone, "ds")
    .split("\n")
    .filter((l) => / DS \d+ \d+ 2 /.test(l))
  dsCache.set(key, ds)
  write(cacheFile, JSON.stringify(Object.fromEntries(dsCache), null, 1) + "\n")
  return ds
}

/** Pre-sign expired-sig style zones with ldns, validity in the past (2024-01). Returns DS lines. */
export const presignExpired = (dir, zone, text) => {
  const kdir = join(dir, "ldns", zone)
  mkdirp(kdir)
  const keys = readdirSync(kdir).filter((f) => f.endsWith(".key"))
  if (keys.length < 2) {
    run("ldns-keygen", ["-a", "ECDSAP256SHA256", "-k", zone], { cwd: kdir })
    run("ldns-keygen", ["-a", "ECDSAP256SHA256", zone], { cwd: kdir })
  }
  const all = readdirSync(kdir).filter((f) => f.endsWith(".key"))
  const isKsk = (f) => /\s257\s+3\s/.test(readFileSync(join(kdir, f), "utf8"))
  const ksk = all.find(isKsk)
  const zsk = all.find((f) => !isKsk(f))
  const unsigned = join(dir, "zones", `${zone}.unsigned`)
  write(unsigned, text)
  run("ldns-signzone", [
    "-i", "20240101000000", "-e", "20240201000000", "-f", join(dir, "zones", `${zone}.zone`), unsigned,
    join(kdir, zsk.replace(/\.key$/, "")), join(kdir, ksk.replace(/\.key$/, ""))
  ]) // prettier-ignore
  return [run("ldns-key2ds", ["-n", "-2", join(kdir, ksk)]).trim()]
}

/** The canonical wire form of a name (RFC 4034 6.2): lower case, length-prefixed labels. */
const nameWire = (name) =>
  Buffer.concat([
    ...fqdn(name)
      .toLowerCase()
      .split(".")
      .filter(Boolean)
      .map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])),
    Buffer.from([0])
  ])

/**
 * The SHA-1 DS (digest type 1, RFC 4034 5.1.4) of the KSK a SHA-256 DS line names: keymgr prints
 * only SHA-256 and SHA-384 DS records, so the digest is computed over the key keymgr prints.
 */
const sha1Ds = (conf, zone, line) => {
  const [owner, , tag, alg] = line.trim().split(/\s+/)
  const dnskey = keymgr(conf, zone, "dnskey", String(Number(tag)))
    .trim()
    .split(/\s+/)
  const at = dnskey.indexOf("DNSKEY")
  const [flags, protocol, algorithm] = dnskey.slice(at + 1, at + 4).map(Number)
  const rdata = Buffer.concat([
    Buffer.from([flags >> 8, flags & 0xff, protocol, algorithm]),
    Buffer.from(dnskey.slice(at + 4).join(""), "base64")
  ])
  const digest = createHash("sha1")
    .update(Buffer.concat([nameWire(zone), rdata]))
    .digest("hex")
  return `${owner} DS ${tag} ${alg} 1 ${digest}`
}

/**
 * The DS records the parent publishes: bogus-ds keeps the key tag with a digest that matches no key;
 * sha1-ds publishes the SHA-1 digest of the key alone (RFC 9904 Table 3: MUST NOT for delegation).
 */
export const publishedDs = (dnssec, ds, conf, zone) =>
  dnssec === "bogus-ds"
    ? ds.map((l) => l.replace(/[0-9a-f]{64}$/i, randomBytes(32).toString("hex")))
    : dnssec === "sha1-ds"
      ? ds.map((l) => sha1Ds(conf, zone, l))
      : ds

export const knotConf = (dir, zones, listen, policies) => {
  const out = [
    "server:",
    `  rundir: ${dir}`,
    `  pidfile: ${dir}/knot.pid`,
    ...listen.map((a) => `  listen: ${a}@53`),
    "log:",
    `  - target: ${dir}/knot.log`,
    "    any: notice",
    "database:",
    `  storage: ${dir}/db`,
    `  kasp-db: ${dir}/keys`,
    "template:",
    "  - id: default",
    `    storage: ${dir}/zones`,
    "    zonefile-sync: -1",
    "    zonefile-load: whole",
    "    journal-content: none",
    "    semantic-checks: off"
  ]
  if (policies) {
    out.push("policy:")
    for (const [id, p] of Object.entries(POLICIES)) {
      const { lifetime, refresh } = { ...LIFETIME, ...p }
      out.push(
        `  - id: ${id}`,
        `    algorithm: ${p.algorithm}`,
        "    manual: on",
        `    rrsig-lifetime: ${lifetime}`
      )
      out.push(`    rrsig-refresh: ${refresh}`)
      if (p.ksk) out.push(`    ksk-size: ${p.ksk}`, `    zsk-size: ${p.zsk}`)
      if (p.nsec3) {
        out.push("    nsec3: on", `    nsec3-iterations: ${p.nsec3.iterations}`)
        out.push(`    nsec3-salt-length: ${p.nsec3.salt}`, "    nsec3-salt-lifetime: 0")
      }
    }
  }
  out.push("zone:")
  for (const z of zones) out.push(...knotZoneEntry(z))
  return out.join("\n") + "\n"
}

/** A zone's entry in knot.conf: its file and, when signed, its policy. */
export const knotZoneEntry = (z) => [
  `  - domain: "${z.name}"`,
  `    file: "${z.file}"`,
  ...(z.policy ? ["    dnssec-signing: on", `    dnssec-policy: ${z.policy}`] : [])
]

/** The PTR record of an MX host's address, by its `ptr` (match, none or a host name). */
export const ptrLines = (m) => {
  const ptr = m.ptr ?? "match"
  return ptr === "none" ? [] : [`${reverseName(m.addr)} PTR ${fqdn(ptr === "match" ? m.host : ptr)}`]
}

/** A listing of `ip` in DNSBL zone `bl` (RFC 5782): its return codes and the list's TXT reason. */
export const dnsblLines = (bl, ip) => {
  const name = ip.split(".").reverse().join(".")
  return [...DNSBL_CODES[bl].map((code) => `${name} A ${code}`), `${name} TXT "${DNSBL_WHY[bl](ip)}"`]
}
const DNSBL_CODES = {
  "zen.spamhaus.org": ["127.0.0.2", "127.0.0.4"],
  "bl.spamcop.net": ["127.0.0.2"],
  "b.barracudacentral.org": ["127.0.0.2"]
}
const DNSBL_WHY = {
  "zen.spamhaus.org": (ip) => `https://www.spamhaus.org/query/ip/${ip}`,
  "bl.spamcop.net": (ip) => `Blocked - see https://www.spamcop.net/bl.shtml?${ip}`,
  "b.barracudacentral.org": (ip) => `http://www.barracudanetworks.com/reputation/?pr=1&ip=${ip}`
}

export const zoneFile = (name) => (name === "." ? "root.zone" : `${name.replace(/\.$/, "")}.zone`)

/**
 * Write all zones and the Knot configs; returns { rootDs, zones } for the Unbound configs.
 * `extra` carries TLSA digests and DKIM records computed from certificates and keys.
 */
export const generateDns = (root, scenarios, extra) => {
  const dir = join(root, "dns")
  mkdirp(join(dir, "zones"))
  mkdirp(join(dir, "keys"))
  mkdirp(join(dir, "db"))
  const tlds = [...new Set([...BASE_TLDS, ...scenarios.map((s) => s.tld)])]
  const signed = scenarios.filter((s) => s.dnssec && s.dnssec !== "expired")
  const zones = [
    { name: ".", policy: "nsec" },
    ...tlds.map((t) => ({ name: t, policy: "ecdsa" })),
    ...scenarios.map((s) => ({
      name: s.domain,
      policy: signed.includes(s) ? s.dnssec : undefined,
      presigned: s.dnssec === "expired"
    })),
    { name: "127.in-addr.arpa" },
    { name: V6_LOOPBACK_REVERSE },
    ...DNSBLS.map((name) => ({ name })),
    ...Object.values(ORIGIN_ZONES).map((name) => ({ name }))
  ].map((z) => ({ ...z, file: zoneFile(z.name) }))
  const conf = join(dir, "knot.conf")
  write(conf, knotConf(dir, zones, [...INFRA.knot, "::1"], true))

  // Leaves first: their DS records go into the TLD zones, whose DS go into the root.
  const dsByParent = new Map()
  const addDs = (parent, lines) => dsByParent.set(parent, [...(dsByParent.get(parent) ?? []), ...lines])
  for (const s of scenarios) {
    const text = scenarioZone(s, extra, SERIAL, s.records ?? [])
    if (s.dnssec === "expired") {
      addDs(s.tld, presignExpired(dir, s.domain, text))
      continue
    }
    write(join(dir, "zones", zoneFile(s.domain)), text)
    if (!signed.includes(s)) continue
    const ds = ensureKeys(conf, s.domain, POLICIES[s.dnssec] ?? POLICIES.ecdsa)
    addDs(s.tld, publishedDs(s.dnssec, ds, conf, s.domain))
  }

  for (const tld of tlds) {
    const lines = [soa(tld, SERIAL), ...TLD_NS.map((n) => `@ NS ${n}`)]
    if (tld === "net") {
      lines.push("a.gtld-servers.net. A 127.53.0.1", "b.gtld-servers.net. A 127.53.0.2")
      lines.push("a.root-servers.net. A 127.53.0.1")
      for (const [host, rrs] of Object.entries(NS_HOSTS)) for (const rr of rrs) lines.push(`${host} ${rr}`)
    }
    for (const s of scenarios.filter((x) => x.tld === tld))
      for (const ns of nsSetOf(s)) lines.push(`${s.domain}. NS ${ns}`)
    for (const bl of [...DNSBLS, ...Object.values(ORIGIN_ZONES)].filter((b) => b.endsWith(`.${tld}`)))
      for (const ns of NS_SET) lines.push(`${bl}. NS ${ns}`)
    lines.push(...(dsByParent.get(tld) ?? []))
    write(join(dir, "zones", zoneFile(tld)), lines.join("\n") + "\n")
    addDs(".", ensureKeys(conf, tld, POLICIES.ecdsa))
  }

  // Root: delegations of every TLD (signed) and of 127.in-addr.arpa (unsigned).
  const rootLines = [soa(".", SERIAL), "@ NS a.root-servers.net."]
  rootLines.push("a.root-servers.net. A 127.53.0.1")
  rootLines.push("a.gtld-servers.net. A 127.53.0.1", "b.gtld-servers.net. A 127.53.0.2")
  for (const tld of tlds) for (const ns of TLD_NS) rootLines.push(`${tld}. NS ${ns}`)
  for (const ns of NS_SET) rootLines.push(`127.in-addr.arpa. NS ${ns}`, `${V6_LOOPBACK_REVERSE}. NS ${ns}`)
  rootLines.push(...(dsByParent.get(".") ?? []))
  write(join(dir, "zones", "root.zone"), rootLines.join("\n") + "\n")
  const rootDs = ensureKeys(conf, ".", POLICIES.nsec)

  // Reverse zone: PTR for MX hosts (per scenario `ptr`), infrastructure and web hosts.
  const rev = [soa("127.in-addr.arpa", SERIAL), ...NS_SET.map((n) => `@ NS ${n}`)]
  rev.push(
    `${reverseName("127.53.0.1")} PTR ns1.dns-host.net.`,
    `${reverseName("127.53.0.2")} PTR b.gtld-servers.net.`,
    `${reverseName("127.53.3.2")} PTR ns2.dns-host.net.`,
    `${reverseName("127.53.4.4")} PTR ns4.dns-host.net.`
  )
  for (const s of scenarios) {
    for (const m of s.mx) if (!m.shared) rev.push(...ptrLines(m))
  }
  write(join(dir, "zones", zoneFile("127.in-addr.arpa")), rev.join("\n") + "\n")
  const rev6 = [soa(V6_LOOPBACK_REVERSE, SERIAL), ...NS_SET.map((n) => `@ NS ${n}`)]
  const v6mx = scenarios.flatMap((s) => s.mx).find((m) => m.aaaa === "::1" && (m.ptr ?? "match") === "match")
  if (v6mx) rev6.push(`@ PTR ${fqdn(v6mx.host)}`)
  write(join(dir, "zones", zoneFile(V6_LOOPBACK_REVERSE)), rev6.join("\n") + "\n")

  // DNSBLs (RFC 5782): the test entry 127.0.0.2 plus every listed MX address, with real return codes.
  const listed = scenarios.flatMap((s) => s.mx.filter((m) => m.listed).map((m) => m.addr))
  for (const bl of DNSBLS) {
    const lines = [soa(bl, SERIAL), ...NS_SET.map((n) => `@ NS ${n}`)]
    for (const ip of ["127.0.0.2", ...listed]) lines.push(...dnsblLines(bl, ip))
    write(join(dir, "zones", zoneFile(bl)), lines.join("\n") + "\n")
  }

  // Origin zones (the route of each address, for RPKI validation): scripts/world/lib/rpki.mjs.
  for (const [zone, records] of Object.entries(originRecords(scenarios))) {
    const lines = [soa(zone, SERIAL), ...NS_SET.map((n) => `@ NS ${n}`), ...records]
    write(join(dir, "zones", zoneFile(zone)), lines.join("\n") + "\n")
  }

  // The lagging authoritative server: older versions of zones that declare `lagging` records.
  const lagDir = join(root, "dns-lag")
  mkdirp(join(lagDir, "zones"))
  const lagZones = scenarios
    .filter((s) => s.lagging)
    .map((s) => ({ name: s.domain, file: zoneFile(s.domain) }))
  for (const s of scenarios.filter((x) => x.lagging)) {
    write(join(lagDir, "zones", zoneFile(s.domain)), scenarioZone(s, extra, LAG_SERIAL, s.lagging))
  }
  write(join(lagDir, "knot.conf"), knotConf(lagDir, lagZones, [INFRA.knotLag], false))
  return {
    rootDs,
    lagZones: lagZones.map((z) => z.name),
    zones: zones.map((z) => ({ name: z.name, signed: Boolean(z.policy) || z.presigned === true }))
  }
}

export const unboundConf = (dir, addrs, rootDs, stubs) => {
  const out = [
    "server:",
    ...addrs.map((a) => `  interface: ${a}`),
    "  port: 53",
    "  do-daemonize: yes",
    '  username: ""',
    '  chroot: ""',
    `  directory: "${dir}"`,
    `  pidfile: "${dir}/unbound.pid"`,
    `  logfile: "${dir}/unbound.log"`,
    "  use-syslog: no",
    "  verbosity: 1",
    "  val-log-level: 2",
    "  num-threads: 1",
    "  so-reuseport: no",
    "  do-ip6: no",
    "  do-not-query-localhost: no",
    "  access-control: 127.0.0.0/8 allow",
    "  access-control: ::1/128 allow",
    '  module-config: "validator iterator"',
    `  root-hints: "${dir}/root.hints"`,
    ...rootDs.map((ds) => `  trust-anchor: "${ds}"`),
    '  local-zone: "127.in-addr.arpa." nodefault',
    '  local-zone: "localhost." nodefault',
    `  local-zone: "${V6_LOOPBACK_REVERSE}." nodefault`,
    "  cache-max-ttl: 300",
    "  cache-max-negative-ttl: 30",
    "  val-bogus-ttl: 5",
    "  serve-expired: no",
    "  harden-below-nxdomain: yes",
    // unbound-control over a socket of the world's own (no TCP port): scripts/world/mutate flushes
    // a changed domain's names from the cache.
    "remote-control:",
    "  control-enable: yes",
    `  control-interface: "${dir}/unbound.ctl"`
  ]
  for (const s of stubs) out.push("stub-zone:", `  name: "${s.name}"`, `  stub-addr: ${s.addr}`)
  return out.join("\n") + "\n"
}

/** Three Unbound instances: the validating one, the propagation set, the lagging one. */
export const generateResolvers = (root, rootDs, lagZones) => {
  const hints = ". 3600000 NS a.root-servers.net.\na.root-servers.net. 3600000 A 127.53.0.1\n"
  const instances = {
    unbound: { addrs: [INFRA.unbound], stubs: [] },
    "unbound-propagation": { addrs: INFRA.propagation.map((p) => p.addr), stubs: [] },
    "unbound-lag": {
      addrs: [INFRA.lagging.addr],
      stubs: lagZones.map((name) => ({ name, addr: INFRA.knotLag }))
    }
  }
  for (const [name, inst] of Object.entries(instances)) {
    const dir = join(root, name)
    mkdirp(dir)
    write(join(dir, "root.hints"), hints)
    write(join(dir, "unbound.conf"), unboundConf(dir, inst.addrs, rootDs, inst.stubs))
  }
  write(join(root, "root-anchor.ds"), rootDs.join("\n") + "\n")
  return Object.keys(instances)
}

export const hasKnotKeys = (root) => existsSync(join(root, "dns", "keys", "data.mdb"))
