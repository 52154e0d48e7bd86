// Scenario loading, synthetic domains and the address plan.
import { readFileSync } from "node:fs"
import { domainToASCII } from "node:url"

/** Fixed infrastructure addresses (docs/world.md, "Address plan"). */
export const INFRA = {
  knot: ["127.53.0.1", "127.53.0.2"],
  knotLag: "127.53.0.9",
  unbound: "127.53.1.1",
  propagation: [
    { addr: "127.53.2.1", name: "World Resolver Frankfurt", location: "Frankfurt", country: "DE" },
    { addr: "127.53.2.2", name: "World Resolver Amsterdam", location: "Amsterdam", country: "NL" },
    { addr: "127.53.2.3", name: "World Resolver New York", location: "New York", country: "US" },
    { addr: "127.53.2.4", name: "World Resolver Singapore", location: "Singapore", country: "SG" }
  ],
  lagging: { addr: "127.53.2.9", name: "World Resolver Sydney (lagging)", location: "Sydney", country: "AU" }
}

export const BASE_TLDS = ["com", "net", "org", "nl", "de", "io"]

export const DNSBLS = ["zen.spamhaus.org", "bl.spamcop.net", "b.barracudacentral.org"]

/** Read one scenario file: { "scenarios": [ ... ] } (docs/world.md). */
export const loadScenarioFile = (path) => {
  const parsed = JSON.parse(readFileSync(path, "utf8"))
  const list = Array.isArray(parsed) ? parsed : parsed.scenarios
  if (!Array.isArray(list)) throw new Error(`${path}: expected { "scenarios": [...] }`)
  for (const s of list) if (typeof s.domain !== "string") throw new Error(`${path}: scenario without domain`)
  return list
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

/** N generated domains synth-00001.<tld> ... mixing the templates above. */
export const synthetic = (n, scenarios) => {
  const byName = new Map(scenarios.map((s) => [s.domain, s]))
  const tlds = ["com", "net", "org", "nl", "de", "io"]
  const out = []
  for (let i = 1; i <= n; i++) {
    const template = byName.get(SYNTHETIC_TEMPLATES[(i - 1) % SYNTHETIC_TEMPLATES.length])
    if (!template) continue
    const domain = `synth-${String(i).padStart(5, "0")}.${tlds[(i - 1) % tlds.length]}`
    const copy = replaceDomain(structuredClone(template), template.domain, domain)
    copy.domain = domain
    copy.about = `synthetic copy of ${template.domain}`
    copy.synthetic = true
    delete copy.lagging
    // ::1 is one address: only the template may listen there (postfix picks no certificate by name).
    if (copy.aaaa === "::1") delete copy.aaaa
    for (const mx of copy.mx ?? []) if (mx.aaaa === "::1") delete mx.aaaa
    out.push(copy)
  }
  return out
}

/**
 * Normalise scenarios (ASCII names, later duplicates replace earlier ones) and give each MX host and
 * each web host its own address: MX hosts 127.25.A.B, web hosts 127.80.A.B, B in 1..250.
 */
export const plan = (scenarios) => {
  const byDomain = new Map()
  for (const s of scenarios) {
    const ascii = domainToASCII(s.domain.toLowerCase().replace(/\.$/, ""))
    if (!ascii) throw new Error(`invalid domain ${s.domain}`)
    byDomain.set(ascii, { ...s, unicode: s.domain, domain: ascii })
  }
  let mxCount = 0
  let webCount = 0
  const at = (prefix, i) => `127.${prefix}.${Math.floor(i / 250)}.${(i % 250) + 1}`
  const out = []
  for (const s of byDomain.values()) {
    const tld = s.domain.split(".").pop()
    const mx = (s.mx ?? []).map((m, j) => {
      // "@" is the domain itself: with `implicit`, the host that receives mail with no MX record.
      const host =
        m.host === "@" ? s.domain : m.host.endsWith(".") ? m.host.slice(0, -1) : `${m.host}.${s.domain}`
      return { pref: 10 * (j + 1), ...m, host, addr: at(25, mxCount++) }
    })
    const web = s.web ? { https: true, ...s.web, addr: at(80, webCount++) } : undefined
    out.push({ ...s, tld, mx, web })
  }
  return out
}
