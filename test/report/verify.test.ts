/**
 * Evidence anyone can verify offline: a snapshot made here verifies, against its own hash and the
 * one a reader holds; a tampered copy fails and says what; a history export's chain verifies, and an
 * entry edited or removed breaks it at that entry. The `verify` command reads the same verdicts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, Schema } from "effect"
import { parseCommand } from "../../src/cli/Commands.ts"
import { verifyDocument } from "../../src/cli/Verify.ts"
import { nextEntry, type HistoryEntry } from "../../src/monitor/HistoryChain.ts"
import { verifyHistory } from "../../src/monitor/VerifyHistory.ts"
import { contentHashOf } from "../../src/report/Canonical.ts"
import { contentOf, encodeContent, snapshotEvidence } from "../../src/report/Everything.ts"
import { EverythingReport } from "../../src/report/ReportSchema.ts"
import { verifySnapshot } from "../../src/report/VerifySnapshot.ts"
import { scanResult } from "../../src/score/Arbitraries.ts"

const BASE = "https://audit.example/api"

const snapshotJson = (seed: number) => {
  const scan = fc.sample(scanResult({ gradable: true }), { numRuns: 1, seed })[0]!
  const content = contentOf(scan, BASE)
  const contentHash = contentHashOf(encodeContent(content))
  const evidence = snapshotEvidence(content, BASE, {
    id: "snap_1",
    contentHash,
    createdAt: "2026-01-01T00:00:00.000Z"
  })
  return {
    json: JSON.parse(Schema.encodeSync(Schema.parseJson(EverythingReport))({ ...content, evidence })),
    contentHash
  }
}

describe("verifySnapshot", () => {
  it("verifies a snapshot against its own hash and the hash a reader holds", () => {
    const { json, contentHash } = snapshotJson(1)
    // this copy is unsigned (as snapshots stored before the service signed them): the hash decides
    expect(verifySnapshot(json)).toEqual({
      valid: true,
      computedHash: contentHash,
      expectedHash: contentHash,
      failed: null,
      signature: { status: "absent", kid: null, keySource: null, problem: null },
      problem: null
    })
    expect(verifySnapshot(json, contentHash).valid).toBe(true)
    expect(verifyDocument(json).lines).toEqual([
      `verified ${contentHash}`,
      "not signed (made before the service signed its evidence): only the hashes were checked"
    ])
  })

  it("fails on a tampered copy, naming the hashes, even when the copy's own hash was rewritten", () => {
    const { json, contentHash } = snapshotJson(2)
    const tampered = structuredClone(json)
    tampered.summary.headline = `${tampered.summary.headline} `
    const v = verifySnapshot(tampered)
    expect(v.valid).toBe(false)
    expect(v.problem).toContain(`not ${contentHash}`)
    expect(v.problem).toContain("changed after it was stored")
    // a forger who also rewrites evidence.contentHash is caught by the hash the reader holds
    const forged = { ...tampered, evidence: { ...tampered.evidence, contentHash: v.computedHash } }
    expect(verifySnapshot(forged).valid).toBe(true)
    const held = verifySnapshot(forged, contentHash)
    expect(held.valid).toBe(false)
    expect(held.problem).toContain(`it claims ${v.computedHash}`)
    expect(verifyDocument(tampered).lines[0]).toMatch(/^NOT VERIFIED: the content hashes to sha256:/)
  })

  it("says what is missing from what is not a snapshot", () => {
    expect(verifySnapshot([]).problem).toBe("not a JSON object")
    expect(verifySnapshot({ domain: "example.com" }).problem).toMatch(/no evidence.contentHash/)
  })
})

describe("verifyHistory", () => {
  const chain = (n: number): Array<HistoryEntry> => {
    const out: Array<HistoryEntry> = []
    for (let i = 0; i < n; i++)
      out.push(
        nextEntry("example.com", out.at(-1) ?? null, {
          scannedAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
          grade: "B",
          percentage: 80 + i,
          scanJson: JSON.stringify({ i })
        })
      )
    return out
  }

  it("verifies an export's chain, also one that starts mid-history", () => {
    const entries = chain(5)
    expect(verifyHistory({ domain: "example.com", entries })).toMatchObject({ valid: true, entries: 5 })
    expect(verifyHistory({ domain: "example.com", entries: entries.slice(2) }).valid).toBe(true)
    expect(verifyDocument({ domain: "example.com", entries }).lines[0]).toMatch(
      /^verified: 5 history entries/
    )
  })

  it("breaks at the entry edited or removed, and for another domain", () => {
    const entries = chain(5)
    const edited = entries.map((e) => (e.seq === 3 ? { ...e, percentage: 99 } : e))
    expect(verifyHistory({ domain: "example.com", entries: edited })).toMatchObject({
      valid: false,
      invalidSeq: 3
    })
    const removed = entries.filter((e) => e.seq !== 3)
    expect(verifyHistory({ domain: "example.com", entries: removed })).toMatchObject({
      valid: false,
      invalidSeq: 4
    })
    expect(verifyHistory({ domain: "example.org", entries }).invalidSeq).toBe(1)
  })
})

describe("domain-audit verify", () => {
  it("takes one source and an optional hash", () => {
    const hash = `sha256:${"a".repeat(64)}`
    expect(parseCommand(["verify", "snap.json", "--hash", hash])).toEqual(
      Either.right({ _tag: "Verify", source: "snap.json", hash })
    )
    expect(Either.isLeft(parseCommand(["verify"]))).toBe(true)
    expect(Either.isLeft(parseCommand(["verify", "a", "--hash", "md5:x"]))).toBe(true)
  })
})
