#!/usr/bin/env node
// The MX hosts with `requiretls` (docs/world.md): each served by lib/esmtp.mjs on its address(es),
// port 25, from data/world/esmtp.json (lib/mail.mjs esmtpConfig). Runs even when no MX asks for
// it, so that `up`, `status` and `down` treat it as every other world server.
import { readFileSync } from "node:fs"
import { createEsmtpServer, secureContext } from "./lib/esmtp.mjs"

const config = JSON.parse(readFileSync(process.argv[2] ?? "data/world/esmtp.json", "utf8"))
const domains = new Set(config.domains)
const servers = []
for (const h of config.servers) {
  const context =
    h.tls === "none" ? undefined : secureContext({ key: readFileSync(h.key), cert: readFileSync(h.cert) })
  for (const addr of [h.addr, ...(h.aaaa ? [h.aaaa] : [])]) {
    const server = createEsmtpServer({ name: h.host, context, requiretls: h.requiretls, domains })
    // An address taken (another world, a Postfix listener) is fatal: `up` reports and restarts it.
    server.on("error", (e) => {
      console.error(`esmtp: ${h.host} on ${addr}:25: ${e.message}`)
      process.exit(1)
    })
    server.listen(25, addr)
    servers.push(server)
  }
}
console.error(`esmtp: ${servers.length} listeners`)
// Nothing to serve keeps no handle open: the process stays up for `status` all the same.
const alive = setInterval(() => {}, 1 << 30)

// A fault in one session must not end the others (the world's MX stays up for a whole test run).
process.on("uncaughtException", (e) => console.error(`esmtp: ${e.stack ?? e}`))

const stop = () => {
  clearInterval(alive)
  for (const s of servers) {
    s.close()
    s.destroyAll()
  }
  process.exit(0)
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
