/**
 * Receivers' quirks, each its own case (made here, so they run without the sample set): what
 * parsedmarc reads is read, the repair named in `warnings`, and nothing else of the report lost.
 * Declared encodings are honoured.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { gzipSync, zipSync } from "fflate"
import { readPosted } from "../../src/inbound/Decode.ts"
import { DEFAULT_LIMITS } from "../../src/inbound/Refusal.ts"
import type { ParsedReport } from "../../src/inbound/Storable.ts"
import { dmarcXml, type RowSpec } from "./reports.ts"

const row: RowSpec = {
  ip: "192.0.2.1",
  count: 3,
  dkimAuth: [{ domain: "example.org", selector: "s1", result: "pass" }]
}
const xml = dmarcXml({ domain: "example.org", rows: [row, { ...row, ip: "192.0.2.2", count: 4 }] })

const read = (type: string, body: Uint8Array | string) =>
  Effect.map(
    Effect.either(
      readPosted(
        "dmarc",
        type,
        typeof body === "string" ? new TextEncoder().encode(body) : body,
        DEFAULT_LIMITS
      )
    ),
    (r): Extract<ParsedReport, { kind: "dmarc" }> => {
      if (Either.isLeft(r)) throw new Error(`refused: ${r.left.message}`)
      if (r.right.kind !== "dmarc") throw new Error("not a DMARC report")
      return r.right
    }
  )

describe("receivers' quirks", () => {
  it.effect("an empty org_name: the e-mail domain names the reporter", () =>
    Effect.gen(function* () {
      const r = yield* read(
        "application/xml",
        xml.replace(/<org_name>[^<]*<\/org_name>/, "<org_name></org_name>")
      )
      expect(r.report.orgName).toBe("receiver.example")
      expect(r.warnings).toEqual(["org_name empty: used the report's e-mail domain (receiver.example)"])
    })
  )

  it.effect("an empty <reason><type>: the reason is left out, the record kept", () =>
    Effect.gen(function* () {
      const r = yield* read(
        "application/xml",
        xml.replace(
          "</spf></policy_evaluated>",
          "</spf><reason><type></type><comment></comment></reason></policy_evaluated>"
        )
      )
      expect(r.fold.rows).toHaveLength(2)
      expect(r.warnings).toEqual(["a <reason> without a type was left out (record[0])"])
    })
  )

  it.effect("an empty DKIM domain in one record: that result is left out, the report kept", () =>
    Effect.gen(function* () {
      const broken = dmarcXml({
        domain: "example.org",
        rows: [row, { ...row, ip: "192.0.2.2", dkimAuth: [{ domain: "", selector: "s1", result: "pass" }] }]
      })
      const r = yield* read("application/xml", broken)
      expect(r.fold.rows).toHaveLength(2)
      expect(r.fold.rows[1]!.dkim_auth).toBe("")
      expect(r.warnings).toEqual(["a DKIM result without a domain was left out (record[1])"])
    })
  )

  it.effect("a <feedback> wrapped in <xs:schema>, never closed", () =>
    Effect.gen(function* () {
      const wrapped = xml.replace(
        "<feedback>",
        '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://dmarc.org/dmarc-xml/0.1">\n<feedback>'
      )
      const r = yield* read("application/xml", wrapped)
      expect(r.fold.rows).toHaveLength(2)
      expect(r.warnings[0]).toBe("the report is wrapped in <xs:schema>: read the <feedback> inside")
    })
  )

  it.effect("bytes after the gzip stream (Mimecast's CRLF)", () =>
    Effect.gen(function* () {
      const gz = gzipSync(new TextEncoder().encode(xml))
      const r = yield* read("application/gzip", new Uint8Array([...gz, 13, 10]))
      expect(r.fold.messages()).toBe(7)
      expect(r.warnings).toEqual(["2 byte(s) after the gzip stream ignored"])
    })
  )

  it.effect(
    "a policy_evaluated without dkim/spf: the verdicts computed from auth_results and alignment",
    () =>
      Effect.gen(function* () {
        const old = dmarcXml({
          domain: "example.org",
          rows: [{ ...row, spfAuth: [{ domain: "bounce.other.example", result: "pass" }] }]
        }).replace(/<dkim>pass<\/dkim><spf>pass<\/spf>/, "")
        const r = yield* read("application/xml", old)
        // DKIM d=example.org passes and aligns; SPF passes for another domain, unaligned
        expect(r.fold.rows[0]).toMatchObject({ dkim: "pass", spf: "fail" })
        expect(r.warnings).toEqual([
          "<policy_evaluated> gave no <dkim> verdict: computed from auth_results and alignment (record[0])",
          "<policy_evaluated> gave no <spf> verdict: computed from auth_results and alignment (record[0])"
        ])
      })
  )

  it.effect("a zip entry with an empty name: taken by its content", () =>
    Effect.gen(function* () {
      const r = yield* read("application/zip", zipSync({ "": new TextEncoder().encode(xml) }))
      expect(r.fold.rows).toHaveLength(2)
      expect(r.warnings).toEqual(["the zip entry has no name: read by its content"])
    })
  )

  it.effect("a record that cannot be read is skipped, the others kept", () =>
    Effect.gen(function* () {
      const r = yield* read(
        "application/xml",
        xml.replace("<source_ip>192.0.2.2</source_ip>", "<source_ip>nowhere</source_ip>")
      )
      expect(r.fold.rows.map((x) => x.source_ip)).toEqual(["192.0.2.1"])
      expect(r.warnings[0]).toMatch(/^record skipped: <record\[1\]\.row\.source_ip> is not an IP address/)
    })
  )
})

describe("declared encodings", () => {
  const named = (encoding: string) =>
    dmarcXml({ domain: "example.org", org: "Société Générale", rows: [row] }).replace(
      'encoding="UTF-8"',
      `encoding="${encoding}"`
    )
  const latin1 = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0))

  it.effect("ISO-8859-1 and windows-1252 are read as declared", () =>
    Effect.gen(function* () {
      for (const encoding of ["ISO-8859-1", "windows-1252"]) {
        const r = yield* read("application/xml", latin1(named(encoding)))
        expect(r.report.orgName, encoding).toBe("Société Générale")
        expect(r.warnings, encoding).toEqual([])
      }
    })
  )

  it.effect("UTF-16 with a byte order mark, little- and big-endian, and without one", () =>
    Effect.gen(function* () {
      const text = named("UTF-16")
      const le = new Uint8Array(2 + text.length * 2)
      le.set([0xff, 0xfe])
      for (let i = 0; i < text.length; i++)
        le.set([text.charCodeAt(i) & 255, text.charCodeAt(i) >> 8], 2 + i * 2)
      const be = le.slice()
      be.set([0xfe, 0xff])
      for (let i = 0; i < text.length; i++)
        be.set([text.charCodeAt(i) >> 8, text.charCodeAt(i) & 255], 2 + i * 2)
      for (const [name, bytes] of [
        ["LE", le],
        ["BE", be],
        ["LE without BOM", le.subarray(2)]
      ] as const) {
        const r = yield* read("application/xml", bytes)
        expect(r.report.orgName, name).toBe("Société Générale")
      }
    })
  )

  it.effect("invalid UTF-8 is replaced and said so", () =>
    Effect.gen(function* () {
      const bytes = latin1(named("UTF-8"))
      const r = yield* read("application/xml", bytes)
      expect(r.report.orgName).toBe("Soci\uFFFDt\uFFFD G\uFFFDn\uFFFDrale")
      expect(r.warnings).toEqual(["4 byte sequence(s) invalid in utf-8 replaced with U+FFFD"])
    })
  )
})
