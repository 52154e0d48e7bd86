/**
 * /ai/fix over fake DNS (test/checks/facts.ts): properties of the SPF and DMARC fixes for generated
 * records. Whatever the published record, a proposal the fix calls a success is valid for the
 * project's own parser and check, stays within 10 lookups, and keeps the senders it did not have
 * to touch.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import fc from "fast-check"
import { generateDmarc } from "../../src/generate/DmarcGenerator.ts"
import { parseDmarc } from "../../src/records/DmarcRecord.ts"
import { parse as parseSpf } from "../../src/records/SpfParse.ts"
import { fix } from "../../src/ai/Fix.ts"
import { mailboxDomain, PLACEHOLDER_RUA, planDmarc } from "../../src/ai/FixDmarc.ts"
import { fakeNet } from "../checks/facts.ts"
import { makeChain, probe, stalled, tlsFacts } from "../checks/fixtures.ts"
import { runs } from "../support/runs.ts"
import { domain } from "../support/domain.ts"

const DOMAIN = "example.com"

/** Includes of 2 lookups each (the include and one nested include), each with its own network. */
const providerZone = (n: number) =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [
      [`inc${i}.${DOMAIN} TXT`, [`v=spf1 ip4:10.${i}.0.0/24 include:deep${i}.${DOMAIN} -all`]],
      [`deep${i}.${DOMAIN} TXT`, [`v=spf1 ip4:10.${i}.1.0/24 -all`]]
    ]).flat()
  )

const spfTerms = (value: string) => parseSpf(value).terms.map((t) => t.text)

describe("SPF fixes", () => {
  it.live("too many lookups: the first includes stay while they fit in 10, the rest is listed directly", () =>
    Effect.gen(function* () {
      const includes = Array.from({ length: 7 }, (_, i) => `include:inc${i}.${DOMAIN}`)
      const zone = {
        ...providerZone(7),
        [`${DOMAIN} TXT`]: [`v=spf1 ip4:192.0.2.1 ${includes.join(" ")} -all`]
      }
      const answer = yield* fix("spf_too_many_lookups", domain(DOMAIN), undefined).pipe(
        Effect.provide(fakeNet({ zone }))
      )
      expect(answer.success).toBe(true)
      expect(answer.validation).toMatchObject({ valid: true, lookups: 10 })
      const terms = spfTerms(answer.fix.value)
      expect(terms).toEqual(expect.arrayContaining([...includes.slice(0, 5), "ip4:192.0.2.1", "-all"]))
      expect(terms).not.toContain(includes[5])
      expect(terms).toEqual(expect.arrayContaining(["ip4:10.5.0.0/24", "ip4:10.5.1.0/24", "ip4:10.6.1.0/24"]))
    })
  )

  it.live(
    "any record, any SPF issue: a successful proposal is valid, within 10 lookups, and keeps the ip4 senders",
    () =>
      Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(
            fc.integer({ min: 0, max: 8 }),
            fc.uniqueArray(fc.integer({ min: 1, max: 250 }), { maxLength: 4 }),
            fc.constantFrom("-all", "~all", "?all", "+all", ""),
            fc.constantFrom(
              "spf_invalid",
              "spf_too_many_lookups",
              "spf_lookups_near_limit",
              "spf_plus_all",
              "spf_neutral_all",
              "spf_softfail_all",
              "spf_ptr_mechanism"
            ),
            async (n, hosts, all, issue) => {
              const ip4 = hosts.map((h) => `ip4:192.0.2.${h}`)
              const record = [
                "v=spf1",
                ...ip4,
                ...Array.from({ length: n }, (_, i) => `include:inc${i}.${DOMAIN}`),
                all
              ]
                .filter((t) => t !== "")
                .join(" ")
              const zone = { ...providerZone(n), [`${DOMAIN} TXT`]: [record] }
              const answer = await Effect.runPromise(
                fix(issue, domain(DOMAIN), undefined).pipe(Effect.provide(fakeNet({ zone })))
              )
              expect(answer.success, JSON.stringify(answer)).toBe(true)
              expect(parseSpf(answer.fix.value).errors).toEqual([])
              expect(answer.validation!.lookups).toBeLessThanOrEqual(10)
              expect(spfTerms(answer.fix.value)).toEqual(expect.arrayContaining(ip4))
              expect(answer.fix.value).not.toMatch(/[+?]all$/)
            }
          ),
          { numRuns: runs(25) }
        )
      )
  )

  it.live("an invalid record: the terms in error go, the valid ones stay", () =>
    Effect.gen(function* () {
      const zone = {
        [`${DOMAIN} TXT`]: ["v=spf1 ip4:192.0.2.300 a/24 mx:mail.example.com/24 ip4:192.0.2.7 ~all"]
      }
      const answer = yield* fix("spf_invalid", domain(DOMAIN), undefined).pipe(
        Effect.provide(fakeNet({ zone }))
      )
      expect(answer.success).toBe(true)
      expect(spfTerms(answer.fix.value)).toEqual(["ip4:192.0.2.7", "a/24", "mx:mail.example.com/24", "~all"])
      expect(answer.fix.explanation).toMatch(/removed 'ip4:192.0.2.300'/)
    })
  )

  it.live("a record that cannot be read is not replaced", () =>
    Effect.gen(function* () {
      const answer = yield* fix("spf_missing", domain(DOMAIN), undefined).pipe(
        Effect.provide(fakeNet({ zone: { [`${DOMAIN} TXT`]: "SERVFAIL" } }))
      )
      expect(answer).toMatchObject({ success: false, fix: { value: "" } })
    })
  )
})

