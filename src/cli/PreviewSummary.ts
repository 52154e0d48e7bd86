/**
 * `domain-audit preview`'s readable answer: the previewed grade beside the live one, what changes
 * in the history's words, and the DNSSEC verdicts the preview took from the zone. Pure.
 */
import type { PreviewScore } from "../composite/Preview.ts"

export const previewSummary = (domain: string, score: PreviewScore): string => {
  const live = score.compared.live
  const lines = [
    `${domain}, previewed: ${score.grade} (${score.percentage}%); live: ${live.grade} (${live.percentage}%)`,
    "",
    score.compared.summary.length === 0
      ? "changes: none (publishing these records changes nothing the scan sees)"
      : "changes:",
    ...score.compared.summary.map((line) => `  ${line}`)
  ]
  if (score.notJudged.length > 0)
    lines.push(
      "",
      "not judged (signed as the rest of the zone once published; signatures not checked):",
      ...score.notJudged.map((n) => `  ${n.name} ${n.type}`)
    )
  return lines.join("\n") + "\n"
}
