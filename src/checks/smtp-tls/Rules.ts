/** The rules of the SMTP TLS check (docs/scoring.md): STARTTLS and a valid certificate on every mail server. */
import type { ScanResult } from "../ScanResult.ts"
import {
  fail,
  judge,
  notApplicable,
  pass,
  type Rules,
  type Ruling,
  scored,
  spec,
  unknown,
  type Verdict
} from "../Declaration.ts"
import { noMailServers } from "../dns/Rules.ts"

export const SMTP_TLS_SPECS = {
  starttls: spec({
    id: "security.mx.starttls",
    title: "STARTTLS on every mail server",
    category: "security",
    maxPoints: 5,
    level: "required",
    critical: true,
    rule: "Every MX address offers STARTTLS with TLS 1.2 or later (the worst address counts)",
    rank: 10
  }),
  mxCert: spec({
    id: "security.mx.cert",
    title: "Mail server certificates",
    category: "security",
    maxPoints: 3,
    level: "required",
    rule: "Every MX certificate is trusted, names the host and is not expired",
    rank: 20
  })
} as const

const TLS_OK = new Set(["TLSv1.2", "TLSv1.3"])

const records = (scan: Pick<ScanResult, "checks">): ReadonlyArray<Ruling> => {
  const c = scan.checks
  const smtp = c["smtp-tls"]
  const servers = judge(smtp, (s) => noMailServers(s) ?? pass(""))
  const starttls = judge(smtp, (s): Verdict => {
    if (servers.status !== "pass") return servers
    const bad = s.servers.filter(
      (v) => v.starttls === false || (v.tlsVersion !== null && !TLS_OK.has(v.tlsVersion))
    )
    if (bad.length > 0)
      return fail(`no STARTTLS with TLS 1.2+ on ${bad.map((v) => v.ip).join(", ")}`, "starttls_missing")
    return s.servers.some((v) => v.starttls === null)
      ? unknown("a mail server could not be reached")
      : pass(`STARTTLS on ${s.servers.length} address(es)`)
  })
  const mxCert = judge(smtp, (s): Verdict => {
    if (servers.status !== "pass") return servers
    const tls = s.servers.filter((v) => v.starttls === true)
    if (tls.length === 0)
      return s.servers.some((v) => v.starttls === null)
        ? unknown("no certificate could be read")
        : notApplicable("no STARTTLS")
    const bad = tls.filter((v) => v.certificateValid === false)
    if (bad.length > 0)
      return fail(
        `certificate not valid on ${bad.map((v) => `${v.host} (${v.trustError ?? v.hostnameError ?? (v.expired ? "expired" : "invalid")})`).join(", ")}`,
        "mx_cert_invalid"
      )
    return tls.some((v) => v.certificateValid === null)
      ? unknown("a certificate could not be judged")
      : pass("every certificate is valid")
  })
  return [scored(SMTP_TLS_SPECS.starttls, starttls), scored(SMTP_TLS_SPECS.mxCert, mxCert)]
}

export const rules: Rules = { specs: Object.values(SMTP_TLS_SPECS), judge: records }
