/**
 * The order a diff is read in (DiffOrder.ts) and its lines (DiffLines.ts), over generated pairs of
 * scans: the order is a permutation of the changes, the grade first, what got worse by severity,
 * independent of the order the changes came in; the lines stand for every change once. And the
 * example it is for: perfect.com, then the same domain without its web site and mail servers,
 * reads as a handful of lines, the grade first, in the history and in an alert alike.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { registry } from "../../src/checks/index.ts"
import { Severities } from "../../src/kernel/Status.ts"
import { emailMessage, summaries, webhookBody } from "../../src/monitor/AlertMessage.ts"
import { evaluate } from "../../src/monitor/AlertRules.ts"
import type { Change } from "../../src/monitor/Change.ts"
import { diffScans } from "../../src/monitor/Diff.ts"
import { diffLines } from "../../src/monitor/DiffLines.ts"
import { noLongerApplies, orderChanges, partOf } from "../../src/monitor/DiffOrder.ts"
import { canonicalJson } from "../../src/report/Canonical.ts"
import { readBack, without } from "../fixtures/registries.ts"
import { runs } from "../support/runs.ts"
import { arbScan, asDomain, perfectAlert, storedScan } from "./scans.ts"

/** Two scans of one domain, the older sometimes stored by a service that lacked a few checks. */
const arbPair = fc
  .tuple(
    arbScan,
    arbScan,
    fc.subarray(
      registry.map((c) => c.id).filter((id) => id !== "dns-records"),
      { maxLength: 2 }
    )
  )
  .map(([a, b, gone]) => [gone.length === 0 ? a : readBack(without(...gone), a), b] as const)

/** The changes in an order given by `keys` (a shuffle fast-check can shrink). */
const shuffled = (changes: ReadonlyArray<Change>, keys: ReadonlyArray<number>) =>
  changes
    .map((c, i) => ({ c, key: keys[i % Math.max(1, keys.length)] ?? 0, i }))
    .sort((x, y) => x.key - y.key || y.i - x.i)
    .map((x) => x.c)

const asSet = (changes: ReadonlyArray<Change>) => changes.map(canonicalJson).sort()
const PARTS = ["grade", "worse", "no-longer-applies", "better"]

describe("the order of a diff", () => {
  it("is a permutation of the changes, whatever order they came in, and ordering twice changes nothing", () => {
    fc.assert(
      fc.property(arbPair, fc.array(fc.integer()), ([a, b], keys) => {
        const changes = diffScans(a, b)
        const again = orderChanges(shuffled(changes, keys))
        expect(asSet(again)).toEqual(asSet(changes))
        expect(again).toEqual(changes)
        expect(orderChanges(changes)).toEqual(changes)
      }),
      { numRuns: runs(60) }
    )
  })

  it("puts the grade first, then what got worse by severity, then what no longer applies, then the rest", () => {
    fc.assert(
      fc.property(arbPair, ([a, b]) => {
        const changes = diffScans(a, b)
        if (changes.some((c) => c.kind === "grade")) expect(changes[0]!.kind).toBe("grade")
        const parts = changes.map((c) => PARTS.indexOf(partOf(c)))
        expect(parts).toEqual([...parts].sort((x, y) => x - y))
        const worse = changes.filter((c) => partOf(c) === "worse").map((c) => Severities.indexOf(c.severity))
        expect(worse).toEqual([...worse].sort((x, y) => x - y))
      }),
      { numRuns: runs(60) }
    )
  })

  it("gives lines that stand for every change once, in its order, and read as sentences", () => {
    fc.assert(
      fc.property(arbPair, ([a, b]) => {
        const changes = diffScans(a, b)
        const lines = diffLines(changes)
        expect(lines.flatMap((l) => l.ids)).toEqual(changes.map((c) => c.id))
        const byId = new Map(changes.map((c) => [c.id, c]))
        for (const line of lines) {
          expect(line.summary).toMatch(/^[A-Z].*\.$/s)
          if (line.ids.length > 1) {
            expect(line.checks).toHaveLength(line.ids.length)
            for (const id of line.ids) expect(noLongerApplies(byId.get(id)!)).toBe(true)
          } else expect(line.checks).toEqual([])
        }
        const grade = changes.find((c) => c.kind === "grade")
        if (grade !== undefined) expect(summaries({ changes, warnings: [] })[0]).toBe(grade.summary)
      }),
      { numRuns: runs(60) }
    )
  })
})

