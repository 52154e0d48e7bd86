/** What the security.txt check gathers for the example domain: a current file under /.well-known/. */
import { DOMAIN } from "../../kernel/examples/ExampleZone.ts"

const SECURITY_TXT = `Contact: mailto:security@${DOMAIN}
Contact: https://${DOMAIN}/security/report
Expires: 2027-05-31T00:00:00.000Z
Encryption: https://${DOMAIN}/security/pgp-key.asc
Preferred-Languages: en, nl
Canonical: https://${DOMAIN}/.well-known/security.txt
Policy: https://${DOMAIN}/security/disclosure-policy
`

export const exampleGathered = () => ({
  domain: DOMAIN,
  gathered: {
    wellKnown: {
      kind: "response" as const,
      url: `https://${DOMAIN}/.well-known/security.txt`,
      status: 200,
      contentType: "text/plain; charset=utf-8",
      body: SECURITY_TXT,
      truncated: false,
      redirects: []
    },
    legacy: null,
    signature: null
  }
})
