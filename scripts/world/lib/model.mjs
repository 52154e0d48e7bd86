// Scenario loading, synthetic domains and the address plan.
import { readFileSync } from "node:fs"
import { domainToASCII } from "node:url"

/** Fixed infrastructure addresses (docs/world.md, "Address plan"). */
export const INFRA = {
  // .1 and .2 serve the root and the TLDs; ns2.dns-host.net and ns4.dns-host.net answer in /24s of
  // their own (127.53.3.2, 127.53.4.4), so a domain's name servers span networks (RFC 2182 3.1)
  knot: ["127.53.0.1", "127.53.0.2", "127.53.3.2", "127.53.4.4"],
  knotLag: "127.53.0.9",
  unbound: "127.53.1.1",
  propagation: [
    { addr: "127.53.2.1", name: "World Resolver Frankfurt", location: "Frankfurt", country: "DE" },
    { addr: "127.53.2.2", name: "World Resolver Amsterdam", location: "Amsterdam", country: "NL" },
    { addr: "127.53.2.3", name: "World Resolver New York", location: "New York", country: "US" },
    { addr: "127.53.2.4", name: "World Resolver Singapore", location: "Singapore", country: "SG" }
  ],
  lagging: { addr: "127.53.2.9", name: "World Resolver Sydney (lagging)", location: "Sydney", country: "AU" },
  /** The world's mailbox: a Postfix listener that takes mail for any address at `domain` into files. */
  mailbox: { relay: "127.25.255.1", host: "relay.mailbox.test", domain: "mailbox.test" },
  /**
   * The registry's RDAP server (rdap.world-registry.net, port 443) and a hosting service that
   * answers every name "no such site" (names under github.io point at it): scripts/world/rdap.mjs.
   */
  registry: {
    rdap: "127.43.0.1",
    host: "rdap.world-registry.net",
    domain: "world-registry.net",
    hosting: "127.43.0.2"
  }
}

/** Domains registered in the world that are no scenario (the infrastructure's own). */
export const INFRA_DOMAINS = ["dns-host.net", "gtld-servers.net", "root-servers.net"]

export const BASE_TLDS = ["com", "net", "org", "nl", "de", "io"]

export const DNSBLS = ["zen.spamhaus.org", "bl.spamcop.net", "b.barracudacentral.org"]

/** Read one scenario file: { "scenarios": [ ... ] } (docs/world.md); customers are expanded. */
export const loadScenarioFile = (path) => {
  const parsed = JSON.parse(readFileSync(path, "utf8"))
  const list = Array.isArray(parsed) ? parsed : parsed.scenarios
  if (!Array.isArray(list)) throw new Error(`${path}: expected { "scenarios": [...] }`)
  for (const s of list) {
    if (typeof s.domain !== "string") throw new Error(`${path}: scenario without domain`)
    for (const m of s.mx ?? []) {
      const problem = mxProblem(s.domain, m)
      if (problem) throw new Error(`${path}: ${problem}`)
    }
  }
  return list.flatMap(withCustomers)
}

/**
 * A provider scenario with `customers: N`, and its N customers: domains
 * `<provider label>-customer-01.com` ... whose only mail server is the provider's first MX host, as
 * most domains on the internet share a few mail providers. The provider comes out without the
 * field, so a built scenarios.json read again is not expanded twice.
 */
const withCustomers = (s) => {
  if (s.customers === undefined) return [s]
  const { customers, ...provider } = s
  const mx = provider.mx?.[0]
  if (!Number.isInteger(customers) || customers < 1 || !mx)
    throw new Error(`${s.domain}: customers needs an MX`)
  const host = mx.host === "@" ? s.domain : mx.host.endsWith(".") ? mx.host : `${mx.host}.${s.domain}.`
  const label = s.domain.split(".")[0]
  return [
    provider,
    ...Array.from({ length: customers }, (_, i) => ({
      domain: `${label}-customer-${String(i + 1).padStart(2, "0")}.com`,
      about: `a customer of ${s.domain}'s mail service: its MX is ${host.replace(/\.$/, "")}`,
      customerOf: s.domain,
      records: [
        `@ MX 10 ${host.endsWith(".") ? host : `${host}.`}`,
        `@ TXT "v=spf1 include:${s.domain} -all"`
      ]
    }))
  ]
}

/** MX servers that are node processes (slow.mjs), not Postfix. */
export const NODE_MX_SERVERS = new Set(["slow", "counting", "counting-silent"])

