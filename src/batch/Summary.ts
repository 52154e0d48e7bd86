/**
 * What a batch tells at its end, on stderr: the counts, the time and rate, the grades the scanned
 * domains got and the issues they share most. Pure text from counts (`Tally` only adds them up),
 * so that the wording is tested without a run.
 */
import { catalogue } from "../score/Catalogue.ts"
import { Grade } from "../score/Model.ts"
import { parseCsvRecord } from "./Csv.ts"
import { duration, rateNumber } from "./Progress.ts"
import {
  type BatchRecord,
  type BatchResult,
  CSV_COLUMNS,
  type Format,
  isFailure,
  type Verdict,
  verdictOf
} from "./Record.ts"

export interface BatchSummary {
  readonly scanned: number
  readonly failed: number
  readonly incomplete: number
  /** Domains skipped because the output already held them. */
  readonly alreadyWritten: number
  readonly duplicates: number
  readonly invalid: number
  /** Bytes of a torn last record cut from the output before resuming. */
  readonly tornBytes: number
  /** Scans that waited for room on the heap before starting (`HeapRoom.ts`). */
  readonly heldForMemory: number
  /** Scans that waited for the DNS sweeps' window before starting (`HeapRoom.ts`, `SweepScheduler.ts`). */
  readonly heldForDns?: number
  readonly elapsedMs: number
  /** Domains per grade: this run's and, resuming, those the output held before. */
  readonly grades: ReadonlyMap<Verdict, number>
  /** The most common issues over the same domains, most domains first: id, title, domains. */
  readonly topIssues: ReadonlyArray<{ readonly id: string; readonly title: string; readonly domains: number }>
}

/** How many issues the summary lists. */
export const TOP_ISSUES = 10

const titles: Record<string, { readonly title: string } | undefined> = catalogue
const GRADE = CSV_COLUMNS.indexOf("grade")
/** The grades best first, then the domains that could not be graded. */
const VERDICTS: ReadonlyArray<Verdict> = [...Grade.literals, "unscannable"]
const ISSUES = CSV_COLUMNS.indexOf("issues")

/** Grades and issues of the records written, for the summary. */
export class Tally {
  readonly grades = new Map<Verdict, number>()
  private readonly issues = new Map<string, { title: string; domains: number }>()

  private count(grade: Verdict, issues: ReadonlyArray<{ readonly id: string; readonly title: string }>) {
    this.grades.set(grade, (this.grades.get(grade) ?? 0) + 1)
    // An issue counts once per domain, however many records raised it.
    const seenHere = new Set<string>()
    for (const { id, title } of issues) {
      if (seenHere.has(id)) continue
      seenHere.add(id)
      const seen = this.issues.get(id)
      if (seen) seen.domains++
      else this.issues.set(id, { title, domains: 1 })
    }
  }

  add(record: BatchRecord) {
    if (!isFailure(record)) this.count(verdictOf(record.score), record.score.issues)
  }

  /** A record written by this run, by its grade and issue ids (`Written.ts`); null: not graded. */
  addCounts(grade: Verdict | null, issueIds: ReadonlyArray<string>) {
    if (grade !== null)
      this.count(
        grade,
        issueIds.map((id) => ({ id, title: titles[id]?.title ?? id }))
      )
  }

  /** A record the output held before this run (as `Resume.ts` reads it); failures count for nothing. */
  addWritten(format: Format, line: string) {
    if (format === "csv") {
      const fields = parseCsvRecord(line)
      const grade = fields[GRADE] ?? ""
      if (!(VERDICTS as ReadonlyArray<string>).includes(grade)) return
      const ids = (fields[ISSUES] ?? "").split(" ").filter((id) => id !== "")
      return this.count(
        grade as Verdict,
        ids.map((id) => ({ id, title: titles[id]?.title ?? id }))
      )
    }
    try {
      const parsed = JSON.parse(line) as Partial<BatchResult>
      if (parsed.score)
        this.count(
          verdictOf({ grade: parsed.score.grade, unscannable: parsed.score.unscannable ?? null }),
          parsed.score.issues
        )
    } catch {
      // Resume.ts read its domain: a record, but not one to count.
    }
  }

  /** The `n` issues most domains have; ties by id, so the list is the same for the same results. */
  top(n = TOP_ISSUES) {
    return [...this.issues.entries()]
      .map(([id, { title, domains }]) => ({ id, title, domains }))
      .sort((a, b) => b.domains - a.domains || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, n)
  }
}

/** `12.4 domains/min`, or nothing to say when too little ran to measure a rate. */
const rateOf = (scanned: number, ms: number): string =>
  scanned === 0 || ms < 1000 ? "" : `, ${rateNumber((scanned * 60_000) / ms)} domains/min`

/** The summary's lines (each ends with LF). */
export const summaryText = (s: BatchSummary, out: string | undefined): string => {
  const lines = [
    `batch: ${s.scanned} scanned (${s.failed} failed, ${s.incomplete} with unknown checks)` +
      (out ? `, ${s.alreadyWritten} already in ${out}` : "") +
      `, ${s.duplicates} duplicates, ${s.invalid} invalid lines` +
      (s.heldForMemory > 0 ? `, ${s.heldForMemory} scans waited for room on the heap` : "") +
      ((s.heldForDns ?? 0) > 0 ? `, ${s.heldForDns} waited for the resolver` : "") +
      `; ${duration(s.elapsedMs)}${rateOf(s.scanned, s.elapsedMs)}`
  ]
  const graded = [...s.grades.values()].reduce((a, b) => a + b, 0)
  if (graded > 0) {
    const of = s.alreadyWritten > 0 && out ? ` (all ${graded} graded in ${out})` : ""
    lines.push(`batch: grades${of}: ${VERDICTS.map((g) => `${g} ${s.grades.get(g) ?? 0}`).join(", ")}`)
    if (s.topIssues.length > 0) {
      lines.push(`batch: the ${s.topIssues.length} most common issues${of}, by domains:`)
      const width = String(s.topIssues[0]!.domains).length
      for (const issue of s.topIssues)
        lines.push(`  ${String(issue.domains).padStart(width)}  ${issue.id}: ${issue.title}`)
    }
  }
  return lines.map((line) => line + "\n").join("")
}
