/**
 * The dependency map of a scan (`GET /dns/dependencies`, docs/dependencies.md): every domain the
 * scanned domain depends on, why (the records that name it), and the verdicts that the scan's
 * checks gave about it. Pure: it reads the scan's results and runs nothing again.
 *
 * Each check that judges dependencies contributes its verdicts through one function of
 * `CONTRIBUTORS` (scan, dependency domain -> verdicts): registration expiry, takeover risk, the
 * route origins (RPKI) of the hosts under the dependency and, once it runs in the scan, the
 * name-server check's verdict on the name servers under it. Another check adds one line there.
 */
import { Schema } from "effect"
import { type RegistrationEntry, RegistrationResult } from "../checks/registration/Registration.ts"
import type { CheckOutcome } from "../scan/ScanResult.ts"
import { Dependency as DependencySchema, DependencyUse } from "../checks/registration/Dependencies.ts"
import type { NameServersReport } from "../checks/nameservers/Result.ts"
import type { RpkiReport } from "../checks/rpki/Rpki.ts"
import { type CheckStatus, Status, worstOf } from "../kernel/Status.ts"
import { organisationalDomainOf } from "../records/DmarcRecord.ts"
import { AliasResult, type TakeoverResult } from "../checks/takeover/Takeover.ts"
import { DateTime, Nullable } from "../records/Schemas.ts"
import { type Domain, NormalDomain } from "../records/DomainName.ts"

/** One check's verdict about one dependency. */
export const DependencyVerdict = Schema.Struct({
  /** The check that gave it (`registration`, `takeover`, ...). */
  check: Schema.String,
  status: Status,
  detail: Schema.String
})
export type DependencyVerdict = typeof DependencyVerdict.Type

export const DependencyEntry = Schema.Struct({
  domain: Schema.String,
  uses: Schema.Array(DependencyUse),
  verdicts: Schema.Array(DependencyVerdict)
})
export type DependencyEntry = typeof DependencyEntry.Type

export const DependencyMap = Schema.Struct({
  domain: NormalDomain,
  /** When the scan the map reads was computed. */
  computedAt: DateTime,
  /** Whether an RDAP source (`RDAP_BOOTSTRAP`) was configured: without it, registration is unknown. */
  rdapConfigured: Schema.Boolean,
  /** The scanned domain's own registration (null when the registration check could not finish). */
  registration: Nullable(RegistrationResult.fields.registration),
  dependencies: Schema.Array(DependencyEntry),
  /** The names of the domain that are aliases (CNAMEs), with their takeover verdicts. */
  aliases: Schema.Array(AliasResult),
  /** The names the owner listed (`names=`), probed as www is; absent when none were. */
  names: Schema.optional(Schema.Array(Schema.String))
})
export type DependencyMap = typeof DependencyMap.Type

/** What the map reads of a scan: the outcomes of the checks that know about dependencies. */
export interface DependencyScan {
  readonly domain: Domain
  readonly computedAt: string
  readonly checks: {
    readonly registration?: Pick<CheckOutcome<RegistrationResult>, "result">
    readonly takeover?: Pick<CheckOutcome<TakeoverResult>, "result">
    readonly rpki?: Pick<CheckOutcome<RpkiReport>, "result">
    readonly nameservers?: Pick<CheckOutcome<NameServersReport>, "result">
  }
}

type Contributor = (scan: DependencyScan, domain: string) => ReadonlyArray<DependencyVerdict>

const registrationVerdict: Contributor = (scan, domain) => {
  const entry: RegistrationEntry | undefined = scan.checks.registration?.result?.dependencies.find(
    (e) => e.domain === domain
  )
  return entry ? [{ check: "registration", status: entry.status, detail: entry.message }] : []
}

const takeoverVerdict: Contributor = (scan, domain) => {
  const risk = scan.checks.takeover?.result?.dependencies.find((d) => d.domain === domain)
  return risk ? [{ check: "takeover", status: risk.status, detail: risk.message }] : []
}

/** One verdict over the items of a check that concern hosts under `domain` (none: no verdict). */
const hostsUnder = <T extends { readonly status: CheckStatus; readonly message: string }>(
  check: string,
  items: ReadonlyArray<T>,
  hostOf: (item: T) => string,
  domain: string
): ReadonlyArray<DependencyVerdict> => {
  const mine = items.filter(
    (i) => organisationalDomainOf(hostOf(i).toLowerCase().replace(/\.$/, "")) === domain
  )
  if (mine.length === 0) return []
  return [
    { check, status: worstOf(mine.map((i) => i.status)), detail: mine.map((i) => i.message).join("; ") }
  ]
}

const rpkiVerdict: Contributor = (scan, domain) =>
  hostsUnder("rpki", scan.checks.rpki?.result?.result.addresses ?? [], (a) => a.host, domain)

const nameServerVerdict: Contributor = (scan, domain) =>
  hostsUnder("nameservers", scan.checks.nameservers?.result?.servers ?? [], (s) => s.host, domain)

/** Every check's verdicts about a dependency, in this order. */
export const CONTRIBUTORS: ReadonlyArray<Contributor> = [
  registrationVerdict,
  takeoverVerdict,
  nameServerVerdict,
  rpkiVerdict
]

/** The map of `scan` (pure). */
export const dependencyMap = (scan: DependencyScan): DependencyMap => {
  const registration = scan.checks.registration?.result ?? null
  const takeover = scan.checks.takeover?.result ?? null
  const known = new Map<string, typeof DependencySchema.Type>()
  for (const d of [...(registration?.dependencies ?? []), ...(takeover?.dependencies ?? [])])
    if (!known.has(d.domain)) known.set(d.domain, { domain: d.domain, uses: d.uses })
  return {
    domain: scan.domain,
    computedAt: scan.computedAt,
    rdapConfigured: registration?.rdapConfigured ?? takeover?.rdapConfigured ?? false,
    registration: registration?.registration ?? null,
    dependencies: [...known.values()]
      .sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0))
      .map((d) => ({ ...d, verdicts: CONTRIBUTORS.flatMap((contribute) => contribute(scan, d.domain)) })),
    aliases: takeover?.aliases ?? [],
    ...(takeover?.names !== undefined ? { names: takeover.names } : {})
  }
}