const TAGS = [
  "p=none",
  "p=quarantine",
  "p=reject",
  "p=rejected",
  "p=",
  "sp=none",
  "sp=reject",
  "pct=50",
  "pct=150",
  "rua=mailto:d@example.com",
  "rua=mailto:a@example.com,mailto:b@example.com,mailto:c@example.com",
  "rua=d@example.com",
  "rua=https://example.com/r",
  "ruf=mailto:f@example.com",
  "adkim=s",
  "aspf=r",
  "fo=1",
  "t=y",
  "foo=bar",
  "ri=3600"
]

/** example.com receives mail. */
const REACHES = new Map([["example.com", "some" as const]])

describe("DMARC fixes", () => {
  it("stages enforcement: reports to a mailbox that receives mail first, then quarantine, then reject", () => {
    const none = "v=DMARC1; p=none"
    expect(planDmarc("dmarc_policy_none", domain(DOMAIN), none, undefined, REACHES).input.policy).toBe("none")
    const reporting = "v=DMARC1; p=none; rua=mailto:d@example.com"
    expect(planDmarc("dmarc_policy_none", domain(DOMAIN), reporting, undefined, REACHES).input.policy).toBe(
      "quarantine"
    )
    const quarantine = "v=DMARC1; p=quarantine; rua=mailto:d@example.com"
    expect(
      planDmarc("dmarc_policy_quarantine", domain(DOMAIN), quarantine, undefined, REACHES).input.policy
    ).toBe("reject")
    // reports to a domain that takes no mail never arrive: no stronger policy, and the reason said
    const nowhere = "v=DMARC1; p=none; rua=mailto:d@null-mx.example"
    const plan = planDmarc(
      "dmarc_policy_none",
      domain(DOMAIN),
      nowhere,
      undefined,
      new Map([["null-mx.example", "none"]])
    )
    expect(plan.input.policy).toBe("none")
    expect(plan.changes.join(" ")).toMatch(/null-mx\.example takes no mail/)
    // nor when whether it takes mail could not be found out
    expect(planDmarc("dmarc_policy_none", domain(DOMAIN), reporting, undefined, new Map()).input.policy).toBe(
      "none"
    )
  })

  it("any record: the plan always yields a record the parser accepts, keeping a valid mailto rua", () =>
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 6 }),
        fc.boolean(),
        fc.constantFrom(
          "dmarc_invalid",
          "dmarc_policy_none",
          "dmarc_policy_quarantine",
          "dmarc_pct_below_100",
          "dmarc_no_rua",
          "dmarc_subdomain_policy_none",
          "dmarc_too_many_rua",
          "dmarc_unknown_tag",
          "dmarc_leading_space"
        ),
        (tags, space, issue) => {
          const record = `${space ? " " : ""}v=DMARC1; ${tags.join("; ")}`
          const { input, changes } = planDmarc(issue, domain(DOMAIN), record, undefined, REACHES)
          const generated = generateDmarc(input)
          expect(Either.isRight(generated), JSON.stringify(input)).toBe(true)
          const parsed = parseDmarc(Either.getOrThrow(generated).record)
          expect(parsed.errors).toEqual([])
          expect(parsed.unknownTags).toEqual([])
          expect(parsed.rua.length).toBeGreaterThan(0)
          expect(parsed.rua.length).toBeLessThanOrEqual(2)
          // the parser reads the first of a repeated tag
          const first = (name: string) => tags.find((t) => t.startsWith(`${name}=`))
          if (first("rua") === "rua=mailto:d@example.com")
            expect(parsed.rua[0]!.uri).toBe("mailto:d@example.com")
          // staged: a stronger policy only once reports reach a mailbox that receives mail
          const reported = first("rua")?.startsWith("rua=mailto:") === true
          if (issue === "dmarc_policy_none" && first("p") === "p=none")
            expect(parsed.p).toBe(reported ? "quarantine" : "none")
          if (issue === "dmarc_policy_none" && first("p") === "p=none" && !reported)
            expect(changes.join(" ")).toMatch(/reports first/)
        }
      )
    ))

  it("never proposes a report address the same answer says cannot receive the reports", () =>
    fc.assert(
      fc.property(
        fc.constantFrom("some" as const, "none" as const, "unknown" as const),
        fc.constantFrom("some" as const, "none" as const),
        fc.option(fc.constant("reports.example.net"), { nil: undefined }),
        fc.constantFrom(undefined, "v=DMARC1; p=none", "v=DMARC1; p=none; rua=mailto:d@elsewhere.example"),
        fc.constantFrom("dmarc_missing", "dmarc_policy_none", "dmarc_no_rua"),
        (own, elsewhere, receiver, record, issue) => {
          const reach = new Map([
            [DOMAIN, own],
            ["elsewhere.example", elsewhere]
          ])
          const { input, changes } = planDmarc(issue, domain(DOMAIN), record, undefined, reach, receiver)
          for (const address of input.rua ?? []) {
            expect(reach.get(mailboxDomain(address) ?? "")).not.toBe("none")
            expect(changes.join(" ")).not.toContain(`${address} cannot receive`)
          }
          // the domain takes no mail: the service's receiver when it has one, else a placeholder to fill in
          if (own === "none" && (record === undefined || !record.includes("rua") || elsewhere === "none"))
            expect(input.rua).toEqual([receiver === undefined ? PLACEHOLDER_RUA : `mailto:dmarc@${receiver}`])
        }
      ),
      { numRuns: runs(200) }
    ))

  it.live("a proposal is judged by the DMARC check with it in place", () =>
    Effect.gen(function* () {
      const zone = {
        [`_dmarc.${DOMAIN} TXT`]: ["v=DMARC1; p=none; rua=mailto:d@example.com; pct=20"],
        [`${DOMAIN} MX`]: ["10 mx.example.com."]
      }
      const answer = yield* fix("dmarc_pct_below_100", domain(DOMAIN), undefined).pipe(
        Effect.provide(fakeNet({ zone }))
      )
      expect(answer).toMatchObject({ success: true, validation: { check: "DMARC", valid: true } })
      expect(answer.fix.value).toBe("v=DMARC1; p=none; rua=mailto:d@example.com")
    })
  )
})

