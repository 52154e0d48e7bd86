#!/usr/bin/env node
// Wait until the world's servers answer. Phase "knot": every zone is served (signed ones with
// RRSIGs). Phase "all": resolvers, nginx, Postfix and esmtp banners and the slow servers. Gives up after
// WORLD_WAIT_MS (60 s): names what does not answer on stderr and prints the world components
// (lib.sh's names) that serve it on stdout, one a line, so that `up` can restart those once.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import dgram from "node:dgram"
import net from "node:net"
import { createRequire } from "node:module"

const require = createRequire(import.meta.url)
const packet = require("dns-packet")
const [root = "data/world", phase = "all"] = process.argv.slice(2)
const m = JSON.parse(readFileSync(join(root, "manifest.json"), "utf8"))
const deadline = Date.now() + Number(process.env.WORLD_WAIT_MS ?? 60_000)

const query = (server, name, type, dnssec = false) =>
  new Promise((resolve) => {
    const sock = dgram.createSocket("udp4")
    const timer = setTimeout(() => (sock.close(), resolve(undefined)), 1000)
    sock.on("message", (msg) => {
      clearTimeout(timer)
      sock.close()
      try {
        resolve(packet.decode(msg))
      } catch {
        resolve(undefined)
      }
    })
    sock.on("error", () => (clearTimeout(timer), sock.close(), resolve(undefined)))
    const q = {
      type: "query",
      id: Math.floor(Math.random() * 65535),
      flags: packet.RECURSION_DESIRED,
      questions: [{ type, name }],
      additionals: [{ type: "OPT", name: ".", udpPayloadSize: 4096, flags: dnssec ? packet.DNSSEC_OK : 0 }]
    }
    sock.send(packet.encode(q), 53, server)
  })

const banner = (host, port, want) =>
  new Promise((resolve) => {
    const s = net.connect({ host, port })
    let buf = ""
    const done = (ok) => (s.destroy(), clearTimeout(t), resolve(ok))
    const t = setTimeout(() => done(want === undefined), 5000)
    s.on("connect", () => want === undefined && done(true))
    s.on("data", (d) => ((buf += d.toString()), buf.includes(want ?? "") && done(true)))
    s.on("error", () => done(false))
  })

const checks = []
if (phase === "knot") {
  for (const z of m.zones) {
    checks.push([`knot zone ${z.name}`, "knot", async () => {
      const r = await query(m.infra.knot[0], z.name, "SOA", true)
      return r?.rcode === "NOERROR" && r.answers.some((a) => a.type === "SOA") && (!z.signed || r.answers.some((a) => a.type === "RRSIG"))
    }]) // prettier-ignore
  }
  for (const name of m.lagZones) {
    checks.push([
      `lagging knot zone ${name}`,
      "knot-lag",
      async () => (await query(m.infra.knotLag, name, "SOA"))?.rcode === "NOERROR"
    ])
  }
} else {
  const resolvers = [
    [m.infra.unbound, "unbound"],
    ...m.infra.propagation.map((p) => [p.addr, "unbound-propagation"]),
    [m.infra.lagging.addr, "unbound-lag"]
  ]
  for (const [r, component] of resolvers) {
    checks.push([
      `resolver ${r}`,
      component,
      async () => (await query(r, "perfect.com", "SOA"))?.rcode === "NOERROR"
    ])
  }
  for (const s of m.scenarios) {
    if (s.web?.server === "pq") checks.push([`pq web ${s.domain}`, "pq", () => banner(s.web.addr, 443)])
    if (s.web && s.web.server !== "slow" && s.web.server !== "pq")
      checks.push([`web ${s.domain}`, "nginx", () => banner(s.web.addr, s.web.https ? 443 : 80)])
    if (s.web?.server === "slow") checks.push([`slow web ${s.domain}`, "slow", () => banner(s.web.addr, 443)])
    for (const mx of s.mx) {
      if (mx.server === "slow" || mx.server === "counting-silent")
        checks.push([`slow mx ${mx.host}`, "slow", () => banner(mx.addr, 25)])
      else if (mx.server === "counting")
        checks.push([`counting mx ${mx.host}`, "slow", () => banner(mx.addr, 25, "220 ")])
      else if (mx.server === "pq")
        checks.push([`pq mx ${mx.host} ${mx.addr}`, "pq", () => banner(mx.addr, 25, "220 ")])
      else if (mx.server === "esmtp")
        checks.push([`esmtp mx ${mx.host} ${mx.addr}`, "esmtp", () => banner(mx.addr, 25, "220 ")])
      else checks.push([`postfix ${mx.host} ${mx.addr}`, "postfix", () => banner(mx.addr, 25, "220 ")])
    }
  }
  if (m.infra.registry) {
    checks.push([`rdap ${m.infra.registry.rdap}`, "rdap", () => banner(m.infra.registry.rdap, 443)])
    checks.push([`hosting ${m.infra.registry.hosting}`, "rdap", () => banner(m.infra.registry.hosting, 443)])
  }
  if (m.infra.mailbox)
    checks.push([
      `postfix mailbox relay ${m.infra.mailbox.relay}`,
      "postfix",
      () => banner(m.infra.mailbox.relay, 25, "220 ")
    ])
}

// A synthetic world has hundreds of listeners: name the first few, count the rest.
const summary = (names) =>
  names.length <= 8 ? names.join(", ") : `${names.slice(0, 8).join(", ")} and ${names.length - 8} more`

/** A pool of `n`: run(fn) starts fn when fewer than n run. */
const pool = (n) => {
  let active = 0
  const queue = []
  const next = () => {
    if (active >= n || queue.length === 0) return
    active++
    const [fn, resolve] = queue.shift()
    fn().then((v) => (active--, resolve(v), next()))
  }
  return (fn) => new Promise((resolve) => (queue.push([fn, resolve]), next()))
}
// Connections go a few at a time: each one to Postfix starts an smtpd, which asks the single
// tlsmgr for entropy and logs through the single postlogd. Hundreds at once (a synthetic world's
// listeners) overran both ("connect to private/tlsmgr: Resource temporarily unavailable",
// "postlogd: fatal: watchdog timeout") and no banner came in time, round after round.
const connections = pool(Number(process.env.WORLD_WAIT_CONNECTIONS ?? 8))
const questions = pool(64)
// Past the deadline a queued check fails at once, so the round ends and the rest are reported.
const run = ([, component, fn]) =>
  (component.startsWith("knot") || component.startsWith("unbound") ? questions : connections)(() =>
    Date.now() > deadline ? Promise.resolve(false) : fn()
  )

let pending = checks
while (pending.length > 0) {
  const results = await Promise.all(pending.map(async (check) => [check, await run(check)]))
  pending = results.filter(([, ok]) => !ok).map(([check]) => check)
  if (pending.length === 0) break
  if (Date.now() > deadline) {
    console.error(`world: not answering: ${summary(pending.map(([name]) => name))}`)
    console.log([...new Set(pending.map(([, component]) => component))].join("\n"))
    process.exit(1)
  }
  await new Promise((r) => setTimeout(r, 200))
}