describe("a domain whose web site and mail servers went away", () => {
  const perfect = storedScan("perfect.com")
  const now = Date.parse(perfect.computedAt)
  const later = new Date(now + 600_000).toISOString()
  // dmarc-none.com has no address at its apex, no MX, an unsigned zone and p=none.
  const bare = asDomain(storedScan("dmarc-none.com"), "perfect.com", later)
  const changes = diffScans(perfect, bare)
  const lines = diffLines(changes)
  const at = (text: string) => lines.findIndex((l) => l.summary.includes(text))

  it("reads the grade first and the DMARC policy before any check that no longer applies", () => {
    expect(lines[0]!.summary).toBe("The grade dropped from A+ to D (100% to 52%).")
    expect(lines[1]!.summary).toBe("New issue: DMARC policy is none.")
    expect(at("DMARC policy went from reject to none.")).toBeLessThan(at("no longer apply"))
  })

  it("says in one line per area what no longer applies, naming the checks in a field", () => {
    const web = lines.find((l) => l.summary.startsWith("The web site went away"))
    expect(web).toMatchObject({
      severity: "info",
      summary: "The web site went away: 11 web checks no longer apply."
    })
    expect(web!.checks).toEqual(expect.arrayContaining(["HTTPS", "HSTS", "Content-Security-Policy"]))
    expect(web!.checks[0]).toBe("HTTPS")
    const mail = lines.find((l) => l.summary.startsWith("The domain no longer has a mail server"))
    expect(mail!.checks).toContain("STARTTLS on every mail server")
    expect(lines.map((l) => l.summary)).toContain("No longer applicable: 3 DNSSEC checks.")
    // 48 changes, of which 23 checks no longer apply in three areas and one on its own
    expect(changes).toHaveLength(48)
    expect(lines).toHaveLength(48 - 23 + 3)
    expect(lines.slice(-4).every((l) => l.severity === "info")).toBe(true)
  })

  it("reads the same lines in Dutch, in the same order, for the history page with lang=nl", () => {
    const nl = diffLines(changes, "nl")
    expect(nl.map((l) => l.ids)).toEqual(lines.map((l) => l.ids))
    expect(nl[0]!.summary).toBe("Het cijfer daalde van A+ naar D (100% naar 52%).")
    expect(nl[1]!.summary).toBe("Nieuw probleem: DMARC-beleid is none.")
    const summaries = nl.map((l) => l.summary)
    expect(summaries).toContain("De website is verdwenen: 11 webcontroles zijn niet meer van toepassing.")
    expect(summaries).toContain("Niet meer van toepassing: 3 DNSSEC-controles.")
    expect(summaries.filter((t) => /^De controle ".+" ging van \S+ naar /.test(t)).length).toBeGreaterThan(0)
    for (const line of nl) expect(line.summary).toMatch(/^[A-Z].*\.$/)
  })

  it("alerts in the same order: the grade change is the first summary, in the webhook and the e-mail", () => {
    const e = evaluate(perfect, bare, [], now)
    expect(e.changes).toEqual(changes)
    const content = perfectAlert(later, {
      grade: { before: "A+", after: "D" },
      rules: e.rules,
      changes: [...e.changes].reverse(),
      warnings: e.warnings,
      fixes: []
    })
    const body = JSON.parse(webhookBody(content)).data
    expect(body.changes.map((c: Change) => c.id)).toEqual(changes.map((c) => c.id))
    expect(body.summaries[0]).toBe("The grade dropped from A+ to D (100% to 52%).")
    expect(body.summaries).toHaveLength(lines.length + e.warnings.length)
    const mail = emailMessage(content)
    expect(mail.subject).toBe(
      `[domain-audit] perfect.com: The grade dropped from A+ to D (100% to 52%). (and ${body.summaries.length - 1} more)`
    )
    const listed = mail.text.split("\n").filter((l) => l.startsWith("- "))
    expect(listed[0]).toBe("- The grade dropped from A+ to D (100% to 52%).")
    expect(mail.text).toContain("- The web site went away: 11 web checks no longer apply (HTTPS, ")
  })

  it("puts an early warning after what got worse, before what no longer applies or got better", () => {
    const warning = {
      key: "certificate:mx.perfect.com:2026-01-08T00:00:00.000Z:7",
      rule: "certificate-expiry" as const,
      summary: "The certificate of mx.perfect.com expires in 5 days.",
      summaryNl: "Het certificaat van mx.perfect.com verloopt over 5 dagen.",
      expiresAt: "2026-01-08T00:00:00.000Z",
      daysLeft: 5
    }
    const said = summaries({ changes, warnings: [warning] })
    expect(said).toHaveLength(lines.length + 1)
    const worse = lines.filter((l) =>
      l.ids.every((id) => partOf(changes.find((c) => c.id === id)!) === "worse")
    )
    expect(worse.length).toBeGreaterThan(0)
    expect(said.indexOf(warning.summary)).toBe(1 + worse.length)
    expect(said.indexOf(warning.summary)).toBeLessThan(said.findIndex((l) => l.includes("no longer apply")))
    // with nothing but the warning, it is the only line
    expect(summaries({ changes: [], warnings: [warning] })).toEqual([warning.summary])
  })
})