/**
 * The world server (lib.sh's component) that serves an MX host: `slow` (slow.mjs) for the node
 * servers above, `esmtp` (esmtp.mjs) for one with `requiretls` (Postfix 3.7 cannot advertise
 * REQUIRETLS, RFC 8689), `pq` (pq.mjs, under Node.js 24) for `server: "pq"` (the hybrid
 * post-quantum key exchange, which the world's OpenSSL 3.0 lacks), `postfix` for every other. Only Postfix hosts get a Postfix listener.
 */
export const mxComponent = (m) =>
  NODE_MX_SERVERS.has(m.server)
    ? "slow"
    : m.server === "pq"
      ? "pq"
      : m.requiretls === true
        ? "esmtp"
        : "postfix"

/** Why an MX entry of scenario `domain` cannot be built, or undefined. */
export const mxProblem = (domain, m) => {
  if (m.requiretls === undefined || m.requiretls === false) return undefined
  if (m.requiretls !== true) return `${domain}: mx ${m.host}: requiretls is true or absent`
  if (m.server !== undefined)
    return `${domain}: mx ${m.host}: requiretls is served by esmtp.mjs, not ${m.server}`
  // esmtp.mjs serves the world's current TLS only; the older policies are Postfix settings.
  if (m.tlsPolicy !== undefined) return `${domain}: mx ${m.host}: requiretls takes no tlsPolicy`
  if (m.shared) return `${domain}: mx ${m.host}: a shared host is its own scenario's, requiretls too`
  return undefined
}

/** Templates that synthetic domains copy, cycling through mixes of good and broken setups. */
const SYNTHETIC_TEMPLATES = [
  "perfect.com",
  "unsigned.net",
  "spf-softfail.com",
  "dmarc-none.com",
  "mx-selfsigned.com",
  "mx-nostarttls.com",
  "web-noheaders.com",
  "dkim-weak.com",
  "spf-toomany.com",
  "csp-reportonly.com",
  "nsec3-legacy.org",
  "mtasts-testing.com"
]

const replaceDomain = (value, from, to) =>
  typeof value === "string"
    ? value.split(from).join(to)
    : Array.isArray(value)
      ? value.map((v) => replaceDomain(v, from, to))
      : value !== null && typeof value === "object"
        ? Object.fromEntries(
            Object.entries(value).map(([k, v]) => [replaceDomain(k, from, to), replaceDomain(v, from, to)])
          )
        : value

/**
 * The mail providers of `synthetic(n, scenarios, { providers })`: provider-K.net, each with two MX
 * hosts (mx1, mx2) that every domain hosted there names as its MX: one address set shared by many
 * domains, as at a large mail provider on the internet.
 */
export const mailProviders = (count) =>
  Array.from({ length: count }, (_, k) => ({
    domain: `provider-${k + 1}.net`,
    about: `mail provider ${k + 1} of the internet-like bench: two MX hosts that many synthetic domains name`,
    mx: [
      { host: "mx1", tls: "valid", ptr: "match" },
      { host: "mx2", tls: "valid", ptr: "match" }
    ],
    records: ['@ TXT "v=spf1 mx -all"']
  }))

/**
 * N generated domains synth-00001.<tld> ... mixing the templates above. With `providers` P > 0 (the
 * internet-like bench, docs/bench.md): of every 20 domains, one has a silent MX (it accepts and never
 * sends a banner), 16 (80%) name the two MX hosts of one of P shared mail providers
 * (`mailProviders`), and 3 keep the template's own MX.
 */
export const synthetic = (n, scenarios, { providers = 0 } = {}) => {
  const byName = new Map(scenarios.map((s) => [s.domain, s]))
  const tlds = ["com", "net", "org", "nl", "de", "io"]
  const out = providers > 0 ? mailProviders(providers) : []
  for (let i = 1; i <= n; i++) {
    const template = byName.get(SYNTHETIC_TEMPLATES[(i - 1) % SYNTHETIC_TEMPLATES.length])
    if (!template) continue
    const domain = `synth-${String(i).padStart(5, "0")}.${tlds[(i - 1) % tlds.length]}`
    const copy = copyAs(template, domain)
    copy.about = `synthetic copy of ${template.domain}`
    copy.synthetic = true
    delete copy.lagging
    const slot = i % 20
    if (providers > 0 && slot === 0) {
      copy.mx = [{ host: "mx", tls: "valid", ptr: "match", server: "slow" }]
      copy.about += ", its MX silent"
    } else if (providers > 0 && slot <= 16) {
      const provider = `provider-${(i % providers) + 1}.net`
      // `shared`: the host and its address belong to the provider's scenario, not to this one.
      copy.mx = [
        { host: `mx1.${provider}.`, shared: true },
        { host: `mx2.${provider}.`, shared: true }
      ]
      copy.about += `, mail at ${provider}`
    }
    out.push(copy)
  }
  return out
}

