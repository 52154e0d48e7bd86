/**
 * An alert in its monitor's language: the same changes, rules, fixes and links in English and in
 * Dutch, and every sentence a person reads in the language asked for (the diff's lines, the early
 * warnings, the fixes and the e-mail's own words).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type AlertContent, emailMessage, summaries, webhookBody } from "../../src/monitor/AlertMessage.ts"
import { evaluate } from "../../src/monitor/AlertRules.ts"
import { diffScans } from "../../src/monitor/Diff.ts"
import { changeSentence } from "../../src/monitor/DiffText.ts"
import { earlyWarnings } from "../../src/monitor/Warnings.ts"
import { catalogue } from "../../src/score/Catalogue.ts"
import { score } from "../../src/score/Score.ts"
import { arbScan, asDomain, perfectAlert, storedScan } from "./scans.ts"
import { runs } from "../support/runs.ts"

const perfect = storedScan("perfect.com")
const now = Date.parse(perfect.computedAt)
const later = new Date(now + 600_000).toISOString()
const listed = asDomain(storedScan("mx-listed.com"), "perfect.com", later)
const weakened = asDomain(storedScan("dmarc-none.com"), "perfect.com", later)

/** perfect.com's alert for the scan `after`, in `lang`. */
const alertOf = (after: typeof perfect, lang: AlertContent["lang"]): AlertContent => {
  const e = evaluate(perfect, after, [], now)
  return perfectAlert(
    later,
    {
      grade: { before: score(perfect).grade, after: score(after).grade },
      rules: e.rules,
      changes: e.changes,
      warnings: e.warnings,
      fixes: score(after).recommendations
    },
    lang
  )
}

interface Hook {
  readonly data: {
    readonly lang: string
    readonly rules: ReadonlyArray<string>
    readonly summaries: ReadonlyArray<string>
    readonly changes: ReadonlyArray<{ readonly id: string; readonly summary: string }>
    readonly fixes: ReadonlyArray<{ readonly id: string; readonly title: string; readonly impact: string }>
    readonly links: Record<string, string>
  }
}
const hookOf = (c: AlertContent) => JSON.parse(webhookBody(c)) as Hook

// Words only the English alert uses: a Dutch alert that still says one of them fell back to English.
const ENGLISH =
  /\b(went from|What to fix|Nothing to fix|History|Changes|Alert id|regains|dropped|New issue|Resolved|no longer|expires)\b/

describe("an alert in Dutch", () => {
  for (const [name, after] of [
    ["a DMARC policy weakened", weakened],
    ["a mail server listed", listed]
  ] as const) {
    it(`says the same as the English one, in Dutch: ${name}`, () => {
      const [en, nl] = [hookOf(alertOf(after, "en")), hookOf(alertOf(after, "nl"))]
      expect(en.data.lang).toBe("en")
      expect(nl.data.lang).toBe("nl")
      // the same facts: rules, changes, fixes and links, in the same order and count
      expect(nl.data.rules).toEqual(en.data.rules)
      expect(nl.data.changes.map((c) => c.id)).toEqual(en.data.changes.map((c) => c.id))
      expect(nl.data.fixes.map((f) => f.id)).toEqual(en.data.fixes.map((f) => f.id))
      expect(nl.data.links).toEqual(en.data.links)
      expect(nl.data.summaries).toHaveLength(en.data.summaries.length)
      // in other words: every sentence differs, none in English
      nl.data.summaries.forEach((line, i) => expect(line).not.toBe(en.data.summaries[i]))
      for (const line of [...nl.data.summaries, ...nl.data.changes.map((c) => c.summary)])
        expect(line).not.toMatch(ENGLISH)
      for (const fix of nl.data.fixes) {
        expect(fix.title).toBe(catalogue[fix.id]?.nl.title ?? fix.title)
        expect(fix.impact).not.toMatch(ENGLISH)
      }
    })
  }

  it("writes the e-mail in Dutch: its lines, the fixes and its own words", () => {
    const content = alertOf(weakened, "nl")
    const mail = emailMessage(content)
    expect(mail.text).toContain("- Het DMARC-beleid ging van reject naar none.")
    expect(mail.text).toContain(`Wat te verbeteren (${content.fixes.length})`)
    expect(mail.text).toContain("Geschiedenis: https://audit.example/api/history/perfect.com")
    expect(mail.text).not.toMatch(ENGLISH)
    for (const fix of content.fixes) expect(mail.text).toContain(catalogue[fix.id]!.nl.title)
    expect(mail.subject).toMatch(/^\[domain-audit\] perfect\.com: .+ \(en \d+ meer\)$/)
    // and the English one as before
    const english = emailMessage(alertOf(weakened, "en"))
    expect(english.text).toContain("- DMARC policy went from reject to none.")
    expect(english.text).toContain(`What to fix (${content.fixes.length})`)
  })

  it("warns in Dutch before a mail server's certificate expires", () => {
    const expiresAt = new Date(now + 5 * 86_400_000 + 1000).toISOString()
    const servers = perfect.checks["smtp-tls"].result!.servers.map((s) => ({ ...s, expiresAt }))
    const scan = {
      ...perfect,
      checks: {
        ...perfect.checks,
        "smtp-tls": {
          ...perfect.checks["smtp-tls"],
          result: { ...perfect.checks["smtp-tls"].result!, servers }
        }
      }
    }
    const warnings = earlyWarnings(scan, now).filter((w) => w.rule === "certificate-expiry")
    expect(warnings.length).toBeGreaterThan(0)
    const said = summaries({ changes: [], warnings, lang: "nl" })
    expect(said).toEqual(warnings.map((w) => w.summaryNl))
    expect(said[0]).toMatch(
      /^Het certificaat van de mailserver .+ verloopt over 5 dagen \(\d{4}-\d{2}-\d{2}\)\.$/
    )
    expect(summaries({ changes: [], warnings })).toEqual(warnings.map((w) => w.summary))
  })

  it("has a Dutch sentence for every change between any two scans", () => {
    fc.assert(
      fc.property(arbScan, arbScan, (a, b) => {
        for (const change of diffScans(a, asDomain(b, a.domain, later))) {
          const nl = changeSentence(change, "nl")
          expect(nl, change.id).not.toBe(change.summary)
          expect(nl).toMatch(/^[A-Z].*[.]$/s)
        }
      }),
      { numRuns: runs(30) }
    )
  })
})
