#!/usr/bin/env node
// Generates the whole world under data/world from scripts/world/scenarios.json (+ --spec files,
// + --synthetic N): certificates first (TLSA needs them), DKIM keys, zones and keys, then the
// Unbound, nginx, Postfix, slow-server and esmtp configs, and manifest.json describing what was built.
import { rmSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { INFRA, loadScenarioFile, manifestEntry, mxComponent, plan, synthetic } from "./lib/model.mjs"
import { ensureCa, ensureMxCert, ensureVmc, ensureWebCert } from "./lib/pki.mjs"
import { ensureDkim } from "./lib/dkim.mjs"
import { generateDns, generateResolvers } from "./lib/dns.mjs"
import { generateNginx, slowServers, special } from "./lib/web.mjs"
import { pqConfig } from "./lib/pq.mjs"
import { esmtpConfig, generatePostfix } from "./lib/mail.mjs"
import { writeVrps } from "./lib/rpki.mjs"
import { generateRegistry } from "./lib/registry.mjs"
import { mkdirp, write } from "./lib/util.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
let root = resolve(here, "../../data/world")
const specs = []
let syntheticCount = 0
let providers = 0
for (let i = 0; i < args.length; i++) {
  const a = args[i]
  if (a === "--spec") specs.push(resolve(args[++i] ?? ""))
  else if (a === "--synthetic") syntheticCount = Number(args[++i] ?? "0")
  else if (a === "--providers") providers = Number(args[++i] ?? "0")
  else if (a === "--root") root = resolve(args[++i] ?? "")
  else throw new Error(`unknown argument ${a}`)
}
if (!Number.isInteger(syntheticCount) || syntheticCount < 0) throw new Error("--synthetic needs a count")
if (!Number.isInteger(providers) || providers < 0) throw new Error("--providers needs a count")
mkdirp(root)

let scenarios = loadScenarioFile(join(here, "scenarios.json"))
for (const spec of specs) scenarios = scenarios.concat(loadScenarioFile(spec))
scenarios = scenarios.concat(synthetic(syntheticCount, scenarios, { providers }))
const planned = plan(scenarios)
// A shared MX host (a mail provider's) answers at the address its own scenario gave it.
const hostAddr = new Map(planned.flatMap((s) => s.mx.filter((m) => !m.shared).map((m) => [m.host, m.addr])))
for (const s of planned) for (const m of s.mx) if (m.shared) m.addr = hostAddr.get(m.host) ?? "0.0.0.0"
// The scenarios as built (--spec and --synthetic included): what scripts/world/mutate serves a domain
// as, and restores it from.
write(join(root, "scenarios.json"), JSON.stringify({ scenarios }, null, 1) + "\n")
// Every domain is built as its own scenario again: no mutation holds, and none has touched it.
rmSync(join(root, "mutations.json"), { force: true })
rmSync(join(root, "touched.json"), { force: true })

// PKI: one certificate per MX host (by its TLS situation) and one per web domain.
const ca = ensureCa(root)
const spki = {}
const mxHosts = []
for (const s of planned) {
  for (const m of s.mx.filter((x) => !x.shared)) {
    const c = ensureMxCert(ca, m)
    spki[m.host] = c.spkiSha256
    mxHosts.push({ ...m, tls: m.tls ?? "valid", domain: s.domain, key: c.key, cert: c.cert })
  }
}
const webCerts = {}
for (const s of planned.filter((x) => x.web)) {
  webCerts[s.domain] = ensureWebCert(ca, s.domain)
  // "@vmc": a Verified Mark Certificate embedding the domain's "@bimi-tiny-ps" logo.
  for (const [path, body] of Object.entries(s.web.files ?? {})) {
    if (body === "@vmc") s.web.files[path] = ensureVmc(ca, s.domain, special("@bimi-tiny-ps"))
  }
}

// DKIM keys (kept between runs).
const dkimKeys = {}
for (const s of planned) {
  const dkim = ensureDkim(root, s)
  s._dkim = dkim.records
  Object.assign(dkimKeys, dkim.keys)
}

const { rootDs, lagZones, zones } = generateDns(root, planned, { spki })
const resolvers = generateResolvers(root, rootDs, lagZones)
const nginxDir = generateNginx(
  root,
  planned.filter((s) => s.web),
  webCerts
)
const postfixHosts = mxHosts.filter((h) => mxComponent(h) === "postfix")
const postfixDir = generatePostfix(root, postfixHosts)
// The MX hosts with `requiretls`: esmtp.mjs, taking mail for any of the world's domains.
write(
  join(root, "esmtp.json"),
  JSON.stringify(
    esmtpConfig(
      mxHosts,
      planned.map((s) => s.domain)
    ),
    null,
    2
  ) + "\n"
)

// The post-quantum web sites and MX hosts: pq.mjs under Node.js 24 (lib/pq.mjs).
write(
  join(root, "pq.json"),
  JSON.stringify(
    pqConfig(
      mxHosts,
      planned,
      webCerts,
      planned.map((s) => s.domain)
    ),
    null,
    2
  ) + "\n"
)

const slow = slowServers(mxHosts, planned, webCerts)
write(join(root, "slow.json"), JSON.stringify(slow, null, 2) + "\n")

// The registry's RDAP server and the hosting service (rdap.mjs) share one certificate.
const rdapBootstrap = generateRegistry(root, planned, ensureWebCert(ca, INFRA.registry.domain))

const manifest = {
  generated: new Date().toISOString(),
  root,
  ca: ca.pem,
  // The Validated ROA Payloads of the world's routes (lib/rpki.mjs), for RPKI_VRPS.
  vrps: writeVrps(root),
  infra: INFRA,
  resolvers,
  zones,
  lagZones,
  nginx: nginxDir,
  postfix: postfixDir,
  rdapBootstrap,
  scenarios: planned.map((s) =>
    manifestEntry(
      s,
      mxHosts.filter((h) => h.domain === s.domain),
      dkimKeys
    )
  )
}
write(join(root, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n")
console.log(`world: generated ${planned.length} domains, ${mxHosts.length} MX hosts under ${root}`)