describe("DANE fixes", () => {
  it.live("TLSA 3 1 1 of the key each MX presents; a server that does not answer is skipped", () =>
    Effect.gen(function* () {
      const chain = makeChain(["mx1.example.com"])
      const zone = {
        [`${DOMAIN} MX`]: ["10 mx1.example.com.", "20 mx2.example.com."],
        "mx1.example.com A": ["192.0.2.25"],
        "mx2.example.com A": ["192.0.2.26"]
      }
      const probes = {
        "mx1.example.com|192.0.2.25": probe({
          host: "mx1.example.com",
          tls: tlsFacts([chain.leaf, chain.ca])
        }),
        "mx2.example.com|192.0.2.26": stalled("banner", { host: "mx2.example.com", address: "192.0.2.26" })
      }
      const answer = yield* fix("dane_missing", domain(DOMAIN), undefined).pipe(
        Effect.provide(fakeNet({ zone, probes }))
      )
      expect(answer).toMatchObject({
        success: true,
        fix: {
          dns_record: "_25._tcp.mx1.example.com",
          record_type: "TLSA",
          value: `3 1 1 ${chain.leaf.spkiSha256.toLowerCase()}`
        }
      })
      const none = yield* fix("dane_missing", domain(DOMAIN), undefined).pipe(
        Effect.provide(fakeNet({ zone }))
      )
      expect(none).toMatchObject({ success: false, fix: { value: "" } })
    })
  )
})
