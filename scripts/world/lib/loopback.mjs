// The world never leaves loopback: no world server may send a DNS question (or any packet) to the
// machine's own resolver. A server resolves either through the world's resolvers and name servers
// (INFRA), or not at all. This module reads the generated configs and names every setting that
// would break that rule; `scripts/world/loopback.mjs` (run by `status`) and test/world/loopback.test.ts
// use it. Each audit takes file texts, so it judges the generator's output as well as data/world.
import { existsSync, readFileSync } from "node:fs"
import { isIP } from "node:net"
import { join } from "node:path"
import { INFRA } from "./model.mjs"

/** Every address of the world's own DNS: the Knot instances and the Unbound instances. */
export const WORLD_DNS = new Set([
  ...INFRA.knot,
  INFRA.knotLag,
  INFRA.unbound,
  ...INFRA.propagation.map((p) => p.addr),
  INFRA.lagging.addr
])

/** "127.0.0.1", "[::1]", "127.25.0.1:25", "[::1]:25", "::1@53" -> the address part. */
const addressOf = (text) => {
  const t = text.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(t)
  if (bracketed) return bracketed[1]
  const at = t.split("@")[0]
  if (isIP(at)) return at
  const colon = /^([^:]+):\d+$/.exec(at)
  return colon ? colon[1] : at
}
const isLiteral = (text) => isIP(addressOf(text)) !== 0

/** The nameservers of /etc/resolv.conf: the machine's resolver, named in the messages. */
export const machineResolvers = (text) =>
  text
    .split("\n")
    .map((l) => /^\s*nameserver\s+(\S+)/.exec(l)?.[1])
    .filter((a) => a !== undefined)

/** Postfix main.cf as a map (continuation lines joined; later settings win, as in Postfix). */
const postfixParams = (text) => {
  const out = new Map()
  for (const line of text.replace(/\n[ \t]+/g, " ").split("\n")) {
    const m = /^([a-z0-9_]+)\s*=\s*(.*)$/.exec(line.trim())
    if (m) out.set(m[1], m[2].trim())
  }
  return out
}

/** master.cf entries: [service, type, ..., command] with their `-o name=value` overrides. */
const masterEntries = (text) =>
  text
    .replace(/\n[ \t]+/g, " ")
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.trim().startsWith("#"))
    .map((l) => {
      const fields = l.trim().split(/\s+/)
      const overrides = new Map()
      for (let i = 8; i < fields.length; i++)
        if (fields[i] === "-o" && fields[i + 1]) {
          const [k, ...v] = fields[i + 1].split("=")
          overrides.set(k, v.join("="))
        }
      return { service: fields[0] ?? "", type: fields[1] ?? "", command: fields[7] ?? "", overrides }
    })

/**
 * Postfix (postconf(5)): smtpd looks each client's name up (PTR, then A/AAAA) with the C library,
 * that is through /etc/resolv.conf, unless `smtpd_peername_lookup = no`. The SMTP and LMTP clients
 * look MX and addresses up the same way, so none may run: every transport discards.
 */
export const auditPostfix = (mainCf, masterCf) => {
  const problems = []
  const main = postfixParams(mainCf)
  if (main.get("smtpd_peername_lookup") !== "no")
    problems.push(
      "postfix: smtpd looks up every client's PTR through the machine's resolver (set smtpd_peername_lookup = no)"
    )
  for (const a of (main.get("inet_interfaces") ?? "all").split(/[\s,]+/).filter(Boolean))
    if (!["all", "loopback-only"].includes(a) && !isLiteral(a))
      problems.push(`postfix: inet_interfaces ${a} is not an address literal`)
  for (const key of ["default_transport", "relay_transport", "local_transport", "virtual_transport"]) {
    const value = main.get(key) ?? ""
    // virtual(8) writes the mailbox's files and looks nothing up.
    const files = key === "virtual_transport" && value === "virtual"
    if (!files && !/^(discard|error)(:|$)/.test(value))
      problems.push(
        `postfix: ${key} = ${value || "(default)"} would deliver, looking up MX through the machine's resolver`
      )
  }
  for (const e of masterEntries(masterCf)) {
    if (e.type === "inet" && !isLiteral(e.service))
      problems.push(
        `postfix: listener ${e.service} is not an address literal (resolved through the machine's resolver)`
      )
    if (e.command === "smtp" || e.command === "lmtp")
      problems.push(
        `postfix: master.cf runs an ${e.command} client (${e.service}), which resolves through the machine's resolver`
      )
    if (e.overrides.has("smtpd_peername_lookup") && e.overrides.get("smtpd_peername_lookup") !== "no")
      problems.push(`postfix: listener ${e.service} turns smtpd_peername_lookup back on`)
  }
  return problems
}

/**
 * nginx resolves names in `listen` and upstream directives with the C library when it reads its
 * configuration; at run time it resolves only through its `resolver` directive.
 */
