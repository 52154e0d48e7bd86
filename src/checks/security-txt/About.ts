/** What the security.txt check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { NO_WEB, item } from "../../kernel/Nis2Evidence.ts"
import { declared } from "../../kernel/Declaration.ts"
import type { Served } from "../../kernel/Served.ts"
import { SecurityTxtResult } from "./SecurityTxtResult.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { SECURITY_TXT_SPECS, rules } from "./Rules.ts"

export const about = declared({
  id: "security-txt",
  title: "security.txt",
  category: "security",
  result: SecurityTxtResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "securityTxt",
    title: "security.txt",
    titleNl: "security.txt",
    rank: 143,
    sources: ["rfc9116"],
    facts: [
      "url",
      "verdict",
      "fetchedUrl",
      "contentType",
      "contact",
      "expires",
      "canonical",
      "signed",
      "redirectedTo",
      "errors",
      "warnings",
      "fetchError"
    ],
    generator: null
  },
  columns: [],
  nis2: [
    {
      measure: "e",
      record: SECURITY_TXT_SPECS.securityTxt.id,
      weight: 1,
      rank: 83,
      text: item(
        {
          en: "Vulnerability disclosure contact (security.txt)",
          nl: "Meldpunt voor kwetsbaarheden (security.txt)"
        },
        {
          en: "A current security.txt says where to report a vulnerability.",
          nl: "Een geldige security.txt zegt waar een kwetsbaarheid gemeld kan worden."
        },
        NO_WEB
      )
    }
  ],
  deepScans: ["web"],
  // The signature's findings cost no points of their own: the rule judges the file, which a bad
  // signature makes invalid (the rule names it too; a key not found leaves the file as it is).
  findings: (r) => [
    ...(r.signature?.verified === "bad" ? ["security_txt_signature_bad"] : []),
    ...(r.signature?.keyStatus === "expired"
      ? ["security_txt_signing_key_expired"]
      : r.signature?.keyStatus === "expiring"
        ? ["security_txt_signing_key_expiring"]
        : [])
  ]
})

/** Served alone: `GET /api/web/security-txt?domain=` (kernel/Served.ts). */
export const served: Served = {
  group: "web",
  name: "securityTxt",
  path: "/web/security-txt",
  summary: "Check the domain's security.txt",
  description:
    "Fetches https://<domain>/.well-known/security.txt (RFC 9116), and the legacy /security.txt when that has none, and judges it: Contact and Expires present, Expires in the future and under a year away, https URIs, served as text/plain, Canonical listing the URL it was fetched from, no redirect to another host, and the OpenPGP signature when signed (well formed, then verified with the key published at an https Encryption URL or in the Web Key Directory of a mailto contact, and that key's expiry; a key not found is unknown). A timeout is unknown, never missing.",
  cost: "costly",
  example: "example.com: a current security.txt under /.well-known/",
  rank: 50
}
