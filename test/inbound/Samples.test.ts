/**
 * parsedmarc's sample set (real reports from Google, Microsoft, Yahoo, Fastmail, Mimecast, IKEA,
 * mail.ru, ...; README of ../shared/corpora/parsedmarc-samples): every aggregate and TLS report
 * parsedmarc reads is read here too, with the records and messages an independent count finds,
 * and each repair named. Read in place; skipped with a message when the folder is absent.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { gunzipSync, unzipSync } from "fflate"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { readMessage, readPosted } from "../../src/inbound/Decode.ts"
import { DEFAULT_LIMITS } from "../../src/inbound/Refusal.ts"
import type { ParsedReport } from "../../src/inbound/Storable.ts"

const SAMPLES = "../shared/corpora/parsedmarc-samples/samples"
const present = existsSync(SAMPLES)
if (!present) console.warn(`skipping the sample-set tests: ${SAMPLES} is absent (see its README)`)

const files = (dir: string) =>
  present ? readdirSync(join(SAMPLES, dir)).filter((f) => /\.(xml|gz|zip|eml|json)$/.test(f)) : []

const typeOf = (file: string) =>
  file.endsWith(".eml")
    ? "message/rfc822"
    : file.endsWith(".gz")
      ? "application/gzip"
      : file.endsWith(".zip")
        ? "application/zip"
        : file.endsWith(".json")
          ? "application/tlsrpt+json"
          : "application/xml"

const read = (dir: string, file: string) => {
  const bytes = new Uint8Array(readFileSync(join(SAMPLES, dir, file)))
  return Effect.either(
    file.endsWith(".eml")
      ? readMessage(bytes, DEFAULT_LIMITS)
      : readPosted(file.endsWith(".json") ? "tls" : "dmarc", typeOf(file), bytes, DEFAULT_LIMITS)
  )
}

/** The records and messages of a report's XML, counted by a regular expression: no XML parser. */
const independentCount = (dir: string, file: string) => {
  const bytes = new Uint8Array(readFileSync(join(SAMPLES, dir, file)))
  const xml = new TextDecoder().decode(
    file.endsWith(".gz")
      ? gunzipSync(bytes)
      : file.endsWith(".zip")
        ? Object.values(unzipSync(bytes))[0]!
        : bytes
  )
  const counts = [...xml.matchAll(/<count>\s*(\d+)\s*<\/count>/g)].map((m) => Number(m[1]))
  return { records: (xml.match(/<record>/g) ?? []).length, messages: counts.reduce((a, b) => a + b, 0) }
}

const accepted = (r: Either.Either<ParsedReport, unknown>, file: string): ParsedReport => {
  if (Either.isLeft(r)) throw new Error(`${file} refused: ${(r.left as Error).message}`)
  return r.right
}

describe.skipIf(!present)("parsedmarc's sample set", () => {
  it.effect("reads every aggregate report parsedmarc reads, counting what an independent count finds", () =>
    Effect.gen(function* () {
      const dirs = ["aggregate", "extract_report"]
      let n = 0
      for (const dir of dirs)
        for (const file of files(dir)) {
          const parsed = accepted(yield* read(dir, file), file)
          expect(parsed.kind, file).toBe("dmarc")
          if (parsed.kind !== "dmarc") continue
          n++
          if (file.endsWith(".eml")) {
            expect(parsed.fold.rows.length, file).toBeGreaterThan(0)
            continue
          }
          const expected = independentCount(dir, file)
          expect({ records: parsed.fold.rows.length, messages: parsed.fold.messages() }, file).toEqual(
            expected
          )
        }
      expect(n).toBe(files("aggregate").length + files("extract_report").length)
    })
  )

  it.effect("reads every TLS report, by https and by mail", () =>
    Effect.gen(function* () {
      for (const file of files("smtp_tls")) {
        const parsed = accepted(yield* read("smtp_tls", file), file)
        expect(parsed.kind, file).toBe("tls")
      }
    })
  )

  it.effect("names each receiver's quirk it repaired", () =>
    Effect.gen(function* () {
      const warningsOf = (dir: string, file: string) =>
        Effect.map(read(dir, file), (r) => accepted(r, file).warnings.join("\n"))
      expect(yield* warningsOf("aggregate", "!example.com!1538204542!1538463818.xml")).toMatch(
        /org_name empty: used the report's e-mail domain \(accurateplastics\.com\)/
      )
      expect(yield* warningsOf("aggregate", "empty_reason.xml")).toMatch(
        /<reason> without a type was left out/
      )
      expect(yield* warningsOf("aggregate", "ikea.com!example.de!1538690400!1538776800.xml")).toMatch(
        /wrapped in <xs:schema>/
      )
      expect(yield* warningsOf("aggregate", "mimecast-weird-gzip.eml")).toMatch(
        /2 byte\(s\) after the gzip stream ignored/
      )
      expect(yield* warningsOf("aggregate", "invalid_utf_8.xml")).toMatch(/invalid in utf-8 replaced/)
      expect(yield* warningsOf("aggregate", "invalid_xml.xml")).toMatch(/not well-formed at 5:18/)
    })
  )

  it.effect("refuses the empty file, as parsedmarc does", () =>
    Effect.gen(function* () {
      const bytes = new Uint8Array(readFileSync(join(SAMPLES, "empty.xml")))
      const r = yield* Effect.either(readPosted("dmarc", "application/xml", bytes, DEFAULT_LIMITS))
      expect(Either.isLeft(r)).toBe(true)
    })
  )
})
