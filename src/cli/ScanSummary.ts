/**
 * `domain-audit scan <domain>`'s readable answer: the grade and percentage, each category, the most
 * severe issues, and which parts of the score could not be judged (an unanswered question is
 * `unknown`, never a failure). Pure: a scored scan in, text out.
 */
import { Categories } from "../kernel/Check.ts"
import { Severities } from "../kernel/Status.ts"
import { type BatchResult, unansweredRecords } from "../batch/Record.ts"

/** How many issues the summary lists; the JSON (--json) has them all. */
export const SUMMARY_ISSUES = 10

const pad = (text: string, width: number) => text.padEnd(width)

export const scanSummary = (result: BatchResult, unscannable: string | null): string => {
  const { score } = result
  const lines: Array<string> = []
  if (unscannable !== null)
    // Nothing about the domain to grade: its grade's wording (bands, caps) would only mislead.
    lines.push(`${result.domain}: not graded: ${unscannable}`)
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
  const issues = [...score.issues].sort(
    (a, b) => Severities.indexOf(a.severity) - Severities.indexOf(b.severity)
  )
  lines.push(
    "",
    issues.length === 0
      ? "issues: none"
      : `issues (${score.critical_issues} critical, ${score.warnings} warnings)` +
          (issues.length > SUMMARY_ISSUES ? `, the ${SUMMARY_ISSUES} most severe of ${issues.length}:` : ":")
  )
  const idWidth = Math.max(0, ...issues.slice(0, SUMMARY_ISSUES).map((i) => i.id.length))
  for (const issue of issues.slice(0, SUMMARY_ISSUES))
    lines.push(`  ${pad(issue.severity, 8)} ${pad(issue.id, idWidth)}  ${issue.title}`)
  const unanswered = unansweredRecords(result)
  if (unanswered.length > 0)
    lines.push(
      "",
      `not judged (a question went unanswered, so left out of the score): ${unanswered.join(", ")}`
    )
  return lines.join("\n") + "\n"
}
