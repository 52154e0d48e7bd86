/**
 * "What if" in the world (docs/preview.md): previewing a domain's live records changes nothing;
 * previewing the fix of spf-toomany.com (its SPF flattened under the 10 look-ups) closes exactly
 * that issue and raises the grade; an MTA-STS policy given as a file is read in place of the live
 * one; a TLSA record previewed in a signed zone is judged as signed and listed as not judged; bad
 * input is a 400 naming the record. One app for the file.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { testApp } from "../http/harness.ts"
import { worldEnv } from "./env.ts"

const post = (body: unknown) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const res = yield* client.execute(
      HttpClientRequest.post("/api/scan/preview").pipe(HttpClientRequest.bodyUnsafeJson(body))
    )
    return { status: res.status, json: (yield* res.json) as any }
  }).pipe(Effect.scoped)

const FLAT_SPF =
  "v=spf1 ip4:192.0.2.1 ip4:192.0.2.2 ip4:192.0.2.3 ip4:198.51.100.1 ip4:198.51.100.2 ip4:198.51.100.3 a mx ip4:203.0.113.1 -all"

const issueIds = (r: any): Array<string> => r.issues.map((i: any) => i.id).sort()

describe("previews in the world", () => {
  layer(testApp(worldEnv()), { timeout: 120_000, excludeTestServices: true })((it) => {
    it.effect("previewing the live records of dmarc-none.com changes nothing", () =>
      Effect.gen(function* () {
        const { status, json } = yield* post({
          domain: "dmarc-none.com",
          records: [
            { name: "@", type: "TXT", value: "v=spf1 -all" },
            { name: "_dmarc.dmarc-none.com", type: "TXT", value: "v=DMARC1; p=none" }
          ]
        })
        expect(status).toBe(200)
        expect(json.preview).toBe(true)
        expect(json.cached).toBe(false)
        expect(json.compared.changes).toEqual([])
        expect(json.compared.summary).toEqual([])
        expect(json.compared.live).toMatchObject({ grade: json.grade, percentage: json.percentage })
        expect(json.notJudged).toEqual([])
      })
    )

    it.effect(
      "previewing the flattened SPF of spf-toomany.com fixes the look-up limit and nothing else",
      () =>
        Effect.gen(function* () {
          const { status, json } = yield* post({
            domain: "spf-toomany.com",
            records: [{ name: "spf-toomany.com", type: "TXT", value: FLAT_SPF }]
          })
          expect(status).toBe(200)
          const live = json.compared.live
          expect(live.grade).toBe("F")
          expect(json.percentage).toBeGreaterThan(live.percentage)
          const closed = json.compared.changes
            .filter((c: any) => c.kind === "issue-closed")
            .map((c: any) => c.id)
          const opened = json.compared.changes.filter((c: any) => c.kind === "issue-opened")
          expect(closed).toEqual(["issue/spf_too_many_lookups"])
          expect(opened).toEqual([])
          expect(issueIds(json)).not.toContain("spf_too_many_lookups")
          expect(json.compared.summary.join(" ")).toContain("SPF")
        })
    )

    it.effect("an MTA-STS policy given as a file is read in place of the live one", () =>
      Effect.gen(function* () {
        const { status, json } = yield* post({
          domain: "mtasts-mismatch.com",
          records: [],
          files: [
            {
              url: "https://mta-sts.mtasts-mismatch.com/.well-known/mta-sts.txt",
              body: "version: STSv1\nmode: enforce\nmx: mx.mtasts-mismatch.com\nmax_age: 604800\n"
            }
          ]
        })
        expect(status).toBe(200)
        const closed = json.compared.changes.filter((c: any) => c.kind === "issue-closed")
        expect(closed.length).toBeGreaterThan(0)
        expect(json.compared.changes.filter((c: any) => c.kind === "issue-opened")).toEqual([])
      })
    )

    it.effect(
      "the TLSA record /ai/fix proposes for dane-mismatch.com, previewed in its signed zone, fixes DANE and is listed as not judged",
      () =>
        Effect.gen(function* () {
          const client = yield* HttpClient.HttpClient
          const proposal = (yield* (yield* client.execute(
            HttpClientRequest.post("/api/ai/fix").pipe(
              HttpClientRequest.bodyUnsafeJson({ issue: "dane_invalid", domain: "dane-mismatch.com" })
            )
          )).json) as any
          expect(proposal.fix.record_type).toBe("TLSA")
          const { status, json } = yield* post({
            domain: "dane-mismatch.com",
            records: [{ name: proposal.fix.dns_record, type: "TLSA", value: proposal.fix.value }]
          })
          expect(status).toBe(200)
          const closed = json.compared.changes
            .filter((c: any) => c.kind === "issue-closed")
            .map((c: any) => c.id)
          expect(closed).toContain("issue/dane_invalid")
          expect(issueIds(json)).not.toContain("dane_invalid")
          expect(json.notJudged.map((n: any) => `${n.name} ${n.type}`)).toEqual([
            `${proposal.fix.dns_record} TLSA`
          ])
        }).pipe(Effect.scoped)
    )

    it.effect("bad input is a 400 naming the record", () =>
      Effect.gen(function* () {
        const outside = yield* post({
          domain: "dmarc-none.com",
          records: [{ name: "_dmarc.example.org", type: "TXT", value: "v=DMARC1; p=reject" }]
        })
        expect(outside.status).toBe(400)
        expect(outside.json.error).toContain("_dmarc.example.org")
        const malformed = yield* post({
          domain: "dmarc-none.com",
          records: [{ name: "_dmarc.dmarc-none.com", type: "TXT", value: "v=DMARC1; p=maybe" }]
        })
        expect(malformed.status).toBe(400)
        expect(malformed.json.error).toContain("_dmarc.dmarc-none.com")
        const many = yield* post({
          domain: "dmarc-none.com",
          records: Array.from({ length: 51 }, (_, i) => ({
            name: `h${i}.dmarc-none.com`,
            type: "A",
            value: `192.0.2.${i + 1}`
          }))
        })
        expect(many.status).toBe(400)
        expect(many.json.error).toContain("at most 50")
      })
    )
  })
})
