/**
 * The example domain's HTTP-to-HTTPS and security.txt results, from the checks' own `analyse` over
 * what its web server would answer: http:// redirects to https:// on the same host, which sends
 * HSTS and redirects to www; www does the same; a signed security.txt under /.well-known/.
 */
import { analyse as analyseRedirect, type Hop } from "./HttpRedirect.ts"
import { analyse as analyseSecurityTxt } from "../security-txt/SecurityTxt.ts"
import { DOMAIN, NOW } from "../../kernel/examples/ExampleZone.ts"

const HSTS = "max-age=63072000; includeSubDomains; preload"
const WWW = `www.${DOMAIN}`

const hop = (url: string, status: number, location: string | null, hsts: string | null = null): Hop => ({
  url,
  status,
  location,
  hsts
})

export const exampleRedirect = () =>
  analyseRedirect(
    DOMAIN,
    {
      apex: {
        kind: "chain",
        hops: [
          hop(`http://${DOMAIN}/`, 301, `https://${DOMAIN}/`),
          hop(`https://${DOMAIN}/`, 301, `https://${WWW}/`, HSTS),
          hop(`https://${WWW}/`, 200, null, HSTS)
        ],
        broken: null
      },
      www: {
        kind: "chain",
        hops: [hop(`http://${WWW}/`, 301, `https://${WWW}/`), hop(`https://${WWW}/`, 200, null, HSTS)],
        broken: null
      }
    },
    NOW
  )

const SECURITY_TXT = `Contact: mailto:security@${DOMAIN}
Contact: https://${DOMAIN}/security/report
Expires: 2027-05-31T00:00:00.000Z
Encryption: https://${DOMAIN}/security/pgp-key.asc
Preferred-Languages: en, nl
Canonical: https://${DOMAIN}/.well-known/security.txt
Policy: https://${DOMAIN}/security/disclosure-policy
`

export const exampleSecurityTxt = () =>
  analyseSecurityTxt(
    DOMAIN,
    {
      wellKnown: {
        kind: "response",
        url: `https://${DOMAIN}/.well-known/security.txt`,
        status: 200,
        contentType: "text/plain; charset=utf-8",
        body: SECURITY_TXT,
        truncated: false,
        redirects: []
      },
      legacy: null
    },
    NOW
  )
