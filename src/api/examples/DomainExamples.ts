/**
 * Examples of the verified-domains group: example.com claimed by a tenant and verified, each by the
 * service's own view of a claim (`claimView`).
 */
import type { ClaimRow } from "../../monitor/access/DomainClaimStore.ts"
import { claimView } from "../../monitor/access/VerifiedDomains.ts"
import { DOMAIN, NOW } from "../../kernel/examples/ExampleZone.ts"
import type { Example } from "./Example.ts"

/** The service's REPORTS_DOMAINS in the examples. */
const REPORTS = "reports.audit.example.com"

/** The tenant's report tag (monitor/access/TenantTags.ts), its report address's local part. */
const TAG = "kq2m4xrab3cd5efz"

const pending = (): ClaimRow => ({
  tenant: "acme",
  domain: DOMAIN,
  token: "domain-audit-verification=Qm9vdHN0cmFwcGluZyB0aGUgY2hhbGxlbmdlIHRva2V",
  state: "pending",
  createdAt: NOW.getTime() - 600_000,
  verifiedAt: null,
  checkedAt: null,
  lastCheck: null,
  authenticated: false,
  publicReports: false
})

const verified = (): ClaimRow => ({
  ...pending(),
  state: "verified",
  verifiedAt: NOW.getTime(),
  checkedAt: NOW.getTime(),
  lastCheck: "found",
  authenticated: true
})

export const domainExamples: Readonly<Record<string, Example>> = {
  "domains.claim": { request: "claim example.com", answer: () => claimView(pending(), TAG, REPORTS) },
  "domains.list": {
    request: "the tenant's one domain",
    answer: () => ({ domains: [claimView(verified(), TAG, REPORTS)] })
  },
  "domains.get": { request: "example.com, verified", answer: () => claimView(verified(), TAG, REPORTS) },
  "domains.verify": {
    request: "verify example.com once its record is published",
    answer: () => claimView(verified(), TAG, REPORTS)
  },
  "domains.publicReports": {
    request: "publish example.com's reports",
    answer: () => claimView({ ...verified(), publicReports: true }, TAG, REPORTS)
  }
}
