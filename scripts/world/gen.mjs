#!/usr/bin/env node
// Generates the whole world under data/world from scripts/world/scenarios.json (+ --spec files,
// + --synthetic N): certificates first (TLSA needs them), DKIM keys, zones and keys, then the
// Unbound, nginx, Postfix and slow-server configs, and manifest.json describing what was built.
import { existsSync, readFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { generateKeyPairSync } from "node:crypto"
import { INFRA, loadScenarioFile, plan, synthetic } from "./lib/model.mjs"
import { ensureCa, ensureCert, ensureVmc } from "./lib/pki.mjs"
import { generateDns, generateResolvers } from "./lib/dns.mjs"
import { generateNginx, slowServers, special } from "./lib/web.mjs"
import { generatePostfix } from "./lib/mail.mjs"
import { mkdirp, write } from "./lib/util.mjs"

const here = dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
let root = resolve(here, "../../data/world")
const specs = []
let syntheticCount = 0
for (let i = 0; i < args.length; i++) {
  const a = args[i]
  if (a === "--spec") specs.push(resolve(args[++i] ?? ""))
  else if (a === "--synthetic") syntheticCount = Number(args[++i] ?? "0")
  else if (a === "--root") root = resolve(args[++i] ?? "")
  else throw new Error(`unknown argument ${a}`)
}
if (!Number.isInteger(syntheticCount) || syntheticCount < 0) throw new Error("--synthetic needs a count")
mkdirp(root)

let scenarios = loadScenarioFile(join(here, "scenarios.json"))
for (const spec of specs) scenarios = scenarios.concat(loadScenarioFile(spec))
scenarios = scenarios.concat(synthetic(syntheticCount, scenarios))
const planned = plan(scenarios)

// PKI: one certificate per MX host (by its TLS situation) and one per web domain.
const ca = ensureCa(root)
const spki = {}
const mxHosts = []
for (const s of planned) {
  for (const m of s.mx) {
    const tls = m.tls ?? "valid"
    const names = tls === "wrongname" ? [`mail.some-other-name.net`] : [m.host]
    const id = `mx-${m.host}-${tls}`
    const c = ensureCert(ca, id, names, tls === "none" ? "valid" : tls === "wrongname" ? "valid" : tls)
    spki[m.host] = c.spkiSha256
    mxHosts.push({ ...m, tls, domain: s.domain, key: c.key, cert: c.cert })
  }
}
const webCerts = {}
for (const s of planned.filter((x) => x.web)) {
  webCerts[s.domain] = ensureCert(ca, `web-${s.domain}`, [s.domain, `*.${s.domain}`], "valid")
  // "@vmc": a Verified Mark Certificate embedding the domain's "@bimi-tiny-ps" logo.
  for (const [path, body] of Object.entries(s.web.files ?? {})) {
    if (body === "@vmc") s.web.files[path] = ensureVmc(ca, s.domain, special("@bimi-tiny-ps"))
  }
}

// DKIM keys (kept between runs): RSA in SubjectPublicKeyInfo, Ed25519 as the raw key (RFC 8463 4.2).
const dkimKeys = {}
for (const s of planned) {
  s._dkim = {}
  for (const d of s.dkim ?? []) {
    // The key type is in the file name, so changing a selector's key type makes a new key.
    const base = join(root, "dkim", s.domain, `${d.selector}.${d.key}`)
    if (d.key === "revoked") {
      s._dkim[d.selector] = "v=DKIM1; k=rsa; p="
      continue
    }
    if (!existsSync(`${base}.key`)) {
      const pair =
        d.key === "ed25519"
          ? generateKeyPairSync("ed25519")
          : generateKeyPairSync("rsa", { modulusLength: d.key === "rsa1024" ? 1024 : 2048 })
      write(`${base}.key`, pair.privateKey.export({ type: "pkcs8", format: "pem" }), 0o600)
      write(`${base}.pub`, pair.publicKey.export({ type: "spki", format: "pem" }))
    }
    const der = Buffer.from(readFileSync(`${base}.pub`, "utf8").replace(/-----[^-]+-----|\s/g, ""), "base64")
    const p = d.key === "ed25519" ? der.subarray(der.length - 32).toString("base64") : der.toString("base64")
    s._dkim[d.selector] = `v=DKIM1; k=${d.key === "ed25519" ? "ed25519" : "rsa"}; p=${p}`
    dkimKeys[`${d.selector}._domainkey.${s.domain}`] = `${base}.key`
  }
}

const { rootDs, lagZones, zones } = generateDns(root, planned, { spki })
const resolvers = generateResolvers(root, rootDs, lagZones)
const nginxDir = generateNginx(
  root,
  planned.filter((s) => s.web),
  webCerts
)
const postfixHosts = mxHosts.filter((h) => h.server !== "slow")
const postfixDir = generatePostfix(root, postfixHosts)

const slow = slowServers(mxHosts, planned, webCerts)
write(join(root, "slow.json"), JSON.stringify(slow, null, 2) + "\n")

const manifest = {
  generated: new Date().toISOString(),
  root,
  ca: ca.pem,
  infra: INFRA,
  resolvers,
  zones,
  lagZones,
  nginx: nginxDir,
  postfix: postfixDir,
  scenarios: planned.map((s) => ({
    domain: s.domain,
    unicode: s.unicode,
    about: s.about,
    dnssec: s.dnssec ?? null,
    synthetic: s.synthetic === true,
    web: s.web ? { addr: s.web.addr, https: s.web.https !== false, server: s.web.server ?? "nginx" } : null,
    mx: mxHosts
      .filter((h) => h.domain === s.domain)
      .map((h) => ({
        host: h.host,
        implicit: h.implicit === true,
        addr: h.addr,
        aaaa: h.aaaa ?? null,
        tls: h.tls,
        ptr: h.ptr ?? "match",
        listed: h.listed === true,
        tlsa: h.tlsa ?? null,
        server: h.server ?? "postfix",
        cert: h.cert,
        key: h.key
      })),
    dkim: (s.dkim ?? []).map((d) => ({
      selector: d.selector,
      key: d.key,
      privateKey: dkimKeys[`${d.selector}._domainkey.${s.domain}`] ?? null
    }))
  }))
}
write(join(root, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n")
console.log(`world: generated ${planned.length} domains, ${mxHosts.length} MX hosts under ${root}`)
