#!/usr/bin/env node
// The generating half of scripts/world/mutate: rewrite one domain's part of a running world's files
// so that it serves another scenario (or its own again), then print what must be reloaded, one
// action a line, for the shell half to run under time limits:
//   knot-conf | zone NAME | esmtp | postfix | esmtp-ready | nginx | flush NAME | verify DOMAIN SIGNED
//   node mutate.mjs --root WORLD DOMAIN (--as SCENARIO | --reset | --add 'NAME TYPE RDATA' | --remove 'NAME TYPE'
//                                        | --file URL BODY)...
// Exit 2: a usage error, an unknown domain or scenario, or a scenario that cannot be moved.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  asciiDomain,
  copyAs,
  DNSBLS,
  hostAddress,
  loadScenarioFile,
  manifestEntry,
  mxComponent,
  placeScenario,
  synthetic
} from "./lib/model.mjs"
import { ensureCa, ensureMxCert, ensureVmc, ensureWebCert } from "./lib/pki.mjs"
import { ensureDkim } from "./lib/dkim.mjs"
import {
  dnsblLines,
  ensureKeys,
  knotZoneEntry,
  POLICIES,
  presignExpired,
  ptrLines,
  publishedDs,
  scenarioZone,
  SERIAL,
  zoneFile
} from "./lib/dns.mjs"
import { esmtpConfig, listeners } from "./lib/mail.mjs"
import { serverBlocks, special, writeSite } from "./lib/web.mjs"
import { reverseName, write } from "./lib/util.mjs"
import {
  isDsOf,
  ownedBy,
  replaceKnotZone,
  replaceEsmtpServers,
  replaceListeners,
  replaceServerBlocks,
  replaceZoneLines,
  setRelayDomain,
  soaSerial
} from "./lib/edit.mjs"

class UsageError extends Error {}

/** --file's BODY: the text itself, or `@PATH`, the file at PATH (as curl reads `--data @PATH`). */
const fileBody = (body) => {
  if (!body.startsWith("@")) return body
  try {
    return readFileSync(body.slice(1), "utf8")
  } catch (e) {
    throw new UsageError(`--file cannot read its body from ${body.slice(1)}: ${e.code ?? e.message}`)
  }
}

/** { root, domain, target, reset, ttl, add, remove, files } from the command line; target undefined with --reset. */
const parseArgs = (args) => {
  const out = { reset: false }
  for (let i = 0; i < args.length; i++) {
    const a = args[i]
    if (a === "--root") out.root = args[++i]
    else if (a === "--as") out.target = args[++i]
    else if (a === "--reset") out.reset = true
    else if (a === "--ttl") {
      out.ttl = Number(args[++i])
      if (!Number.isInteger(out.ttl) || out.ttl < 1 || out.ttl > 86400)
        throw new UsageError("--ttl takes a number of seconds, 1 to 86400")
    } else if (a === "--add") {
      const line = args[++i] ?? ""
      if (!/^\S+\s+(TXT|A|AAAA|CNAME|MX|CAA|TLSA)\s+\S.*$/i.test(line))
        throw new UsageError("--add takes one record: 'NAME TYPE RDATA', such as '_x.example.com TXT token'")
      ;(out.add ??= []).push(line)
    } else if (a === "--remove") {
      const line = (args[++i] ?? "").trim()
      if (!/^\S+\s+[A-Za-z0-9]+$/.test(line))
        throw new UsageError("--remove takes one RRset: 'NAME TYPE', such as 'example.com TXT'")
      ;(out.remove ??= []).push(line)
    } else if (a === "--file") {
      const [url, body] = [args[++i], args[++i]]
      if (url === undefined || body === undefined)
        throw new UsageError(
          "--file takes a URL (or a path) and a body (or @FILE): --file 'https://mta-sts.example.com/.well-known/mta-sts.txt' @policy.txt"
        )
      ;(out.files ??= []).push({ url, body: fileBody(body) })
    } else if (!a.startsWith("-") && out.domain === undefined) out.domain = a
    else throw new UsageError(`unknown argument ${a}`)
  }
  // --add, --remove or --file alone: the domain's own scenario with the records or files changed
  if ((out.add ?? out.remove ?? out.files) !== undefined && out.target === undefined) out.reset = true
  if (!out.root || !out.domain || (out.reset ? out.target !== undefined : !out.target))
    throw new UsageError(
      "usage: scripts/world/mutate DOMAIN (--as SCENARIO | --reset) [--add 'NAME TYPE RDATA']... [--remove 'NAME TYPE']... [--file URL BODY]... [--ttl SECONDS]"
    )
  return out
}

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"))
/** Written whole, then renamed: servers and tests may read a file while a mutate runs. */
const replaceFile = (path, text) => {
  writeFileSync(`${path}.tmp`, text)
  renameSync(`${path}.tmp`, path)
}
const writeJson = (path, value) => replaceFile(path, JSON.stringify(value, null, 2) + "\n")

