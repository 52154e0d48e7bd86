/**
 * Tenants' verified domains (docs/access.md): a tenant claims a domain, publishes the challenge
 * TXT record, and the service looks it up through the resolver the checks use (a validating one:
 * a bogus signature is SERVFAIL, RFC 4035 §5.5, so it never verifies). A verified domain lets the
 * tenant's keys read its received reports, and lets the tenant publish them. Every runner
 * re-checks, once a day, the verified claims nobody looked at for a day: a claim whose record is
 * gone lapses; a look-up that fails leaves it as it was (unknown is not missing).
 */
import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer, Schedule, Schema } from "effect"
import { AppConfig } from "../../Config.ts"
import { OwnersUnavailable, type RecipientVerdict, ReportRecipients } from "../../inbound/ReportRecipients.ts"
import { ClusterLive } from "../../jobs/Cluster.ts"
import { txtOf } from "../../net/DnsWire.ts"
import { Resolver } from "../../net/Resolver.ts"
import { anyKey, ensureKeyTables } from "./ApiKeyStore.ts"
import {
  type ChallengeLookup,
  challengeName,
  findToken,
  type Finding,
  newToken,
  nextState
} from "./DomainClaim.ts"
import {
  type ClaimRow,
  claimsToRecheck,
  deleteClaim,
  ensureClaimTables,
  findClaim,
  insertClaim,
  isVerifiedBy,
  listClaims,
  recordCheck,
  reportsPublished,
  setPublicReports
} from "./DomainClaimStore.ts"
import type { DomainClaimView } from "./DomainModel.ts"
import { looksLikeTag, tagOf, tenantOfTag } from "./TenantTags.ts"

