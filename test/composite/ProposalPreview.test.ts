/**
 * A proposal previewed (ProposalPreview.ts) over a test zone: the records a fix proposes, with the
 * TXT records that stay beside an SPF record, scored as published; a proposal that cannot be
 * previewed answers `compared: null` and why, never a diff.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import fc from "fast-check"
import { propose } from "../../src/ai/Fix.ts"
import {
  previewProposalAgainst,
  quotedTxt,
  withKeptTxt,
  type ProposedRecord
} from "../../src/composite/ProposalPreview.ts"
import type { FakeZone } from "../../src/net/Resolver.ts"
import { tokenize } from "../../src/net/DnsWire.ts"
import { scan } from "../../src/scan/Scanner.ts"
import { fakeNet } from "../checks/facts.ts"
import { runs } from "../support/runs.ts"
import { domain } from "../support/domain.ts"

const D = "proposal.example"
const VERIFICATION = "site-verification=4f1c2a9e"

/** An SPF record over the look-up limit (12: three includes of three), a verification beside it. */
const live: FakeZone = {
  [`${D} SOA`]: [`ns.${D}. hostmaster.${D}. 1 3600 600 86400 300`],
  [`${D} NS`]: [`ns.${D}.`],
  [`${D} A`]: ["192.0.2.10"],
  [`${D} MX`]: [`10 mail.${D}.`],
  [`mail.${D} A`]: ["192.0.2.25"],
  [`${D} TXT`]: [`v=spf1 include:a._spf.${D} include:b._spf.${D} include:c._spf.${D} -all`, VERIFICATION],
  ...Object.fromEntries(
    ["a", "b", "c"].flatMap((x) => [
      [
        `${x}._spf.${D} TXT`,
        [`v=spf1 include:${x}1._spf.${D} include:${x}2._spf.${D} include:${x}3._spf.${D} -all`]
      ],
      ...[1, 2, 3].map((i) => [`${x}${i}._spf.${D} TXT`, [`v=spf1 ip4:192.0.2.${i} -all`]])
    ])
  ),
  [`_dmarc.${D} TXT`]: ["v=DMARC1; p=none"]
}

describe("quotedTxt", () => {
  it("reads back as the value, any code point, in strings of at most 255 octets (RFC 1035 3.3.14)", () =>
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 700 }), (value) => {
        const strings = tokenize(quotedTxt(value))
        expect(strings.join("")).toBe(value)
        for (const s of strings) expect(Buffer.byteLength(s)).toBeLessThanOrEqual(255)
      }),
      { numRuns: runs(200) }
    ))
})

describe("withKeptTxt", () => {
  it("keeps the live TXT records beside a proposed SPF record, and no live SPF record", () =>
    fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.constantFrom("v=spf1 -all", "v=spf1 mx ~all"),
            fc.stringMatching(/^[a-z-]{1,20}=[a-z0-9]{1,30}$/)
          ),
          { maxLength: 6 }
        ),
        async (values) => {
          const proposed: ReadonlyArray<ProposedRecord> = [{ name: D, type: "TXT", value: "v=spf1 a -all" }]
          const out = await Effect.runPromise(
            withKeptTxt(proposed, () => Effect.succeed(Either.right(values)))
          )
          const kept = Either.getOrThrow(out)
            .slice(1)
            .map((r) => tokenize(r.value).join(""))
          expect(kept).toEqual(values.filter((v) => !v.startsWith("v=spf1")))
        }
      ),
      { numRuns: runs(100) }
    ))

  it.effect(
    "reads nothing for a DMARC or TLSA proposal, and says why when the live records cannot be read",
    () =>
      Effect.gen(function* () {
        const dmarc: ReadonlyArray<ProposedRecord> = [
          { name: `_dmarc.${D}`, type: "TXT", value: "v=DMARC1; p=reject" }
        ]
        const unread = () => Effect.succeed(Either.left("timeout"))
        expect(yield* withKeptTxt(dmarc, unread)).toEqual(Either.right(dmarc))
        const spf: ReadonlyArray<ProposedRecord> = [{ name: D, type: "TXT", value: "v=spf1 -all" }]
        expect(yield* withKeptTxt(spf, unread)).toEqual(Either.left("timeout"))
      })
  )
})

describe("a fix previewed", () => {
  it.effect("the SPF fix closes its issue and keeps the verification record beside it", () =>
    Effect.gen(function* () {
      const proposed = yield* propose("spf_too_many_lookups", domain(D), undefined)
      expect(proposed.records).toHaveLength(1)
      const liveTxt = [`v=spf1 include:a._spf.${D} -all`, VERIFICATION]
      const records = yield* withKeptTxt(proposed.records, () => Effect.succeed(Either.right(liveTxt)))
      expect(Either.getOrThrow(records).map((r) => tokenize(r.value).join(""))).toContain(VERIFICATION)
      const { compared, comparedReason } = yield* previewProposalAgainst(
        domain(D),
        { records: Either.getOrThrow(records) },
        scan(domain(D))
      )
      expect(comparedReason).toBeNull()
      expect(compared?.changes).toContainEqual(
        expect.objectContaining({ kind: "issue-closed", id: "issue/spf_too_many_lookups" })
      )
      // at 10 look-ups the flattened record is near the limit: the only issue it opens
      expect(compared?.changes.filter((c) => c.kind === "issue-opened").map((c) => c.id)).toEqual([
        "issue/spf_lookups_near_limit"
      ])
      expect(compared!.preview.percentage).toBeGreaterThan(compared!.live.percentage)
    }).pipe(Effect.provide(fakeNet({ zone: live })))
  )

  it.effect("a record outside the domain is not previewed: compared is null and the reason names it", () =>
    Effect.gen(function* () {
      const answer = yield* previewProposalAgainst(
        domain(D),
        { records: [{ name: `${D}._report._dmarc.reports.example`, type: "TXT", value: "v=DMARC1" }] },
        scan(domain(D))
      )
      expect(answer.compared).toBeNull()
      expect(answer.comparedReason).toContain(`${D}._report._dmarc.reports.example`)
    }).pipe(Effect.provide(fakeNet({ zone: live })))
  )

  it.effect("a header fix proposes no record and says why nothing is previewed", () =>
    Effect.gen(function* () {
      const proposed = yield* propose("hsts_missing", domain(D), undefined)
      expect(proposed.records).toEqual([])
      expect(proposed.notPreviewable).toContain("HTTP header")
    }).pipe(Effect.provide(fakeNet({ zone: live })))
  )
})