/**
 * The scenarios the world was built from: data/world/scenarios.json (written by gen.mjs), or, for a
 * world built before that file existed, its code's scenarios.json plus its synthetic copies.
 */
const builtScenarios = (root, manifest) => {
  let list
  if (existsSync(join(root, "scenarios.json"))) list = loadScenarioFile(join(root, "scenarios.json"))
  else {
    const origin = existsSync(join(root, "origin.env")) ? readFileSync(join(root, "origin.env"), "utf8") : ""
    const scripts = /^WORLD_SCRIPTS=(.*)$/m.exec(origin)?.[1] ?? new URL(".", import.meta.url).pathname
    const base = loadScenarioFile(join(scripts, "scenarios.json"))
    list = base.concat(synthetic(manifest.scenarios.filter((s) => s.synthetic).length, base))
  }
  const byDomain = new Map()
  for (const s of list) byDomain.set(asciiDomain(s.domain), { ...s, domain: asciiDomain(s.domain) })
  return byDomain
}

/** Why a scenario cannot be moved to another name, or undefined. */
const unmovable = (s) =>
  s.lagging
    ? "its older zone version is served by the lagging name server, which mutate does not change"
    : (s.mx ?? []).some((m) => mxComponent(m) === "slow") || s.web?.server === "slow"
      ? "its slow servers are node processes (slow.mjs) that mutate does not start"
      : (s.mx ?? []).some((m) => mxComponent(m) === "pq") || s.web?.server === "pq"
        ? "its post-quantum servers are a node process (pq.mjs) that mutate does not start"
        : undefined

/**
 * `text` (a zone of `domain` as scenarioZone writes it: `owner [ttl] [IN] TYPE data`, owners relative
 * to the origin, `@` for it) without the RRsets `remove` names ('NAME TYPE'), except the lines
 * --add gave: so a scenario's apex TXT can be replaced by the one added.
 */
const withoutRrsets = (text, domain, remove, kept) => {
  if (remove.length === 0) return text
  const gone = new Set(
    remove.map((r) => {
      const [name, type] = r.split(/\s+/)
      return `${name.toLowerCase().replace(/\.$/, "")} ${type.toUpperCase()}`
    })
  )
  const owner = (o) =>
    (o === "@" ? domain : o.endsWith(".") ? o.slice(0, -1) : `${o}.${domain}`).toLowerCase()
  return text
    .split("\n")
    .filter((line) => {
      if (kept.includes(line) || /^\s|^\$|^;/.test(line) || line.trim() === "") return true
      const tokens = line.split(/\s+/)
      const type = tokens.slice(1).find((t) => !/^\d+$/.test(t) && t.toUpperCase() !== "IN")
      return !gone.has(`${owner(tokens[0])} ${(type ?? "").toUpperCase()}`)
    })
    .join("\n")
}

/**
 * Where --file serves `url` for `domain`: the path in the domain's site (one docroot for every name
 * its web host serves, as the scenarios' own files are), and the name the URL asks for, relative to
 * the domain ("@" for the apex; none for a bare path). A name is the domain or one label under it:
 * the web certificate covers DOMAIN and *.DOMAIN (lib/pki.mjs), nothing deeper.
 */
const fileTarget = (url, domain) => {
  let host
  let path = url
  if (!url.startsWith("/")) {
    let parsed
    try {
      parsed = new URL(url)
    } catch {
      throw new UsageError(`--file: ${url} is neither a URL nor a path`)
    }
    if (!["https:", "http:"].includes(parsed.protocol) || parsed.search || parsed.hash || parsed.port)
      throw new UsageError(`--file: ${url}: an http(s) URL without port, query or fragment`)
    host = parsed.hostname.replace(/\.$/, "")
    path = parsed.pathname
  }
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(path) || path.split("/").some((seg) => seg === "." || seg === ".."))
    throw new UsageError(`--file: ${url}: the path names a file, in letters, digits and ._~-`)
  if (host === undefined) return { url, path }
  const label = host.endsWith(`.${domain}`) ? host.slice(0, -domain.length - 1) : undefined
  if (host !== domain && !/^[a-z0-9-]+$/.test(label ?? ""))
    throw new UsageError(`--file: ${url} is not on ${domain} or a name one label under it`)
  return { url, path, name: host === domain ? "@" : label }
}

