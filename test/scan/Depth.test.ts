/**
 * How a scan's depth selects its work and what its score says (kernel/Depth.ts, score/DepthNote.ts,
 * kernel/TlsServerRating.ts): a shallower depth never asks more, what it leaves out is left out of
 * the score and named there, and a server whose TLS was not enumerated reads as not checked, never
 * as failed or unknown.
 */
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { depthRank, enumeratesTls, NOT_ENUMERATED, ScanDepths } from "../../src/kernel/Depth.ts"
import { exampleTlsScan, WEB_V4 } from "../../src/kernel/examples/ExampleTlsScans.ts"
import { rateTlsServer } from "../../src/kernel/TlsServerRating.ts"
import { unenumeratedScan } from "../../src/net/TlsScan.ts"
import { certificateOnly } from "../../src/net/WebTlsScan.ts"
import { rateMxTls } from "../../src/checks/smtp-tls/SmtpTlsRating.ts"
import { analyse } from "../../src/checks/web-tls/WebTlsAnalyse.ts"
import { Categories } from "../../src/kernel/Check.ts"
import { scanResult } from "../../src/score/Arbitraries.ts"
import { depthNoteOf, notCheckedAt } from "../../src/score/DepthNote.ts"
import { score } from "../../src/score/Score.ts"
import { runs } from "../support/runs.ts"

const depth = fc.constantFrom(...ScanDepths)
const recordIds = (s: ReturnType<typeof score>) =>
  Categories.flatMap((c) => s.categories[c].checks.map((r) => r.id))

describe("what a depth asks", () => {
  it("a deeper scan asks all a shallower one does; full asks everything, quick no enumeration", () => {
    fc.assert(
      fc.property(depth, depth, fc.constantFrom("web" as const, "mail" as const), (a, b, servers) => {
        if (depthRank(a) <= depthRank(b) && enumeratesTls(a, servers))
          expect(enumeratesTls(b, servers)).toBe(true)
      }),
      { numRuns: runs(100) }
    )
    expect(enumeratesTls("full", "web") && enumeratesTls("full", "mail")).toBe(true)
    expect([enumeratesTls("standard", "web"), enumeratesTls("standard", "mail")]).toEqual([false, true])
    expect(enumeratesTls("quick", "web") || enumeratesTls("quick", "mail")).toBe(false)
  })

  it("leaves out of the score exactly the records of what it did not enumerate", () => {
    expect(notCheckedAt("full")).toEqual([])
    expect(notCheckedAt("standard").map((s) => s.id)).toEqual(["security.web.tls"])
    expect(notCheckedAt("quick").map((s) => s.id)).toEqual(["security.mx.tls", "security.web.tls"])
    expect(depthNoteOf(undefined)).toBeUndefined()
    expect(depthNoteOf("full")).toBeUndefined()
  })
})

describe("the score of a shallow scan", () => {
  it("is the full score without the records not checked, and names them", () => {
    fc.assert(
      fc.property(scanResult({ gradable: true }), depth, (scan, level) => {
        const full = score(scan)
        const shallow = score({ ...scan, depth: level })
        const left = notCheckedAt(level).map((s) => s.id)
        expect(recordIds(shallow)).toEqual(recordIds(full).filter((id) => !left.includes(id)))
        if (level === "full") expect(shallow.depth).toBeUndefined()
        else {
          expect(shallow.depth?.level).toBe(level)
          expect(shallow.depth?.notChecked.map((r) => r.id)).toEqual(left)
          // Not checked is neither a failure nor an unanswered question: no record of it at all.
          for (const c of Categories)
            for (const r of shallow.categories[c].checks) expect(left).not.toContain(r.id)
        }
      }),
      { numRuns: runs(15) }
    )
  })
})

describe("a server whose TLS was not enumerated", () => {
  const full = exampleTlsScan("example.com", WEB_V4)
  // A day into the example certificate's validity.
  const now = new Date(Date.parse(full.certificate!.chain[0]!.validFrom) + 86_400_000)

  it("is judged on its certificate alone, its versions and suites not checked", () => {
    const server = rateTlsServer(certificateOnly(full), now)
    expect(server.notChecked).toBe(NOT_ENUMERATED)
    expect(server.versions).toEqual([])
    expect(server.ciphers).toEqual([])
    expect(server.rating).toBeNull()
    expect(server.status).toBe("pass")
    expect(server.certificate).not.toBeNull()
    expect(server.handshakes).toBe(1)
    expect(server.issues).toEqual([])
    expect(rateTlsServer(full, now).notChecked).toBeUndefined()
  })

  it("fails for its certificate, never for the versions nobody asked about", () => {
    const untrusted = certificateOnly({
      ...full,
      certificate: { ...full.certificate!, trusted: false, trustError: "self-signed" }
    })
    const server = rateTlsServer(untrusted, now)
    expect(server.status).toBe("fail")
    expect(server.issues.join(" ")).toMatch(/not trusted \(self-signed\)/)
    expect(server.issues.join(" ")).not.toMatch(/accepts none/)
    // Unreachable stays unknown at every depth: not checked is not a timeout.
    const silent = rateTlsServer(certificateOnly({ ...full, status: "unknown", failure: "timeout" }), now)
    expect(silent.status).toBe("unknown")
  })

  it("in the web check, leaves the rating to a full scan and the certificates valid", () => {
    const result = analyse(
      {
        domain: "example.com",
        hosts: [{ host: "example.com", lookup: "answer", addresses: [WEB_V4] }],
        scans: [certificateOnly(full)]
      },
      now
    )
    expect(result.summary.status).toBe("pass")
    expect(result.summary.rating).toBeNull()
    expect(result.summary.versionsAccepted).toEqual([])
    expect(result.summary.allCertificatesValid).toBe(true)
  })

  it("at a mail server, adds no issue and no failure: the STARTTLS probe judged its certificate", () => {
    const rated = rateMxTls(
      unenumeratedScan("mx.example.com", "192.0.2.25", 25),
      "mx.example.com",
      new Date()
    )
    expect(rated).toEqual({
      view: expect.objectContaining({
        rating: null,
        versions: [],
        handshakes: 0,
        notChecked: NOT_ENUMERATED
      }),
      issues: [],
      status: "pass"
    })
  })
})
