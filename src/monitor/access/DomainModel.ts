/**
 * The shapes of verified domains, declared once: the contract (`api/Domains.ts`) and the service
 * (`VerifiedDomains.ts`) read them from here (DESIGN.md principle 1).
 */
import { NormalDomain } from "../../records/DomainName.ts"
import { Schema } from "effect"
import { DateTime, Nullable } from "../../records/Schemas.ts"

/** The TXT record a tenant publishes to prove it controls the domain. */
export const Challenge = Schema.Struct({
  name: Schema.String.annotations({ description: "_domain-audit-challenge.<domain>" }),
  type: Schema.Literal("TXT"),
  value: Schema.String.annotations({ description: "the token: domain-audit-verification=..." })
}).annotations({ identifier: "Challenge" })

export const DomainClaimView = Schema.Struct({
  domain: NormalDomain,
  state: Schema.Literal("pending", "verified", "lapsed").annotations({
    description:
      "pending: the record was not found yet; verified: found at the last look-up; lapsed: verified once, the record gone since (a failed look-up changes nothing)"
  }),
  challenge: Challenge,
  createdAt: DateTime,
  verifiedAt: Nullable(DateTime).annotations({ description: "when the record was last found" }),
  checkedAt: Nullable(DateTime).annotations({
    description: "when the record was last looked up; verification is re-checked daily"
  }),
  lastCheck: Nullable(Schema.String).annotations({
    description: "what the last look-up said: found, not found, or why it failed (unknown)"
  }),
  dnssecValidated: Schema.Boolean.annotations({
    description: "the last finding came DNSSEC-validated (the zone is signed and the answer authentic)"
  }),
  publicReports: Schema.Boolean.annotations({
    description: "the received reports of the domain appear in its public pages and reports"
  }),
  reporting: Nullable(
    Schema.Struct({
      address: Schema.String.annotations({
        description:
          "the tenant's report address: <its report tag>@<REPORTS_DOMAINS[0]>; the tag is random, made once per tenant, so the address names no one"
      }),
      dmarc: Schema.Struct({
        name: Schema.String,
        type: Schema.Literal("TXT"),
        rua: Schema.String.annotations({ description: "the rua= tag to add to the domain's DMARC record" })
      }),
      tlsRpt: Schema.Struct({
        name: Schema.String,
        type: Schema.Literal("TXT"),
        value: Schema.String.annotations({ description: "the TLS-RPT record to publish" })
      })
    })
  ).annotations({
    description:
      "where the tenant receives the domain's reports and the records that send them there; null when this service receives no reports by mail (REPORTS_DOMAINS)"
  })
}).annotations({ identifier: "DomainClaim" })
export type DomainClaimView = typeof DomainClaimView.Type

export const DomainClaimList = Schema.Struct({ domains: Schema.Array(DomainClaimView) }).annotations({
  identifier: "DomainClaimList"
})

/** PUT /domains/{domain}/public-reports. */
export const PublicReports = Schema.Struct({
  public: Schema.Boolean.annotations({
    description: "true: show the domain's received reports in its public pages and reports"
  })
})
