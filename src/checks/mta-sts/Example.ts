/**
 * What the MTA-STS check gathers for the example domain: its record, the policy served in
 * `mode` (RFC 8461 5; the example scan's is "testing", a week later's "enforce"), its MX and its
 * TLS reporting.
 */
import { DOMAIN, mtaStsPolicy, MX_HOST } from "../../kernel/examples/ExampleZone.ts"

const policyUrl = `https://mta-sts.${DOMAIN}/.well-known/mta-sts.txt`

export const gatheredIn = (mode: "testing" | "enforce") => ({
  domain: DOMAIN,
  txt: { name: `_mta-sts.${DOMAIN}`, records: ["v=STSv1; id=20261124T000000"] },
  policy: {
    url: policyUrl,
    status: 200,
    contentType: "text/plain",
    body: new TextEncoder().encode(mtaStsPolicy(mode)),
    finalUrl: policyUrl,
    redirects: 0,
    tlsAuthorized: true,
    tlsError: null
  },
  mx: { hosts: [MX_HOST], nullMx: false, implicit: false },
  tlsRpt: { name: `_smtp._tls.${DOMAIN}`, records: ["v=TLSRPTv1; rua=mailto:tls-reports@example.com"] }
})

export const exampleGathered = () => gatheredIn("testing")
