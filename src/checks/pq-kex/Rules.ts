/**
 * The rules of the post-quantum key-exchange check (docs/scoring.md): shown, never scored. The
 * hybrids are new (X25519MLKEM768 became OpenSSL's default in 3.5, April 2025) and most servers
 * run a TLS library without them; until the guidelines the score follows (NCSC-NL) rate them, a
 * classical key exchange everywhere is not held against the domain (not applicable, as REQUIRETLS
 * offered by none). Servers that differ are a finding: the same traffic is protected or not
 * depending on which server a client reaches.
 */
import { judge, type Judging, rulesOver, type Ruling, scored, spec } from "../../kernel/Declaration.ts"
import { spread, type Verdict } from "../../kernel/RuleVerdict.ts"
import type { PqKexPartStatus, PqKexResult } from "./PqKexResult.ts"

export const PQ_KEX_SPECS = {
  web: spec({
    id: "security.web.pq_kex",
    title: "Post-quantum key exchange (web)",
    titleNl: "Post-quantum sleuteluitwisseling (web)",
    category: "security",
    concerns: "web",
    maxPoints: 0,
    level: "info",
    rule: "Shown, never scored: every web server takes a hybrid post-quantum key exchange (X25519MLKEM768 or another registered hybrid) when offered one; some but not all is a finding; none (classical only) is not applicable for now",
    rank: 123
  }),
  mail: spec({
    id: "security.mx.pq_kex",
    title: "Post-quantum key exchange (mail)",
    titleNl: "Post-quantum sleuteluitwisseling (mail)",
    category: "security",
    concerns: "mail",
    maxPoints: 0,
    level: "info",
    rule: "Shown, never scored: every mail server takes a hybrid post-quantum key exchange after STARTTLS when offered one; some but not all is a finding; none (classical only) is not applicable for now",
    rank: 124
  })
} as const

/** The results these rules read, by check id. */
type Reads = { readonly "pq-kex": PqKexResult }

/** How far the hybrids reach: every server, some, unknown; classical, no TLS or nothing to ask is "none". */
const REACH: { readonly [S in PqKexPartStatus]: Parameters<typeof spread>[0] } = {
  hybrid: "all",
  partial: "some",
  unknown: "unknown",
  classical: "none",
  "not-applicable": "none",
  "not-checked": "none"
}

const verdictOf = (p: PqKexResult["web"]): Verdict => spread(REACH[p.status], p.note, "pq_kex_partial")

const records = (scan: Judging<Reads>): ReadonlyArray<Ruling> => [
  scored(
    PQ_KEX_SPECS.web,
    judge(scan.checks["pq-kex"], (r) => verdictOf(r.web))
  ),
  scored(
    PQ_KEX_SPECS.mail,
    judge(scan.checks["pq-kex"], (r) => verdictOf(r.mail))
  )
]

export const rules = rulesOver<Reads>(Object.values(PQ_KEX_SPECS), records)
