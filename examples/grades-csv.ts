/**
 * Scans a list of domains and writes a CSV of their grades: domain, grade, percentage and the top
 * issue (the fix that regains the most points), one row per line of the list.
 *
 *   set -a; . data/world/world.env; set +a      # or your own resolvers; see docs/library.md
 *   node grades-csv.js domains.txt > grades.csv
 *
 * The list holds one domain a line (blank lines and `#` comments are skipped); a line that is not a
 * domain gets a row with its error. Rows come in the order scans finish.
 */
import { readFileSync } from "node:fs"
import { scanMany, type ScanEntry } from "domain-audit"

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
const field = (value: string | number) => {
  const text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}
const row = (values: ReadonlyArray<string | number>) => values.map(field).join(",") + "\r\n"

const rowOf = (entry: ScanEntry) =>
  entry.ok
    ? row([
        entry.domain,
        entry.score.grade,
        entry.score.percentage,
        entry.score.recommendations[0]?.id ?? entry.score.issues[0]?.id ?? "",
        entry.score.unscannable ?? ""
      ])
    : row([entry.input, "", "", "", entry.error])

const [listFile] = process.argv.slice(2)
if (listFile === undefined) {
  process.stderr.write("usage: node grades-csv.js <domains.txt>\n")
  process.exit(2)
}
const domains = readFileSync(listFile, "utf8")
  .split("\n")
  .map((line) => line.trim())
  .filter((line) => line !== "" && !line.startsWith("#"))

process.stdout.write(row(["domain", "grade", "percentage", "top_issue", "error"]))
for await (const entry of scanMany(domains, { concurrency: 4 })) process.stdout.write(rowOf(entry))
