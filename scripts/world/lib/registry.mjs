// The world's registry (docs/world.md, "The registry"): what its RDAP server answers for each
// domain, and the bootstrap file (RFC 9224) that maps the world's TLDs to that server.
import { join } from "node:path"
import { BASE_TLDS, INFRA, INFRA_DOMAINS } from "./model.mjs"
import { write } from "./util.mjs"

const DAY = 86_400_000
/** How long a scenario's registration runs when it says nothing (`rdap.expiresInDays`). */
const DEFAULT_DAYS = 400

/**
 * rdap.json (read by scripts/world/rdap.mjs) and rdap-bootstrap.json (WORLD_RDAP_BOOTSTRAP).
 * A scenario registers its domain unless `rdap.registered` is false; `rdap.expiresInDays` counts
 * from now (when the world is generated).
 */
export const generateRegistry = (root, planned, cert) => {
  const now = Date.now()
  const domains = {}
  const entry = (days) => ({
    registered: "2015-03-01T00:00:00.000Z",
    expires: new Date(now + days * DAY).toISOString()
  })
  for (const name of INFRA_DOMAINS) domains[name] = entry(DEFAULT_DAYS)
  for (const s of planned) {
    if (s.rdap?.registered === false) continue
    domains[s.domain] = entry(s.rdap?.expiresInDays ?? DEFAULT_DAYS)
  }
  const config = {
    generated: new Date(now).toISOString(),
    rdap: INFRA.registry.rdap,
    hosting: INFRA.registry.hosting,
    key: cert.key,
    cert: cert.cert,
    domains
  }
  write(join(root, "rdap.json"), JSON.stringify(config, null, 2) + "\n")
  const tlds = [...new Set([...BASE_TLDS, ...planned.map((s) => s.tld)])].sort()
  const bootstrap = {
    version: "1.0",
    publication: config.generated,
    description: "RDAP bootstrap of the test world (RFC 9224): every TLD of the world at its registry",
    services: [[tlds, [`https://${INFRA.registry.host}/`]]]
  }
  const path = join(root, "rdap-bootstrap.json")
  write(path, JSON.stringify(bootstrap, null, 2) + "\n")
  return path
}
