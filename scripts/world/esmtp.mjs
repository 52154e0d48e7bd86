#!/usr/bin/env node
// The MX hosts with `requiretls` (docs/world.md): each served by lib/esmtp.mjs on its address(es),
// port 25, from data/world/esmtp.json (lib/mail.mjs esmtpConfig). Runs even when no MX asks for
// it, so that `up`, `status` and `down` treat it as every other world server.
// SIGHUP (scripts/world/mutate): read the file again; listeners no longer wanted (or changed) close
// at once, then it logs "esmtp: reload"; new ones are opened, retrying while the address is still
// taken (Postfix's smtpd processes keep a listener it dropped open until they go idle), and once
// every one listens it logs "esmtp: ready". Sessions already open run on.
import { readFileSync } from "node:fs"
import { createEsmtpServer, secureContext } from "./lib/esmtp.mjs"

const file = process.argv[2] ?? "data/world/esmtp.json"
/** How long an address may stay taken before the server gives up on it. */
const BIND_RETRY_MS = 60_000
const domains = new Set()
/** addr -> { spec (JSON of its host entry), server } */
const listening = new Map()
let generation = 0

const listen = (server, addr, gen, since = Date.now()) =>
  new Promise((resolve) => {
    const failed = (e) => {
      server.off("listening", ok)
      if (gen !== generation) return resolve(false)
      if (e.code === "EADDRINUSE" && Date.now() - since < BIND_RETRY_MS)
        return setTimeout(() => (server.close(), listen(server, addr, gen, since).then(resolve)), 200)
      console.error(`esmtp: ${addr}:25: ${e.message}`)
      // Not kept as listening: the next reload tries again.
      if (listening.get(addr)?.server === server) listening.delete(addr)
      resolve(false)
    }
    const ok = () => {
      server.off("error", failed)
      resolve(true)
    }
    server.once("error", failed)
    server.once("listening", ok)
    server.listen(25, addr)
  })

/** Serve what `config` says: close what it no longer names, open what is new. True when all listen. */
const apply = async (config) => {
  const gen = ++generation
  domains.clear()
  for (const d of config.domains) domains.add(d)
  const wanted = new Map()
  for (const h of config.servers)
    for (const addr of [h.addr, ...(h.aaaa ? [h.aaaa] : [])]) wanted.set(addr, { h, spec: JSON.stringify(h) })
  for (const [addr, l] of listening)
    if (wanted.get(addr)?.spec !== l.spec) {
      l.server.close()
      listening.delete(addr)
    }
  console.error(`esmtp: reload (${listening.size} kept, ${wanted.size - listening.size} to open)`)
  const opened = []
  for (const [addr, { h, spec }] of wanted) {
    if (listening.has(addr)) continue
    const context =
      h.tls === "none" ? undefined : secureContext({ key: readFileSync(h.key), cert: readFileSync(h.cert) })
    const server = createEsmtpServer({ name: h.host, context, requiretls: h.requiretls, domains })
    listening.set(addr, { spec, server })
    opened.push(listen(server, addr, gen))
  }
  const ok = (await Promise.all(opened)).every(Boolean)
  if (gen === generation && ok) console.error(`esmtp: ready (${listening.size} listeners)`)
  return ok
}

const read = () => JSON.parse(readFileSync(file, "utf8"))

// Nothing to serve keeps no handle open: the process stays up for `status` all the same.
const alive = setInterval(() => {}, 1 << 30)
// A fault in one session must not end the others (the world's MX stays up for a whole test run).
process.on("uncaughtException", (e) => console.error(`esmtp: ${e.stack ?? e}`))
process.on("SIGHUP", () => {
  try {
    apply(read())
  } catch (e) {
    console.error(`esmtp: reload failed: ${e.message}`)
  }
})
const stop = () => {
  clearInterval(alive)
  for (const { server } of listening.values()) {
    server.close()
    server.destroyAll()
  }
  process.exit(0)
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)

// An address taken at start (another world, a Postfix listener) is fatal: `up` reports and restarts it.
if (!(await apply(read()))) process.exit(1)
