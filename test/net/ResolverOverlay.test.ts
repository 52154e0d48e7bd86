import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import fc from "fast-check"
import type { DnsAnswer, RecordType } from "../../src/net/DnsTypes.ts"
import { type FakeEntry, makeFake } from "../../src/net/ResolverFake.ts"
import { type NotJudged, type Overlay, overlayResolver } from "../../src/net/ResolverOverlay.ts"
import { runs } from "../support/runs.ts"

const zone = {
  "example.com SOA": ["ns.example.com. hostmaster.example.com. 1 3600 600 86400 300"],
  "example.com TXT": ["v=spf1 include:a._spf.example.com -all", "google-site-verification=abc"],
  "example.com MX": ["10 mail.example.com."],
  "example.com A": { rdata: ["192.0.2.10"], ad: true },
  "_dmarc.example.com TXT": { rdata: ["v=DMARC1; p=none"], ad: true },
  "mail.example.com A": ["192.0.2.25"],
  "www.example.com CNAME": ["web.example.com."],
  "web.example.com A": ["192.0.2.80"],
  "a._spf.example.com TXT": ["v=spf1 ip4:192.0.2.0/24 -all"]
}

const over = (overlay: Overlay) => {
  const judged: Array<NotJudged> = []
  const live = makeFake(zone)
  const preview = overlayResolver(live, overlay, (n) => judged.push(n))
  return { live, preview, judged }
}

const run = (effect: Effect.Effect<DnsAnswer, unknown>) => Effect.runPromise(effect)
const texts = (answer: DnsAnswer) => answer.answers.map((r) => `${r.name} ${r.type} ${r.text}`)

