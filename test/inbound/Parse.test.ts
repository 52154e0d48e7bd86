/**
 * The report parsers over hostile and honest input: every refusal names its problem, nothing
 * throws, and what a sender wrote is what is read (RFC 7489 Appendix C, RFC 9990, RFC 8460).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import * as fc from "fast-check"
import { gzipSync, zipSync } from "fflate"
import { readMessage, readPosted } from "../../src/inbound/Decode.ts"
import { parseDmarcXml } from "../../src/inbound/DmarcXml.ts"
import { DEFAULT_LIMITS, ReportRefused } from "../../src/inbound/Refusal.ts"
import { parseTlsReport } from "../../src/inbound/TlsReport.ts"
import { gunzipBounded, unzipBounded } from "../../src/inbound/Unpack.ts"
import { dmarcXml, gzipText, type RowSpec, tlsJson, zipText } from "./reports.ts"
import { runs } from "../support/runs.ts"

const limits = DEFAULT_LIMITS
const row: RowSpec = {
  ip: "192.0.2.1",
  count: 3,
  dkimAuth: [{ domain: "example.org", selector: "s1", result: "pass" }]
}

const refusal = (x: unknown): ReportRefused => {
  expect(x).toBeInstanceOf(ReportRefused)
  return x as ReportRefused
}

const posted = (kind: "dmarc" | "tls", type: string, bytes: Uint8Array | string) =>
  Effect.either(
    readPosted(kind, type, typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes, limits)
  )

describe("DMARC aggregate XML", () => {
  it("reads RFC 7489 Appendix C fields", () => {
    const r = parseDmarcXml(dmarcXml({ domain: "Example.ORG", org: "A & B", rows: [row] }), limits)
    if (r instanceof ReportRefused) throw new Error(r.message)
    expect(r.orgName).toBe("A & B")
    expect(r.policy).toMatchObject({ domain: "example.org", p: "none", pct: 100, np: null })
    expect(r.records[0]).toMatchObject({
      sourceIp: "192.0.2.1",
      count: 3,
      disposition: "none",
      dkim: "pass",
      authDkim: [{ domain: "example.org", selector: "s1", result: "pass" }],
      authSpf: [{ domain: "example.org", scope: "mfrom", result: "pass" }]
    })
  })

  it("reads RFC 9990 fields and ignores extensions", () => {
    const r = parseDmarcXml(dmarcXml({ domain: "example.org", bis: true, rows: [row] }), limits)
    if (r instanceof ReportRefused) throw new Error(r.message)
    expect(r).toMatchObject({ version: "1.0", generator: "Example Generator 1.0" })
    expect(r.policy).toMatchObject({ np: "reject", testing: "n", discoveryMethod: "treewalk", pct: null })
    expect(r.records[0]).toMatchObject({ envelopeTo: "example.net" })
    expect(r.records[0]!.authDkim[0]!.humanResult).toBe("ok")
  })

  it("refuses billion laughs, external entities and any DOCTYPE", () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><feedback>&lol2;</feedback>`
    expect(refusal(parseDmarcXml(laughs, limits))).toMatchObject({
      kind: "forbidden",
      message: expect.stringMatching(/DOCTYPE/)
    })
    const external = `<?xml version="1.0"?><!DOCTYPE f [<!ENTITY x SYSTEM "file:///etc/passwd">]><feedback><x>&x;</x></feedback>`
    expect(refusal(parseDmarcXml(external, limits)).kind).toBe("forbidden")
    expect(refusal(parseDmarcXml(`<!doctype feedback><feedback/>`, limits)).kind).toBe("forbidden")
    // an undeclared entity reference stays text; nothing is fetched or expanded
    const r = parseDmarcXml(
      dmarcXml({ domain: "example.org", org: "&xxe;", rows: [row] }).replace("&amp;xxe;", "&xxe;"),
      limits
    )
    if (r instanceof ReportRefused) throw new Error(r.message)
    expect(r.orgName).toBe("&xxe;")
  })

  it("refuses truncated XML, naming it not well-formed", () => {
    const xml = dmarcXml({ domain: "example.org", rows: [row] })
    for (const cut of [20, xml.length >> 1, xml.length - 5])
      expect(refusal(parseDmarcXml(xml.slice(0, cut), limits)).message).toMatch(/not well-formed|missing/)
  })

  it("refuses a wrong schema, naming the element", () => {
    expect(refusal(parseDmarcXml("<html><body/></html>", limits)).message).toMatch(
      /<feedback>? ?is missing|feedback/
    )
    const noIp = dmarcXml({ domain: "example.org", rows: [{ ...row, ip: "not-an-ip" }] })
    expect(refusal(parseDmarcXml(noIp, limits)).message).toMatch(/source_ip> is not an IP address/)
    const badCount = dmarcXml({ domain: "example.org", rows: [{ ...row, count: -1 }] })
    expect(refusal(parseDmarcXml(badCount, limits)).message).toMatch(/count> must be a non-negative integer/)
    const badDisp = dmarcXml({ domain: "example.org", rows: [{ ...row, disposition: "bounce" }] })
    expect(refusal(parseDmarcXml(badDisp, limits)).message).toMatch(/disposition> must be one of/)
  })

  it("refuses more records than the limit", () => {
    const xml = dmarcXml({ domain: "example.org", rows: Array.from({ length: 11 }, () => row) })
    expect(refusal(parseDmarcXml(xml, { maxRecords: 10 })).message).toMatch(
      /more than 10 records \(the limit\)/
    )
  })

  it("reads back what any sender wrote (property)", () => {
    const ip = fc.ipV4()
    const rowArb = fc.record({
      ip,
      count: fc.nat({ max: 1_000_000 }),
      disposition: fc.constantFrom("none", "quarantine", "reject"),
      dkim: fc.constantFrom("pass" as const, "fail" as const),
      spf: fc.constantFrom("pass" as const, "fail" as const),
      reasons: fc.array(
        fc.record({
          type: fc.constantFrom("forwarded", "local_policy"),
          comment: fc.string({ maxLength: 30 })
        }),
        { maxLength: 2 }
      )
    })
    fc.assert(
      fc.property(
        fc.array(rowArb, { minLength: 1, maxLength: 20 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.boolean(),
        (rows, id, bis) => {
          fc.pre(id.trim() !== "")
          const r = parseDmarcXml(dmarcXml({ domain: "example.org", reportId: id, rows, bis }), limits)
          if (r instanceof ReportRefused) throw new Error(r.message)
          expect(r.reportId).toBe(id.trim())
          expect(r.records.map((x) => [x.sourceIp, x.count, x.disposition, x.dkim, x.spf])).toEqual(
            rows.map((x) => [x.ip, x.count, x.disposition, x.dkim, x.spf])
          )
          expect(r.records.map((x) => x.reasons.map((z) => z.comment ?? ""))).toEqual(
            rows.map((x) => x.reasons.map((z) => z.comment.trim()))
          )
        }
      ),
      { numRuns: runs(150) }
    )
  })

  it("never throws on any text (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `<feedback>${s}</feedback>`)
        ),
        (s) => {
          const r = parseDmarcXml(s, limits)
          expect(r).toBeInstanceOf(ReportRefused)
        }
      ),
      { numRuns: runs(300) }
    )
  })
})

describe("TLS-RPT JSON", () => {
  it("reads RFC 8460 4.4", () => {
    const r = parseTlsReport(
      tlsJson({ domain: "Example.org", failures: [{ type: "certificate-expired", count: 4 }] }),
      limits
    )
    if (r instanceof ReportRefused) throw new Error(r.message)
    expect(r).toMatchObject({ orgName: "Example Sender", reportId: "tls-1", domain: "example.org" })
    expect(r.policies[0]).toMatchObject({
      policyType: "sts",
      mxHosts: ["mx.example.org"],
      successfulSessions: 100,
      failedSessions: 4,
      failures: [
        { resultType: "certificate-expired", failedSessions: 4, receivingMxHostname: "mx.example.org" }
      ]
    })
  })

  it("refuses broken JSON and a wrong schema, naming the member", () => {
    expect(refusal(parseTlsReport("{", limits)).kind).toBe("malformed")
    expect(refusal(parseTlsReport("[]", limits)).message).toMatch(/JSON object/)
    const noType = JSON.parse(tlsJson({ domain: "example.org" }))
    delete noType.policies[0].policy["policy-type"]
    expect(refusal(parseTlsReport(JSON.stringify(noType), limits)).message).toMatch(
      /policies\[0\]\.policy\.policy-type/
    )
  })

  it("never throws on any JSON (property)", () => {
    fc.assert(
      fc.property(fc.json(), (s) => {
        expect(parseTlsReport(s, limits)).toBeInstanceOf(ReportRefused)
      }),
      { numRuns: runs(300) }
    )
  })
})

describe("decompression bombs", () => {
  it("stops a gzip that expands to 1 GB within the limit", () => {
    // 1,024 gzip members of 1 MiB of zeros each (RFC 1952 2.2): 1 GiB once inflated, ~1 MB sent
    const member = gzipSync(new Uint8Array(1 << 20), { level: 9 })
    const bomb = new Uint8Array(member.length * 1024)
    for (let i = 0; i < 1024; i++) bomb.set(member, i * member.length)
    expect(refusal(gunzipBounded(bomb, limits))).toMatchObject({
      kind: "bomb",
      message: expect.stringMatching(/decompresses to more than/)
    })
    // a single member past the ratio
    expect(refusal(gunzipBounded(member, limits)).message).toMatch(/times its compressed size/)
  })

  it("refuses a zip with 10,000 entries, and a zip that holds no file", () => {
    const files: Record<string, Uint8Array> = {}
    for (let i = 0; i < 10_000; i++) files[`r${i}.xml`] = new Uint8Array(0)
    expect(refusal(unzipBounded(zipSync({ "empty/": new Uint8Array(0) }), limits)).kind).toBe("unsupported")
    expect(refusal(unzipBounded(zipSync(files), limits)).message).toMatch(/more than 16 entries/)
  })

  it("refuses truncated gzip and zip", () => {
    const gz = gzipText(dmarcXml({ domain: "example.org", rows: [row] }))
    expect(refusal(gunzipBounded(gz.subarray(0, gz.length - 4), limits)).kind).toBe("malformed")
    const z = zipText("a.xml", dmarcXml({ domain: "example.org", rows: [row] }))
    expect(refusal(unzipBounded(z.subarray(0, 60), limits)).kind).toBe("malformed")
  })
})

describe("what arrives", () => {
  const xml = dmarcXml({ domain: "example.org", rows: [row] })

  it.effect("takes XML, gzip and zip on the DMARC route, and refuses the wrong type or kind", () =>
    Effect.gen(function* () {
      for (const [type, body] of [
        ["application/xml", xml],
        ["text/xml; charset=utf-8", xml],
        ["application/gzip", gzipText(xml)],
        ["application/zip", zipText("report.xml", xml)]
      ] as const)
        expect(Either.getOrThrow(yield* posted("dmarc", type, body)).kind).toBe("dmarc")
      expect(Either.flip(yield* posted("dmarc", "application/json", xml)).pipe(Either.getOrThrow).kind).toBe(
        "unsupported"
      )
      const tls = Either.flip(
        yield* posted("dmarc", "application/gzip", gzipText(tlsJson({ domain: "example.org" })))
      )
      expect(Either.getOrThrow(tls).message).toMatch(/post it to \/api\/reports\/tls/)
      expect(Either.getOrThrow(Either.flip(yield* posted("dmarc", "application/gzip", xml))).message).toMatch(
        /not gzip/
      )
    })
  )

  it.effect("takes TLS-RPT JSON and gzip", () =>
    Effect.gen(function* () {
      const json = tlsJson({ domain: "example.org" })
      expect(Either.getOrThrow(yield* posted("tls", "application/tlsrpt+json", json)).kind).toBe("tls")
      expect(Either.getOrThrow(yield* posted("tls", "application/tlsrpt+gzip", gzipText(json))).kind).toBe(
        "tls"
      )
    })
  )

  it.effect("finds the report attached to a message, and names a message without one", () =>
    Effect.gen(function* () {
      const gz = Buffer.from(gzipText(xml)).toString("base64")
      const mail = [
        "From: noreply-dmarc@receiver.example",
        "To: rua@example.org",
        "Subject: Report Domain: example.org Submitter: receiver.example Report-ID: r-1",
        "MIME-Version: 1.0",
        'Content-Type: multipart/mixed; boundary="b"',
        "",
        "--b",
        "Content-Type: text/plain",
        "",
        "This is a DMARC aggregate report.",
        "--b",
        'Content-Type: application/gzip; name="receiver.example!example.org!1!2.xml.gz"',
        "Content-Transfer-Encoding: base64",
        'Content-Disposition: attachment; filename="receiver.example!example.org!1!2.xml.gz"',
        "",
        gz,
        "--b--",
        ""
      ].join("\r\n")
      const read = yield* readMessage(new TextEncoder().encode(mail), limits)
      expect(read.kind).toBe("dmarc")
      const none = yield* Effect.either(
        readMessage(new TextEncoder().encode("Subject: hi\r\n\r\nhello\r\n"), limits)
      )
      expect(Either.getOrThrow(Either.flip(none)).kind).toBe("unsupported")
    })
  )
})
