/**
 * What the HTTP-to-HTTPS check gathers for the example domain, as its web server would answer:
 * http:// redirects to https:// on the same host, which sends HSTS and redirects to www; www does
 * the same.
 */
import { DOMAIN } from "../../kernel/examples/ExampleZone.ts"

const HSTS = "max-age=63072000; includeSubDomains; preload"
const WWW = `www.${DOMAIN}`

const hop = (url: string, status: number, location: string | null, hsts: string | null = null) => ({
  url,
  status,
  location,
  hsts
})

export const exampleGathered = () => ({
  domain: DOMAIN,
  gathered: {
    apex: {
      kind: "chain" as const,
      hops: [
        hop(`http://${DOMAIN}/`, 301, `https://${DOMAIN}/`),
        hop(`https://${DOMAIN}/`, 301, `https://${WWW}/`, HSTS),
        hop(`https://${WWW}/`, 200, null, HSTS)
      ],
      broken: null
    },
    www: {
      kind: "chain" as const,
      hops: [hop(`http://${WWW}/`, 301, `https://${WWW}/`), hop(`https://${WWW}/`, 200, null, HSTS)],
      broken: null
    }
  }
})