/** The claim asked for cannot be acted on: none (404), or not verified (403). */
export class ClaimRefused extends Schema.TaggedError<ClaimRefused>()("ClaimRefused", {
  reason: Schema.Literal("none", "unverified"),
  domain: Schema.String
}) {
  override get message() {
    return this.reason === "none"
      ? `this tenant has not claimed ${this.domain} (POST /api/domains first)`
      : `${this.domain} is not verified for this tenant (publish the challenge, then POST /api/domains/${this.domain}/verify)`
  }
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

/**
 * Where the tenant receives the domain's reports, and the records that send them there: `rua=` to
 * add to the domain's DMARC record (RFC 7489 §6.3; its policy stays the owner's choice), and the
 * whole TLS-RPT record (RFC 8460 §3). The address is the tenant's tag (TenantTags.ts), never its
 * name. Null when the service receives no mail (no REPORTS_DOMAINS).
 */
export const reportingOf = (tag: string, domain: string, reportsDomain: string | undefined) => {
  if (reportsDomain === undefined) return null
  const address = `${tag}@${reportsDomain}`
  return {
    address,
    dmarc: { name: `_dmarc.${domain}`, type: "TXT" as const, rua: `rua=mailto:${address}` },
    tlsRpt: { name: `_smtp._tls.${domain}`, type: "TXT" as const, value: `v=TLSRPTv1; rua=mailto:${address}` }
  }
}

/** A claim as the API shows it; `tag` is its tenant's report tag (unused without a reports domain). */
export const claimView = (c: ClaimRow, tag: string, reportsDomain?: string): DomainClaimView => ({
  domain: c.domain,
  state: c.state,
  challenge: { name: challengeName(c.domain), type: "TXT", value: c.token },
  createdAt: iso(c.createdAt)!,
  verifiedAt: iso(c.verifiedAt),
  checkedAt: iso(c.checkedAt),
  lastCheck: c.lastCheck,
  dnssecValidated: c.authenticated,
  publicReports: c.publicReports,
  reporting: reportingOf(tag, c.domain, reportsDomain)
})

const words = (finding: Finding) =>
  finding.found === "present"
    ? "found"
    : finding.found === "absent"
      ? "not found"
      : `unknown: the look-up failed (${finding.reason})`

/** The verified claims re-checked per pass; the rest wait for the next pass. */
const RECHECK_BATCH = 200

export class VerifiedDomains extends Effect.Service<VerifiedDomains>()("VerifiedDomains", {
  scoped: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const resolver = yield* Resolver
    const config = yield* AppConfig
    const reportsDomain = config.reportsDomains[0]
    // A store that cannot answer (SQLITE_BUSY, the file or the database server gone) is an outage
    // the client may retry (503), not a defect of the request (500).
    const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
      Effect.provideService(effect, SqlClient.SqlClient, sql).pipe(
        Effect.tapError((e) => Effect.logWarning("the tenants' store failed", e)),
        Effect.mapError(() => new OwnersUnavailable({ message: "the tenants' store cannot be read now" }))
      )
    const view = (c: ClaimRow) =>
      reportsDomain === undefined
        ? Effect.succeed(claimView(c, "", reportsDomain))
        : Effect.map(run(tagOf(c.tenant)), (tag) => claimView(c, tag, reportsDomain))

    /** The challenge as the resolver answers it now (no cached answer: the owner just published). */
    const lookUp = (domain: string): Effect.Effect<ChallengeLookup> =>
      resolver.query(challengeName(domain), "TXT", { fresh: true }).pipe(
        Effect.map((answer): ChallengeLookup => ({ records: txtOf(answer), authenticated: answer.flags.ad })),
        Effect.catchAll((e) => Effect.succeed<ChallengeLookup>({ error: `${e.reason}: ${e.message}` }))
      )

    /** Look the claim's record up and keep what that says. */
    const check = (claim: ClaimRow) =>
      Effect.gen(function* () {
        const finding = findToken(yield* lookUp(claim.domain), claim.token)
        const now = yield* Clock.currentTimeMillis
        const updated: ClaimRow = {
          ...claim,
          state: nextState(claim.state, finding),
          verifiedAt: finding.found === "present" ? now : claim.verifiedAt,
          checkedAt: now,
          lastCheck: words(finding),
          authenticated: finding.found === "present" ? finding.authenticated : claim.authenticated
        }
        yield* run(recordCheck(updated, now))
        return updated
      })

    const owned = (tenant: string, domain: string) =>
      Effect.flatMap(run(findClaim(tenant, domain)), (claim) =>
        claim === undefined
          ? Effect.fail(new ClaimRefused({ reason: "none", domain }))
          : Effect.succeed(claim)
      )

    /** The tenant's claim on `domain`, made now with a new token unless it exists. */
    const claim = (tenant: string, domain: string) =>
      Effect.gen(function* () {
        yield* run(insertClaim(tenant, domain, newToken(), yield* Clock.currentTimeMillis))
        const made = yield* run(findClaim(tenant, domain))
        // deleted between the two statements by a concurrent DELETE of the same tenant
        if (made === undefined)
          return yield* Effect.dieMessage(`the claim on ${domain} vanished as it was made`)
        return yield* view(made)
      })

    const verify = (tenant: string, domain: string) =>
      Effect.flatMap(Effect.flatMap(owned(tenant, domain), check), view)

    const get = (tenant: string, domain: string) => Effect.flatMap(owned(tenant, domain), view)

    const list = (tenant: string) =>
      Effect.map(
        Effect.flatMap(run(listClaims(tenant)), (rows) => Effect.forEach(rows, view)),
        (domains) => ({ domains })
      )

    const remove = (tenant: string, domain: string) =>
      Effect.flatMap(run(deleteClaim(tenant, domain)), (deleted) =>
        deleted ? Effect.void : Effect.fail(new ClaimRefused({ reason: "none", domain }))
      )

    /** Publish or withdraw the domain's reports: only while the tenant's claim is verified. */
    const publish = (tenant: string, domain: string, published: boolean) =>
      Effect.gen(function* () {
        const claim = yield* owned(tenant, domain)
        if (claim.state !== "verified") return yield* new ClaimRefused({ reason: "unverified", domain })
        yield* run(setPublicReports(tenant, domain, published))
        return yield* view({ ...claim, publicReports: published })
      })

    /** One pass of the re-check: the verified claims not looked at for `DOMAIN_RECHECK` (a day). */
    const recheck = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const due = yield* run(claimsToRecheck(now - config.domainRecheckMs, RECHECK_BATCH))
      const checked = yield* Effect.forEach(due, check, { concurrency: 8 })
      return { checked: checked.length, lapsed: checked.filter((c) => c.state === "lapsed").length }
    })

    yield* Effect.forkScoped(
      recheck.pipe(
        Effect.tap(({ lapsed }) =>
          lapsed > 0
            ? Effect.logInfo(`${lapsed} verified domain(s) lapsed: their challenge is gone`)
            : Effect.void
        ),
        Effect.catchAllCause((cause) =>
          Effect.logError("the verified domains could not be re-checked", cause)
        ),
        // passes every HOUSEKEEPING_INTERVAL (an hour), so a claim is re-checked within one of
        // being due
        Effect.repeat(Schedule.spaced(config.housekeepingIntervalMs)),
        Effect.delay("1 minute")
      )
    )

    return {
      claim,
      verify,
      get,
      list,
      remove,
      publish,
      recheck,
      /** Whether `tenant` has verified `domain` (its keys read the domain's reports). */
      isVerified: (tenant: string, domain: string) => run(isVerifiedBy(tenant, domain)),
      /**
       * Whether the domain's received reports appear in its public pages and reports: when one of
       * its verified owners publishes them, and in the embedded default (no API key at all: the one
       * operator owns everything).
       */
      reportsPublic: (domain: string) =>
        Effect.flatMap(run(anyKey), (keysExist) =>
          keysExist ? run(reportsPublished(domain)) : Effect.succeed(true)
        )
    } as const
  })
}) {}

