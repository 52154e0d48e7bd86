/** The rules of the SMTP TLS check (docs/scoring.md): STARTTLS and a valid certificate on every mail server. */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { fail, notApplicable, partial, pass, unknown, type Verdict } from "../../kernel/RuleVerdict.ts"
import { noMailServers } from "../dns/Rules.ts"
import type { ServerResult } from "./SmtpTlsResult.ts"
import { worst } from "../../records/TlsRating.ts"
import type { SmtpTlsResult } from "./SmtpTlsResult.ts"

export const SMTP_TLS_SPECS = {
  starttls: spec({
    id: "security.mx.starttls",
    title: "STARTTLS on every mail server",
    titleNl: "STARTTLS op elke mailserver",
    category: "security",
    concerns: "mail",
    foundation: true,
    maxPoints: 5,
    level: "required",
    critical: true,
    rule: "Every MX address offers STARTTLS with TLS 1.2 or later (the worst address counts)",
    rank: 10
  }),
  mxCert: spec({
    id: "security.mx.cert",
    title: "Mail server certificates",
    titleNl: "Certificaten van de mailservers",
    category: "security",
    concerns: "mail",
    maxPoints: 3,
    level: "required",
    rule: "Every MX certificate is trusted, names the host and is not expired",
    rank: 20
  }),
  mxTls: spec({
    id: "security.mx.tls",
    title: "Mail server TLS configuration",
    titleNl: "TLS-configuratie van de mailservers",
    category: "security",
    concerns: "mail",
    maxPoints: 3,
    level: "recommended",
    rule: "Every MX address with STARTTLS rated good or sufficient by the NCSC-NL TLS guidelines of May 2025 (versions each probed, sampled cipher suites, key exchange, Extended Master Secret on TLS 1.2, certificate key and signature) 3; phase-out (TLS 1.0/1.1, RSA key exchange) 1; insufficient 0; no STARTTLS is not applicable",
    rank: 25
  })
} as const

/** The catalogue ids an MX's weak parts name, worst first. */
const mxTlsWeaknesses = (servers: ReadonlyArray<ServerResult>): ReadonlyArray<string> => {
  const weak = (x: string | null | undefined) => x === "phase-out" || x === "insufficient"
  return [
    ...(servers.some((s) => weak(s.ciphersRating)) ? ["mx_tls_cipher_weak"] : []),
    ...(servers.some((s) => weak(s.versionsRating)) ? ["mx_tls_version_outdated"] : []),
    ...(servers.some((s) => weak(s.keyExchangeRating)) ? ["mx_tls_key_exchange_weak"] : []),
    ...(servers.some((s) => weak(s.extendedMasterSecretRating)) ? ["mx_tls_ems_missing"] : [])
  ]
}

const TLS_OK = new Set(["TLSv1.2", "TLSv1.3"])

/** The results these rules read, by check id: the check's own and those it builds on. */
type Reads = { readonly "smtp-tls": SmtpTlsResult }

const records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => {
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
  const mxTls = judge(smtp, (s): Verdict => {
    if (servers.status !== "pass") return servers
    const tls = s.servers.filter((v) => v.starttls === true)
    // A result stored before the TLS scan existed has none of its fields: scored as it was then.
    if (tls.length > 0 && tls.every((v) => v.rating === undefined))
      return notApplicable("stored before the TLS configuration was probed")
    if (tls.length === 0)
      return s.servers.some((v) => v.starttls === null)
        ? unknown("no mail server could be reached")
        : notApplicable("no STARTTLS")
    const rated = tls.filter((v) => v.rating !== null && v.rating !== undefined)
    const rating = rated.length === 0 ? null : worst(rated.map((v) => v.rating!))
    const versions = [
      ...new Set(
        rated.flatMap((v) => (v.versions ?? []).filter((x) => x.support === "accepted").map((x) => x.version))
      )
    ]
    const detail = `rated ${rating ?? "unknown"} (NCSC-NL); versions ${versions.join(", ") || "none"}`
    if (rating === "insufficient") return fail(detail, ...mxTlsWeaknesses(rated))
    if (rating === "phase-out") return partial(1, detail, ...mxTlsWeaknesses(rated))
    return rating === null || rated.length < tls.length || s.servers.some((v) => v.starttls === null)
      ? unknown(
          rating === null
            ? "no MX address could be scanned"
            : `${detail}; some addresses could not be scanned`
        )
      : pass(detail)
  })
  return [
    scored(SMTP_TLS_SPECS.starttls, starttls),
    scored(SMTP_TLS_SPECS.mxCert, mxCert),
    scored(SMTP_TLS_SPECS.mxTls, mxTls)
  ]
}

export const rules = rulesOver<Reads>(Object.values(SMTP_TLS_SPECS), records)
