/**
 * Registration: when the domain's registration expires, and that of every domain it depends on
 * (checks/registration/Dependencies.ts), read over RDAP (RFC 9082 queries, RFC 9083 `events`, found
 * through the RFC 9224 bootstrap in `RDAP_BOOTSTRAP`). An expired registration can be bought by
 * anybody, with the name servers, mail and reports that come with it; registrars and registries
 * warn at 30, 14 and 7 days, and so does this check.
 *
 * Without an RDAP source every entry is `unknown` and the rules are not applicable: nothing is
 * scored as failed for a question that was not asked.
 */
import { Effect } from "effect"
import { RdapLookup } from "../../net/questions/RdapLookup.ts"
import type { RdapAnswer } from "../../net/Rdap.ts"
import { daysUntil, expiryBand } from "../../records/RdapData.ts"
import { define } from "../../kernel/Check.ts"
import { Facts } from "../../kernel/Facts.ts"
import { Dependencies, type Dependency } from "./Dependencies.ts"
import { type CheckStatus, worstOf } from "../../kernel/Status.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { RegistrationResult, RegistrationEntry, ExpiryBand } from "./RegistrationResult.ts"
import { forEachConcurrently } from "../../kernel/Each.ts"

export * from "./RegistrationResult.ts"

/** At most this many dependency domains are asked about (a huge SPF tree must not flood a registry). */
export const MAX_DEPENDENCIES = 40

export interface RegistrationInput {
  readonly domain: string
  readonly registrable: string
  readonly own: RdapAnswer
  readonly dependencies: ReadonlyArray<{ readonly dependency: Dependency; readonly answer: RdapAnswer }>
}

const ON_HOLD = ["client hold", "server hold", "pending delete", "redemption period"]

/** One registrable domain's verdict from its RDAP answer at `now` (pure). */
export const entryOf = (
  domain: string,
  uses: Dependency["uses"],
  answer: RdapAnswer,
  now: Date
): RegistrationEntry => {
  const base = { domain, uses, rdapUrl: null, expires: null, daysLeft: null, band: null, statuses: [] }
  switch (answer.outcome) {
    case "off":
      return { ...base, rdap: "off", status: "unknown", message: "no RDAP source configured" }
    case "unknown":
      return { ...base, rdap: "unknown", status: "unknown", message: answer.reason }
    case "unsupported":
      return { ...base, rdap: "unsupported", status: "not-applicable", message: answer.reason }
    case "not-registered":
      return {
        ...base,
        rdap: "not-registered",
        rdapUrl: answer.url,
        status: "fail",
        message: `${domain} is not registered (RDAP answered 404): anybody can register it`
      }
    case "registered": {
      const held = answer.statuses.filter((s) => ON_HOLD.includes(s))
      const registered = {
        ...base,
        rdap: "registered" as const,
        rdapUrl: answer.url,
        statuses: answer.statuses
      }
      if (answer.expires === null)
        return {
          ...registered,
          status: held.length > 0 ? "fail" : "pass",
          message:
            held.length > 0
              ? `${domain} is registered but ${held.join(", ")}`
              : `${domain} is registered (RDAP gives no expiry date)`
        }
      const daysLeft = daysUntil(answer.expires, now)
      const band = expiryBand(daysLeft)
      const status: CheckStatus =
        band === "expired" || band === 7 || held.length > 0 ? "fail" : band === null ? "pass" : "warning"
      const when = answer.expires.slice(0, 10)
      return {
        ...registered,
        expires: answer.expires,
        daysLeft,
        band: band === null ? null : (String(band) as ExpiryBand),
        status,
        message:
          band === "expired"
            ? `${domain}'s registration expired on ${when}`
            : `${domain} is registered until ${when} (${daysLeft} days)${held.length > 0 ? `, ${held.join(", ")}` : ""}`
      }
    }
  }
}

/** Pure and total; `now` is when the days left are counted from. */
export const analyse = (input: RegistrationInput, now: Date): RegistrationResult => {
  const registration = entryOf(input.registrable, [], input.own, now)
  const dependencies = input.dependencies.map(({ dependency, answer }) =>
    entryOf(dependency.domain, dependency.uses, answer, now)
  )
  const all = [registration, ...dependencies]
  const rdapConfigured = input.own.outcome !== "off"
  const issues = all.filter((e) => e.status === "fail" || e.status === "warning").map((e) => e.message)
  return {
    domain: input.domain,
    timestamp: now.toISOString(),
    rdapConfigured,
    status: rdapConfigured
      ? worstOf(all.filter((e) => e.status !== "not-applicable").map((e) => e.status))
      : "unknown",
    registration,
    dependencies,
    issues
  }
}

const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const found = yield* facts.get(Dependencies)
  const ask = (domain: string) => facts.ask(RdapLookup, domain)
  const own = yield* ask(found.registrable)
  const dependencies = yield* forEachConcurrently(
    found.dependencies.slice(0, MAX_DEPENDENCIES),
    (dependency) => Effect.map(ask(dependency.domain), (answer) => ({ dependency, answer })),
    8
  )
  return {
    domain: facts.domain,
    registrable: found.registrable,
    own,
    dependencies
  } satisfies RegistrationInput
})

export const Registration = define(about, { gather, analyse, exampleGathered })