/** The verified domains in this process's cluster database, their tables (and the keys') created. */
export const VerifiedDomainsLive = VerifiedDomains.Default.pipe(
  Layer.provide(Layer.effectDiscard(Effect.zipRight(ensureKeyTables, ensureClaimTables))),
  Layer.provide(ClusterLive)
)

/**
 * The report addresses taken at RCPT, and whose a report becomes (docs/access.md): while no key
 * exists, every address, and every report stored; then the tags of tenants with a usable key, and a
 * tenant's report stored only for a domain it has verified.
 */
export const ReportRecipientsLive = Layer.effect(
  ReportRecipients,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const run = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
      Effect.provideService(effect, SqlClient.SqlClient, sql).pipe(
        Effect.catchAllCause((cause) =>
          Effect.zipRight(
            Effect.logWarning("report recipients could not be checked", cause),
            Effect.fail(new OwnersUnavailable({ message: "the tenants' store cannot be read now" }))
          )
        )
      )
    const tenantOf = (localPart: string) =>
      run(
        Effect.flatMap(anyKey, (keysExist) =>
          !keysExist
            ? Effect.succeed<string | null | undefined>(null)
            : looksLikeTag(localPart)
              ? Effect.flatMap(Clock.currentTimeMillis, (now) => tenantOfTag(localPart, now))
              : Effect.succeed(undefined)
        )
      )
    return {
      check: (localPart: string): Effect.Effect<RecipientVerdict> =>
        tenantOf(localPart).pipe(
          Effect.map((tenant): RecipientVerdict => (tenant === undefined ? "unknown" : "accept")),
          Effect.orElseSucceed(() => "unavailable" as const)
        ),
      tenantOf: (localPart: string) =>
        Effect.flatMap(tenantOf(localPart), (tenant) =>
          tenant === undefined
            ? Effect.fail(new OwnersUnavailable({ message: "the address is no tenant's (any more)" }))
            : Effect.succeed(tenant)
        ),
      verifiedBy: (tenant: string, domain: string) => run(isVerifiedBy(tenant, domain))
    }
  })
).pipe(
  Layer.provide(Layer.effectDiscard(Effect.zipRight(ensureKeyTables, ensureClaimTables))),
  Layer.provide(ClusterLive)
)