const main = () => {
  const { root, domain: domainArg, target, reset, ttl, add, remove, files } = parseArgs(process.argv.slice(2))
  const manifest = readJson(join(root, "manifest.json"))
  const mutationsFile = join(root, "mutations.json")
  const mutations = existsSync(mutationsFile) ? readJson(mutationsFile) : {}
  const domain = asciiDomain(domainArg)
  const current = manifest.scenarios.find((s) => s.domain === domain)
  if (!current)
    throw new UsageError(`${domain} is not a domain of this world (see ${join(root, "manifest.json")})`)
  const original = mutations[domain]?.original ?? current
  const scenarios = builtScenarios(root, manifest)
  const own = scenarios.get(domain)
  if (!own) throw new UsageError(`${domain}'s own scenario is unknown (the world did not record it)`)
  const as = reset ? domain : asciiDomain(target)
  const template = scenarios.get(as)
  if (!template) throw new UsageError(`${as} is not a scenario of this world`)
  for (const [name, s] of [
    [domain, own],
    [as, template]
  ]) {
    const why = unmovable(s)
    if (why) throw new UsageError(`${name} cannot be ${name === domain ? "mutated" : "moved"}: ${why}`)
  }
  const esmtpFile = join(root, "esmtp.json")
  if (!existsSync(esmtpFile) && (template.mx ?? []).some((m) => mxComponent(m) === "esmtp"))
    throw new UsageError(
      `${as}'s requiretls MX needs esmtp.mjs, which this world predates (scripts/world/up)`
    )

  // The scenario under the domain's name, on the domain's own addresses (new ones from
  // 127.25.250.x / 127.80.250.x when it needs more hosts than it had).
  const def = as === domain ? structuredClone(own) : copyAs(template, domain)
  if (as !== domain) def.about = `${domain} serving ${as}'s scenario: ${template.about ?? ""}`
  def.synthetic = original.synthetic
  // --add: zone lines after the scenario's own; a name under the domain written in full is made
  // absolute (a zone file reads a name without the final dot as relative to the origin), and TXT
  // data is quoted as one character-string when it is not already.
  const added = (add ?? []).map((line) => {
    const [, name, type, rdata] = /^(\S+)\s+(\S+)\s+(.*)$/.exec(line.trim())
    const lower = name.toLowerCase()
    const absolute =
      !lower.endsWith(".") && (lower === domain || lower.endsWith(`.${domain}`)) ? `${name}.` : name
    const data =
      type.toUpperCase() === "TXT" && !rdata.startsWith('"') ? `"${rdata.replaceAll('"', '\\"')}"` : rdata
    return `${absolute} ${type.toUpperCase()} ${data}`
  })
  def.records = [...(def.records ?? []), ...added]
  // --file: the scenario's web host serves the body at the URL's path, under the URL's name too
  // (its A record and server_name follow), as a domain owner publishes a policy host.
  const published = (files ?? []).map((f) => ({ ...f, ...fileTarget(f.url, domain) }))
  if (published.length > 0) {
    if (!def.web)
      throw new UsageError(`--file: ${as}'s scenario has no web host to serve ${published[0].url}`)
    const names = published.flatMap((f) => (f.name === undefined ? [] : [f.name]))
    def.web.names = [...new Set([...(def.web.names ?? ["@"]), ...names])]
  }
  const used = new Set(
    manifest.scenarios
      .filter((s) => s.domain !== domain)
      .flatMap((s) => [...s.mx.map((m) => m.addr), ...(s.web ? [s.web.addr] : [])])
  )
  const spare = (prefix) => {
    for (let i = 250 * 250; ; i++) {
      const addr = hostAddress(prefix, i)
      if (!used.has(addr)) return used.add(addr) && addr
    }
  }
  const taken = (addr) => (addr && !used.has(addr) ? used.add(addr) && addr : undefined)
  const s = placeScenario(
    { ...def, unicode: original.unicode ?? domain },
    (j) => taken(original.mx[j]?.addr) ?? spare(25),
    () => taken(original.web?.addr) ?? spare(80)
  )

  // Certificates from the world CA for the new names and TLS situations, and DKIM keys.
  const ca = ensureCa(root)
  const spki = {}
  const hosts = s.mx.map((m) => {
    const c = ensureMxCert(ca, m)
    spki[m.host] = c.spkiSha256
    return { ...m, tls: m.tls ?? "valid", domain, key: c.key, cert: c.cert }
  })
  const dkim = ensureDkim(root, s)
  s._dkim = dkim.records

  const actions = []
  const dnsDir = join(root, "dns")
  const conf = join(dnsDir, "knot.conf")
  const zonePath = (name) => join(dnsDir, "zones", zoneFile(name))
  const edit = (path, change) => {
    const before = readFileSync(path, "utf8")
    const after = change(before)
    if (after !== before) replaceFile(path, after)
    return after !== before
  }

  // The zone, signed as the scenario says; a later serial, so no cache or secondary keeps the old.
  const serial = Math.max(SERIAL, soaSerial(readFileSync(zonePath(domain), "utf8"))) + 1
  // --ttl: the zone's default TTL, so that caches (the service's own too) hold its answers briefly.
  const text = withoutRrsets(
    scenarioZone(s, { spki }, serial, s.records ?? []),
    domain,
    remove ?? [],
    added
  ).replace(/^\$TTL 300$/m, `$TTL ${ttl ?? 300}`)
  const policy = POLICIES[s.dnssec] ? s.dnssec : undefined
  let ds = []
  if (s.dnssec === "expired") ds = presignExpired(dnsDir, domain, text)
  else {
    replaceFile(zonePath(domain), text)
    if (policy) ds = publishedDs(s.dnssec, ensureKeys(conf, domain, POLICIES[policy]), conf, domain)
  }
  const confChanged = edit(conf, (t) =>
    replaceKnotZone(t, domain, knotZoneEntry({ name: domain, file: zoneFile(domain), policy }))
  )
  const tldChanged = edit(zonePath(s.tld), (t) => replaceZoneLines(t, isDsOf(domain), ds))
  // Signed: the zone first, then its DS; unsigned: the DS goes first (a DS without keys is bogus).
  const zoneActions = [...(confChanged ? ["knot-conf"] : []), `zone ${domain}`]
  const dsActions = tldChanged ? [`zone ${s.tld}`] : []
  actions.push(...(ds.length > 0 ? [...zoneActions, ...dsActions] : [...dsActions, ...zoneActions]))

  // Reverse DNS and the DNSBLs: the old addresses' entries out, the new ones' in.
  const oldAddrs = current.mx.map((m) => m.addr)
  const addrs = [...new Set([...oldAddrs, ...hosts.map((h) => h.addr)])]
  const reverse = "127.in-addr.arpa"
  if (
    edit(zonePath(reverse), (t) =>
      replaceZoneLines(t, ownedBy(addrs.map(reverseName)), hosts.flatMap(ptrLines))
    )
  )
    actions.push(`zone ${reverse}`)
  const blName = (ip) => ip.split(".").reverse().join(".")
  for (const bl of DNSBLS) {
    const listed = hosts.filter((h) => h.listed).flatMap((h) => dnsblLines(bl, h.addr))
    if (edit(zonePath(bl), (t) => replaceZoneLines(t, ownedBy(addrs.map(blName)), listed)))
      actions.push(`zone ${bl}`)
  }

  // esmtp.mjs: the requiretls hosts on the domain's addresses. It lets go of the addresses it no
  // longer serves before Postfix reloads (which may listen there next), and is ready once Postfix
  // has let go of those it takes over ("esmtp-ready").
  const esmtpHosts = esmtpConfig(hosts, []).servers
  const esmtpChanged =
    existsSync(esmtpFile) &&
    edit(
      esmtpFile,
      (t) =>
        JSON.stringify(
          replaceEsmtpServers(
            JSON.parse(t),
            current.mx.map((m) => m.addr),
            esmtpHosts
          ),
          null,
          2
        ) + "\n"
    )
  if (esmtpChanged) actions.push("esmtp")

  // Postfix: one smtpd per MX host address, with the host's name and certificate.
  const postfixDir = join(root, "postfix")
  const served = hosts.filter((h) => mxComponent(h) === "postfix")
  const gone = current.mx.flatMap((m) => [m.addr, ...(m.aaaa ? [`[${m.aaaa}]`] : [])])
  const master = edit(join(postfixDir, "master.cf"), (t) => replaceListeners(t, gone, served.map(listeners)))
  const mainCf = edit(join(postfixDir, "main.cf"), (t) => setRelayDomain(t, domain, served.length > 0))
  if (master || mainCf) actions.push("postfix")
  if (esmtpChanged) actions.push("esmtp-ready")

  // nginx: the domain's server blocks and site.
  const nginxDir = join(root, "nginx")
  let blocks = []
  rmSync(join(nginxDir, "www", domain), { recursive: true, force: true })
  if (s.web) {
    for (const [path, body] of Object.entries(s.web.files ?? {}))
      if (body === "@vmc") s.web.files[path] = ensureVmc(ca, domain, special("@bimi-tiny-ps"))
    writeSite(nginxDir, s)
    // --file's bodies over the site's: written as they are (not read as scenarios.json's "@" forms).
    for (const f of published) write(join(nginxDir, "www", domain, f.path), f.body)
    blocks = serverBlocks(nginxDir, s, ensureWebCert(ca, domain))
  }
  const webAddrs = [current.web?.addr, s.web?.addr].filter((a) => a !== undefined)
  if (edit(join(nginxDir, "nginx.conf"), (t) => replaceServerBlocks(t, webAddrs, blocks)))
    actions.push("nginx")

  // Caches: the domain's names (DS and keys included), the reverse names and DNSBL names touched.
  actions.push(`flush ${domain}`)
  for (const a of addrs) {
    actions.push(`flush ${reverseName(a)}`)
    for (const bl of DNSBLS) actions.push(`flush ${blName(a)}.${bl}.`)
  }
  actions.push(
    `verify ${domain} ${s.dnssec === "bogus-ds" || s.dnssec === "expired" ? "bogus" : policy ? "secure" : "insecure"}`
  )
  for (const h of [...served, ...esmtpHosts]) actions.push(`listen ${h.addr} 25`)
  if (s.web && s.web.server !== "slow")
    actions.push(`listen ${s.web.addr} ${s.web.https === false ? 80 : 443}`)
  actions.push(
    as === domain
      ? `done ${domain} serves its own scenario${ttl === undefined ? "" : ` (TTL ${ttl} s)`}`
      : `done ${domain} serves ${as}'s scenario (scripts/world/mutate ${domain} --reset restores it)`
  )

  // What was built: the manifest as the world now is, and the mutation (none after a reset).
  const entry = manifestEntry(s, hosts, dkim.keys)
  if (as !== domain) entry.mutatedAs = as
  manifest.scenarios = manifest.scenarios.map((x) => (x.domain === domain ? entry : x))
  manifest.zones = manifest.zones.map((z) => (z.name === domain ? { ...z, signed: Boolean(s.dnssec) } : z))
  writeJson(join(root, "manifest.json"), manifest)
  const removed = remove ?? []
  const filed = published.map((f) => ({ url: f.url, body: f.body }))
  if (as === domain && ttl === undefined && added.length === 0 && removed.length === 0 && filed.length === 0)
    delete mutations[domain]
  else
    mutations[domain] = {
      as,
      ...(ttl === undefined ? {} : { ttl }),
      ...(added.length === 0 ? {} : { added }),
      ...(removed.length === 0 ? {} : { removed }),
      ...(filed.length === 0 ? {} : { files: filed }),
      since: mutations[domain]?.as === as ? mutations[domain].since : new Date().toISOString(),
      original
    }
  writeJson(mutationsFile, mutations)
  // Every domain mutate changed since `up`, a reset included (a reset serves the scenario again,
  // but with a higher SOA serial and new signatures): a world with such a domain is not the one
  // `up` made, which the test suite reuses only when the domain is a synthetic copy (its own).
  const touchedFile = join(root, "touched.json")
  const touched = existsSync(touchedFile) ? readJson(touchedFile) : {}
  touched[domain] = { synthetic: own.synthetic === true, at: new Date().toISOString() }
  writeJson(touchedFile, touched)
  process.stdout.write(actions.join("\n") + "\n")
}

try {
  main()
} catch (e) {
  process.stderr.write(`world: ${e.message}\n`)
  process.exit(e instanceof UsageError ? 2 : 1)
}
