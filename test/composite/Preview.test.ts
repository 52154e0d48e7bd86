/**
 * Preview then publish, in a test zone: a scan previewing records over the live zone agrees,
 * check by check, with a scan of the zone in which those records are really published.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { previewScan } from "../../src/composite/Preview.ts"
import type { PreviewRecordInput } from "../../src/composite/PreviewInput.ts"
import type { FakeZone } from "../../src/net/Resolver.ts"
import { scan } from "../../src/scan/Scanner.ts"
import { Categories } from "../../src/kernel/Check.ts"
import { score } from "../../src/score/Score.ts"
import { fakeNet } from "../checks/facts.ts"
import { domain } from "../support/domain.ts"

const D = "preview.example"
const live: FakeZone = {
  [`${D} SOA`]: [`ns.${D}. hostmaster.${D}. 1 3600 600 86400 300`],
  [`${D} NS`]: [`ns.${D}.`],
  [`${D} A`]: ["192.0.2.10"],
  [`${D} MX`]: [`10 mail.${D}.`],
  [`mail.${D} A`]: ["192.0.2.25"],
  [`${D} TXT`]: [`v=spf1 include:a._spf.${D} include:b._spf.${D} include:c._spf.${D} -all`],
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

const publish = (zone: FakeZone, records: ReadonlyArray<PreviewRecordInput>): FakeZone => {
  const out: Record<string, FakeZone[string]> = { ...zone }
  const keys = new Set(records.map((r) => `${r.name} ${r.type}`))
  for (const k of keys) out[k] = records.filter((r) => `${r.name} ${r.type}` === k).map((r) => r.value)
  return out
}

const statuses = (s: ReturnType<typeof score>) =>
  Object.fromEntries(Categories.flatMap((c) => s.categories[c].checks).map((r) => [r.id, r.status]))

const cases: ReadonlyArray<{ readonly about: string; readonly records: ReadonlyArray<PreviewRecordInput> }> =
  [
    {
      about: "an SPF flattened under the look-up limit",
      records: [{ name: D, type: "TXT", value: "v=spf1 ip4:192.0.2.0/24 mx -all" }]
    },
    {
      about: "DMARC moved to reject with reports to the domain",
      records: [{ name: `_dmarc.${D}`, type: "TXT", value: `v=DMARC1; p=reject; rua=mailto:dmarc@${D}` }]
    },
    {
      about: "CAA and a second MX",
      records: [
        { name: D, type: "CAA", value: '0 issue "letsencrypt.org"' },
        { name: D, type: "MX", value: `10 mail.${D}.` },
        { name: D, type: "MX", value: `20 mail.${D}.` }
      ]
    }
  ]

describe("preview then publish", () => {
  for (const c of cases)
    it.effect(`${c.about}: the preview and the published zone agree check by check`, () =>
      Effect.gen(function* () {
        const previewed = yield* previewScan(domain(D), { records: c.records }).pipe(
          Effect.provide(fakeNet({ zone: live }))
        )
        const published = yield* scan(domain(D)).pipe(
          Effect.provide(fakeNet({ zone: publish(live, c.records) }))
        )
        const [p, q] = [score(previewed.scan), score(published)]
        expect(statuses(p)).toEqual(statuses(q))
        expect(p.issues.map((i) => i.id).sort()).toEqual(q.issues.map((i) => i.id).sort())
        expect({ grade: p.grade, points: p.points }).toEqual({ grade: q.grade, points: q.points })
        const before = score(yield* scan(domain(D)).pipe(Effect.provide(fakeNet({ zone: live }))))
        expect(statuses(p)).not.toEqual(statuses(before))
      })
    )
})