export const auditNginx = (conf) => {
  const problems = []
  const statements = conf
    .replace(/#[^\n]*/g, "")
    .split(/[;{}]/)
    .map((s) => s.trim().split(/\s+/))
  for (const [name, ...args] of statements) {
    if (name === "listen" && args[0] && !isLiteral(args[0]))
      problems.push(`nginx: listen ${args[0]} is not an address literal`)
    if (name === "resolver")
      for (const a of args.filter((x) => !x.includes("=")))
        if (!WORLD_DNS.has(addressOf(a))) problems.push(`nginx: resolver ${a} is not a world resolver`)
    if (/^(proxy|fastcgi|uwsgi|scgi|grpc|memcached)_pass$/.test(name ?? "")) {
      const host = (args[0] ?? "").replace(/^[a-z]+:\/\//, "").split("/")[0]
      if (!isLiteral(host) && !host.startsWith("unix:"))
        problems.push(
          `nginx: ${name} ${args[0]} names a host that would be resolved through the machine's resolver`
        )
    }
  }
  return problems
}

/** Knot answers; it asks nobody, but its listen and remote addresses must be literals. */
export const auditKnot = (conf) =>
  conf
    .split("\n")
    .map((l) => /^\s*-?\s*(listen|address|via):\s*(\S+)/.exec(l))
    .filter((m) => m !== null)
    .flatMap((m) => (isLiteral(m[2]) ? [] : [`knot: ${m[1]} ${m[2]} is not an address literal`]))

/**
 * Unbound iterates from its root hints (without a root-hints file it uses the internet's root
 * servers, compiled in), and forwards or stubs only where its config says: every one of those
 * addresses must be the world's. `hints` reads a root-hints file named by the config.
 */
export const auditUnbound = (conf, hints) => {
  const problems = []
  const rootHints = /^\s*root-hints:\s*"?([^"\n]+)"?/m.exec(conf)?.[1]
  if (rootHints === undefined)
    problems.push("unbound: no root-hints, so it iterates from the internet's root servers")
  else {
    const text = hints(rootHints)
    if (text === undefined) problems.push(`unbound: root-hints ${rootHints} is missing`)
    else
      for (const m of text.matchAll(/\s(?:A|AAAA)\s+(\S+)/g))
        if (!WORLD_DNS.has(m[1])) problems.push(`unbound: root hint ${m[1]} is not a world name server`)
  }
  for (const m of conf.matchAll(/^\s*(forward-addr|stub-addr):\s*(\S+)/gm))
    if (!WORLD_DNS.has(addressOf(m[2]))) problems.push(`unbound: ${m[1]} ${m[2]} is not a world server`)
  if (/^\s*forward-zone:/m.test(conf) && !/^\s*forward-addr:/m.test(conf))
    problems.push("unbound: a forward-zone without forward-addr")
  return problems
}

/** The node servers (slow.mjs) listen on literals; node resolves a host name with the C library. */
export const auditSlow = (json) =>
  JSON.parse(json).flatMap((s) =>
    isLiteral(s.host) ? [] : [`slow: ${s.kind} server on ${s.host} is not an address literal`]
  )

/** esmtp.mjs (esmtp.json) listens on literals too, and looks nothing up. */
export const auditEsmtp = (json) =>
  JSON.parse(json).servers.flatMap((s) =>
    [s.addr, ...(s.aaaa ? [s.aaaa] : [])]
      .filter((a) => !isLiteral(a))
      .map((a) => `esmtp: the server of ${s.host} on ${a} is not an address literal`)
  )

/** Audit every generated config under a world root (data/world); missing files are problems too. */
export const auditWorld = (root) => {
  const read = (...parts) => {
    const path = join(root, ...parts)
    return existsSync(path) ? readFileSync(path, "utf8") : undefined
  }
  const problems = []
  const need = (label, text, audit) =>
    text === undefined
      ? problems.push(`${label}: config not found under ${root}`)
      : problems.push(...audit(text))
  need("postfix", read("postfix", "main.cf"), (main) =>
    auditPostfix(main, read("postfix", "master.cf") ?? "")
  )
  need("nginx", read("nginx", "nginx.conf"), auditNginx)
  for (const k of ["dns", "dns-lag"]) need(`knot (${k})`, read(k, "knot.conf"), auditKnot)
  for (const u of ["unbound", "unbound-propagation", "unbound-lag"])
    need(u, read(u, "unbound.conf"), (conf) =>
      auditUnbound(conf, (path) => (existsSync(path) ? readFileSync(path, "utf8") : undefined))
    )
  need("slow", read("slow.json"), auditSlow)
  need("esmtp", read("esmtp.json"), auditEsmtp)
  need("pq", read("pq.json"), (json) =>
    JSON.parse(json)
      .servers.flatMap((s) => [s.addr, ...(s.aaaa ? [s.aaaa] : [])])
      .filter((a) => !isLiteral(a))
      .map((a) => `pq: a server on ${a} is not an address literal`)
  )
  need("rdap", read("rdap.json"), (json) => {
    const c = JSON.parse(json)
    return [c.rdap, c.hosting]
      .filter((a) => !isLiteral(a))
      .map((a) => `rdap: a server on ${a} is not an address literal`)
  })
  return problems
}