/** `template` served under `domain`: every mention of its name replaced (synthetic copies, mutate). */
export const copyAs = (template, domain) => {
  const copy = replaceDomain(structuredClone(template), template.domain, domain)
  copy.domain = domain
  // ::1 is one address: only the template may listen there (postfix picks no certificate by name).
  if (copy.aaaa === "::1") delete copy.aaaa
  for (const mx of copy.mx ?? []) if (mx.aaaa === "::1") delete mx.aaaa
  return copy
}

/** The ASCII form of a scenario's domain name (lower case, no trailing dot). */
export const asciiDomain = (name) => {
  const ascii = domainToASCII(name.toLowerCase().replace(/\.$/, ""))
  if (!ascii) throw new Error(`invalid domain ${name}`)
  return ascii
}

/**
 * One scenario with its hosts' addresses: MX host j gets `mxAddr(j)`, the web host `webAddr()`.
 * Host names become absolute ("@" is the domain itself, a trailing dot an outside name).
 */
export const placeScenario = (s, mxAddr, webAddr) => {
  const tld = s.domain.split(".").pop()
  const mx = (s.mx ?? []).map((m, j) => {
    // "@" is the domain itself: with `implicit`, the host that receives mail with no MX record.
    const host =
      m.host === "@" ? s.domain : m.host.endsWith(".") ? m.host.slice(0, -1) : `${m.host}.${s.domain}`
    return { pref: 10 * (j + 1), ...m, host, addr: mxAddr(j) }
  })
  const web = s.web ? { https: true, ...s.web, addr: webAddr() } : undefined
  return { ...s, tld, mx, web }
}

/**
 * Normalise scenarios (ASCII names, later duplicates replace earlier ones) and give each MX host and
 * each web host its own address: MX hosts 127.25.A.B, web hosts 127.80.A.B, B in 1..250. Synthetic
 * copies' web hosts are spread over the /24s after the scenarios' (`spreadAddress`), a few per /24
 * as on the internet, where the batch's per-/24 politeness bound would otherwise be the world's.
 */
export const plan = (scenarios) => {
  const byDomain = new Map()
  for (const s of scenarios) {
    const ascii = asciiDomain(s.domain)
    byDomain.set(ascii, { ...s, unicode: s.domain, domain: ascii })
  }
  const all = [...byDomain.values()]
  const firstSpread = Math.ceil(all.filter((s) => s.web && s.synthetic !== true).length / 250)
  let mxCount = 0
  let webCount = 0
  let spreadCount = 0
  return all.map((s) =>
    placeScenario(
      s,
      () => hostAddress(25, mxCount++),
      () =>
        s.synthetic === true ? spreadAddress(80, spreadCount++, firstSpread) : hostAddress(80, webCount++)
    )
  )
}

/**
 * The i-th spread host address: 127.PREFIX.A.B, A cycling through firstA..249 before B grows, so
 * N hosts share a /24 N / (250 - firstA) at a time (127.PREFIX.250.x stays spare).
 */
export const spreadAddress = (prefix, i, firstA) => {
  const span = 250 - Math.max(1, firstA)
  return `127.${prefix}.${Math.max(1, firstA) + (i % span)}.${Math.floor(i / span) + 1}`
}

/** The i-th host address of a range: 127.PREFIX.A.B, B in 1..250 (docs/world.md, "Address plan"). */
export const hostAddress = (prefix, i) => `127.${prefix}.${Math.floor(i / 250)}.${(i % 250) + 1}`

/**
 * A scenario's manifest entry (docs/world.md, WORLD_MANIFEST): planned scenario `s`, its MX hosts
 * with their certificate paths, and the DKIM private keys by `selector._domainkey.domain`.
 */
export const manifestEntry = (s, hosts, dkimKeys) => ({
  domain: s.domain,
  unicode: s.unicode,
  about: s.about,
  dnssec: s.dnssec ?? null,
  synthetic: s.synthetic === true,
  web: s.web ? { addr: s.web.addr, https: s.web.https !== false, server: s.web.server ?? "nginx" } : null,
  mx: hosts.map((h) => ({
    host: h.host,
    implicit: h.implicit === true,
    addr: h.addr,
    aaaa: h.aaaa ?? null,
    tls: h.tls,
    ptr: h.ptr ?? "match",
    listed: h.listed === true,
    tlsa: h.tlsa ?? null,
    server: h.server ?? (h.requiretls === true ? "esmtp" : "postfix"),
    requiretls: h.requiretls === true,
    cert: h.cert,
    key: h.key
  })),
  dkim: (s.dkim ?? []).map((d) => ({
    selector: d.selector,
    key: d.key,
    privateKey: dkimKeys[`${d.selector}._domainkey.${s.domain}`] ?? null
  }))
})
