#!/usr/bin/env node
// Servers that are slow on purpose (staged where nginx/Postfix cannot be): an SMTP listener whose
// banner never comes, and HTTPS hosts whose response headers come after `delayMs`.
import { readFileSync } from "node:fs"
import net from "node:net"
import https from "node:https"

const config = JSON.parse(readFileSync(process.argv[2] ?? "data/world/slow.json", "utf8"))
const sockets = new Set()
for (const c of config) {
  if (c.kind === "smtp") {
    const server = net.createServer((sock) => {
      // Accept, say nothing, hang up after ten minutes at the latest.
      sockets.add(sock)
      sock.setTimeout(600_000, () => sock.destroy())
      sock.on("close", () => sockets.delete(sock))
      sock.on("error", () => {})
    })
    server.listen(c.port, c.host)
  } else if (c.kind === "https") {
    const server = https.createServer(
      { key: readFileSync(c.key), cert: readFileSync(c.cert) },
      (req, res) => {
        const timer = setTimeout(() => {
          res.writeHead(200, { "content-type": "text/html", "strict-transport-security": "max-age=31536000" })
          res.end("<!doctype html><title>slow</title><p>Finally.</p>\n")
        }, c.delayMs)
        req.on("close", () => clearTimeout(timer))
      }
    )
    server.listen(c.port, c.host)
  }
}
const stop = () => {
  for (const s of sockets) s.destroy()
  process.exit(0)
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
