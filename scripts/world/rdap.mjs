#!/usr/bin/env node
// The world's registry and one hosting service, staged where nginx cannot be (docs/world.md):
// - an RDAP server (RFC 9082 queries, RFC 9083 answers) for the world's TLDs: every registered
//   domain answers a domain object with its expiry, every other name 404 (not registered);
// - a hosting service that answers every name with the "no such site" page of an unclaimed site,
//   as GitHub Pages does (the fingerprint src/checks/takeover/Signatures.ts knows).
import { readFileSync } from "node:fs"
import https from "node:https"

const config = JSON.parse(readFileSync(process.argv[2] ?? "data/world/rdap.json", "utf8"))
const tls = { key: readFileSync(config.key), cert: readFileSync(config.cert) }
const sockets = new Set()
const track = (server) =>
  server.on("connection", (sock) => {
    sockets.add(sock)
    sock.on("close", () => sockets.delete(sock))
  })

const rdapJson = (res, status, body) => {
  res.writeHead(status, { "content-type": "application/rdap+json", "access-control-allow-origin": "*" })
  res.end(JSON.stringify(body))
}

const domainObject = (name, entry) => ({
  rdapConformance: ["rdap_level_0"],
  objectClassName: "domain",
  handle: `${name.replace(/\./g, "_").toUpperCase()}-WORLD`,
  ldhName: name,
  status: entry.status ?? ["client transfer prohibited"],
  events: [
    { eventAction: "registration", eventDate: entry.registered },
    { eventAction: "expiration", eventDate: entry.expires },
    { eventAction: "last update of RDAP database", eventDate: config.generated }
  ],
  nameservers: [{ objectClassName: "nameserver", ldhName: "ns1.dns-host.net" }],
  notices: [{ title: "The test world", description: ["Registration data of the world's private internet."] }]
})

track(
  https.createServer(tls, (req, res) => {
    const url = new URL(req.url ?? "/", "https://rdap")
    const match = /^\/domain\/([^/]+)$/.exec(url.pathname)
    if (!match) return rdapJson(res, 400, { errorCode: 400, title: "only domain queries are served here" })
    const name = decodeURIComponent(match[1]).toLowerCase().replace(/\.$/, "")
    const entry = config.domains[name]
    if (!entry)
      return rdapJson(res, 404, {
        errorCode: 404,
        title: "Not Found",
        description: [`${name} is not registered`]
      })
    return rdapJson(res, 200, domainObject(name, entry))
  })
).listen(443, config.rdap)

track(
  https.createServer(tls, (req, res) => {
    res.writeHead(404, { "content-type": "text/html; charset=utf-8" })
    res.end(
      "<!doctype html><title>Site not found</title>\n<h1>404</h1>\n<p><strong>There isn't a GitHub Pages site here.</strong></p>\n"
    )
  })
).listen(443, config.hosting)

const stop = () => {
  for (const s of sockets) s.destroy()
  process.exit(0)
}
process.on("SIGTERM", stop)
process.on("SIGINT", stop)