describe("ResolverOverlay", () => {
  it("replaces the whole TXT RRset at a name and leaves the rest live", async () => {
    const { preview } = over({
      records: [{ name: "example.com", type: "TXT", value: "v=spf1 mx -all" }],
      remove: []
    })
    expect(texts(await run(preview.query("example.com", "TXT")))).toEqual([
      'example.com TXT "v=spf1 mx -all"'
    ])
    expect(texts(await run(preview.query("example.com", "MX")))).toEqual([
      "example.com MX 10 mail.example.com."
    ])
  })

  it("answers NODATA for a removed RRset and NODATA at names a given record makes exist", async () => {
    const { preview } = over({
      records: [{ name: "_mta-sts.example.com", type: "TXT", value: "v=STSv1; id=1" }],
      remove: [{ name: "_dmarc.example.com", type: "TXT" }]
    })
    expect((await run(preview.query("_dmarc.example.com", "TXT"))).outcome).toBe("nodata")
    expect((await run(preview.query("_mta-sts.example.com", "CAA"))).outcome).toBe("nodata")
    expect((await run(preview.query("nothing.example.com", "TXT"))).outcome).toBe("nxdomain")
  })

  it("follows a given CNAME through the overlay, and data given at a live alias replaces it", async () => {
    const { preview } = over({
      records: [
        { name: "shop.example.com", type: "CNAME", value: "web.example.com." },
        { name: "web.example.com", type: "A", value: "198.51.100.7" },
        { name: "www.example.com", type: "TXT", value: "hello" }
      ],
      remove: []
    })
    expect(texts(await run(preview.query("shop.example.com", "A")))).toEqual([
      "shop.example.com CNAME web.example.com.",
      "web.example.com A 198.51.100.7"
    ])
    expect((await run(preview.query("www.example.com", "A"))).outcome).toBe("nodata")
    expect((await run(preview.query("www.example.com", "CNAME"))).outcome).toBe("nodata")
  })

  it("re-resolves a live alias whose target the overlay changed", async () => {
    const { preview } = over({
      records: [{ name: "web.example.com", type: "A", value: "198.51.100.8" }],
      remove: []
    })
    expect(texts(await run(preview.query("www.example.com", "A")))).toEqual([
      "www.example.com CNAME web.example.com.",
      "web.example.com A 198.51.100.8"
    ])
  })

  it("keeps the zone's AD for a previewed RRset of a signed name and reports it as not judged", async () => {
    const { preview, judged } = over({
      records: [
        { name: "_dmarc.example.com", type: "TXT", value: "v=DMARC1; p=reject" },
        { name: "mail.example.com", type: "A", value: "192.0.2.26" }
      ],
      remove: []
    })
    const dmarc = await run(preview.query("_dmarc.example.com", "TXT"))
    expect(dmarc.flags.ad).toBe(true)
    expect(dmarc.answers.some((r) => r.type === "RRSIG")).toBe(false)
    expect((await run(preview.query("mail.example.com", "A"))).flags.ad).toBe(false)
    expect(judged.map((j) => `${j.name} ${j.type}`)).toEqual(["_dmarc.example.com TXT"])
  })

  it("keeps a live failure a failure", async () => {
    const judged: Array<NotJudged> = []
    const preview = overlayResolver(
      makeFake({ ...zone, "example.com CAA": "SERVFAIL" }),
      { records: [], remove: [] },
      (n) => judged.push(n)
    )
    const exit = await Effect.runPromiseExit(preview.query("example.com", "CAA"))
    expect(exit._tag).toBe("Failure")
  })

  // Generated record sets and removals under a few names of the zone: previewing them answers what
  // publishing them (the same zone with those RRsets replaced or deleted) answers, and every
  // question at a name the set does not touch is answered exactly as live.
  const names = [
    "example.com",
    "_dmarc.example.com",
    "mail.example.com",
    "a._spf.example.com",
    "new.example.com"
  ]
  const types: ReadonlyArray<RecordType> = ["TXT", "A", "MX", "CAA"]
  const value = (type: RecordType, i: number) =>
    type === "TXT"
      ? `v=spf1 ip4:192.0.2.${i} -all`
      : type === "A"
        ? `198.51.100.${i}`
        : type === "MX"
          ? `${i} mx${i}.example.net.`
          : `0 issue "ca${i}.example"`
  const recordArb = fc.record({
    name: fc.constantFrom(...names),
    type: fc.constantFrom(...types),
    i: fc.integer({ min: 1, max: 250 })
  })
  const removalArb = fc.record({ name: fc.constantFrom(...names), type: fc.constantFrom(...types) })
  const absent = (a: DnsAnswer) => (a.outcome === "answer" ? "answer" : "absent")

  it("answers as the published zone would, and passes everything else through (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(recordArb, { maxLength: 8 }),
        fc.array(removalArb, { maxLength: 3 }),
        async (generated, removals) => {
          const records = generated.map((g) => ({ name: g.name, type: g.type, value: value(g.type, g.i) }))
          const remove = removals.filter((r) => !records.some((g) => g.name === r.name && g.type === r.type))
          const { live, preview } = over({ records, remove })
          const publishedZone: Record<string, FakeEntry> = { ...zone }
          for (const r of remove) delete publishedZone[`${r.name} ${r.type}`]
          for (const r of records) {
            const k = `${r.name} ${r.type}`
            const before = records.filter((g) => `${g.name} ${g.type}` === k).map((g) => g.value)
            publishedZone[k] = before
          }
          const published = makeFake(publishedZone)
          const touched = new Set([...records, ...remove].map((r) => r.name))
          for (const name of names)
            for (const type of types) {
              const is = await Effect.runPromiseExit(preview.query(name, type))
              const then = await Effect.runPromiseExit(published.query(name, type))
              const was = await Effect.runPromiseExit(live.query(name, type))
              expect(is._tag).toBe(then._tag)
              if (is._tag !== "Success" || then._tag !== "Success" || was._tag !== "Success") continue
              expect(texts(is.value).sort()).toEqual(texts(then.value).sort())
              expect(absent(is.value)).toBe(absent(then.value))
              if (!touched.has(name) && name !== "example.com") expect(is.value).toEqual(was.value)
            }
        }
      ),
      { numRuns: runs(50) }
    )
  })
})
