#!/usr/bin/env node
// Servers staged where nginx/Postfix cannot be: an SMTP listener whose banner never comes, HTTPS
// hosts whose response headers come after `delayMs`, and MX hosts that count their sessions (open
// at once, the peak, and in all) and tell them on a small HTTP status port.
import { readFileSync } from "node:fs"
import http from "node:http"
import net from "node:net"
import https from "node:https"
import { SMTPServer } from "smtp-server"

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
  } else if (c.kind === "counting-smtp") {
    countingMx(c)
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
/**
 * An MX that counts its sessions: `silent` accepts and never speaks (a server that stalls), else
 * it speaks SMTP with STARTTLS under the host's certificate and takes no mail. Its counts are
 * served as JSON at http://ADDRESS:statusPort/; POST /reset zeroes them.
 */
function countingMx(c) {
  const counts = { open: 0, peak: 0, total: 0 }
  // The silent server's sessions: one per socket.
  const opened = (sock) => {
    counts.total++
    counts.peak = Math.max(counts.peak, ++counts.open)
    sockets.add(sock)
    sock.once("close", () => {
      counts.open--
      sockets.delete(sock)
    })
    sock.on("error", () => {})
  }
  if (c.silent) {
    const server = net.createServer((sock) => {
      opened(sock)
      sock.setTimeout(600_000, () => sock.destroy())
    })
    server.listen(c.port, c.host)
  } else {
    // Counted by session, not by socket: after STARTTLS the TLS socket owns the connection and
    // the plain one never reports its close.
    const live = new Set()
    const smtp = new SMTPServer({
      name: c.name,
      banner: "counting ESMTP",
      key: readFileSync(c.key),
      cert: readFileSync(c.cert),
      authOptional: true,
      disabledCommands: ["AUTH"],
      // No look-up of the client's name: the world's servers ask nobody.
      disableReverseLookup: true,
      logger: false,
      onConnect: (session, callback) => {
        live.add(session.id)
        counts.total++
        counts.peak = Math.max(counts.peak, ++counts.open)
        callback()
      },
      onClose: (session) => {
        if (live.delete(session.id)) counts.open--
      },
      onData: (stream, _session, callback) => {
        stream.resume()
        stream.on("end", () => callback(new Error("550 this server takes no mail")))
      }
    })
    smtp.on("error", () => {})
    smtp.listen(c.port, c.host)
  }
  http
    .createServer((req, res) => {
      if (req.method === "POST" && req.url === "/reset") {
        counts.peak = counts.open
        counts.total = 0
      }
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify(counts) + "\n")
    })
    .listen(c.statusPort, c.host)
}

const stop = () => {
  for (const s of sockets) s.destroy()
  process.exit(0)
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
