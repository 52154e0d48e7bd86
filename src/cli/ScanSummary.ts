/**
 * `domain-audit scan <domain>`'s readable answer: the grade and percentage, each category, the
 * first of the list of what to fix (the score's, in its order), and which parts of the score could not be judged (an unanswered question is
 * `unknown`, never a failure). Pure: a scored scan in, text out.
 */
import { Categories } from "../kernel/Check.ts"
import { type BatchResult, unansweredRecords } from "../batch/Record.ts"

/** How many fixes the summary lists; the JSON (--json) has them all. */
export const SUMMARY_ISSUES = 10

const pad = (text: string, width: number) => text.padEnd(width)

export const scanSummary = (result: BatchResult, unscannable: string | null): string => {
  const { score } = result
  const lines: Array<string> = []
  if (unscannable !== null)
    // Nothing about the domain to grade: its grade's wording (bands, caps) would only mislead.
    lines.push(`${result.domain}: unscannable: ${unscannable}`)
  else {
    lines.push(`${result.domain}: ${score.grade} (${score.percentage}%), ${score.gradeInfo.label}`)
    lines.push(`  ${score.gradeInfo.description}`)
    for (const cap of score.gradeInfo.caps)
      if (!score.gradeInfo.description.includes(cap)) lines.push(`  capped: ${cap}`)
  }
  lines.push("", "categories:")
  for (const c of Categories) {
    const category = score.categories[c]
    lines.push(`  ${pad(c, 9)} ${String(category.percentage).padStart(3)}%  ${category.status}`)
  }
  // The score's list of what to fix, in its order (score/Fixes.ts), as the page and the PDF show it.
  const fixes = score.recommendations
  lines.push(
    "",
    fixes.length === 0
      ? "to fix: nothing"
      : `to fix (${fixes.length}, most points regained first)` +
          (fixes.length > SUMMARY_ISSUES ? `, the first ${SUMMARY_ISSUES}:` : ":")
  )
  const idWidth = Math.max(0, ...fixes.slice(0, SUMMARY_ISSUES).map((f) => f.id.length))
  fixes
    .slice(0, SUMMARY_ISSUES)
    .forEach((fix, i) =>
      lines.push(
        `  ${String(i + 1).padStart(2)}. ${pad(fix.priority, 8)} ${pad(fix.id, idWidth)}  ${fix.title.replace(/^Fix: /, "")} (${fix.impact})`
      )
    )
  const unanswered = unansweredRecords(result)
  if (unanswered.length > 0)
    lines.push(
      "",
      `not judged (a question went unanswered, so left out of the score): ${unanswered.join(", ")}`
    )
  return lines.join("\n") + "\n"
}
