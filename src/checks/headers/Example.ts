/**
 * What the headers check gathers for the example domain: the home page's response, strong headers
 * but no Permissions-Policy.
 */
import { DOMAIN, SITE_CSP } from "../../kernel/examples/ExampleZone.ts"

export const exampleGathered = () => ({
  domain: DOMAIN,
  gathered: {
    kind: "response" as const,
    status: 200,
    headers: {
      "strict-transport-security": "max-age=63072000; includeSubDomains; preload",
      "content-security-policy": SITE_CSP,
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "strict-origin-when-cross-origin",
      "content-type": "text/html; charset=utf-8"
    },
    finalUrl: `https://www.${DOMAIN}/`,
    redirects: 1,
    tlsError: null,
    metaCsp: [],
    bodyTruncated: false,
    certificateExpiresAt: "2027-02-20T12:00:00.000Z",
    setCookies: ["__Host-session=3f9a; Path=/; Secure; HttpOnly; SameSite=Lax"],
    scripts: [{ src: "/app.js", integrity: null, crossorigin: null }],
    corsHeaders: {}
  }
})
