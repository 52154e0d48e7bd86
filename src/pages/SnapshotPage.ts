/**
 * The permanent page of a stored snapshot: the report as stored (the same page as the live report),
 * when it was stored, its content hash, and the recipe anyone can follow to check that hash
 * (RFC 8785 canonical JSON, SHA-256; docs/reports.md "Hashing recipe"). Pure.
 */
import type { EverythingReport } from "../report/ReportSchema.ts"
import { html } from "./Html.ts"
import { page } from "./Layout.ts"
import { reportBody } from "./ReportPage.ts"
import { type Lang, words } from "./Text.ts"

/**
 * The recipe a reader runs to check a snapshot, as printed: Node 18 or later and nothing else. It
 * fetches the snapshot's JSON from its public URL, drops `evidence`, serialises the rest as RFC 8785
 * canonical JSON (keys sorted by UTF-16 code units, ECMAScript number and string serialisation:
 * RFC 8785 3.2, which `JSON.stringify` of each scalar gives), and compares its SHA-256 with the hash
 * this page prints. `test/pages/snapshotRecipe.test.ts` runs it.
 */
export const verifyRecipe = (snapshotUrl: string, contentHash: string): string =>
  [
    `node -e 'const c = (v) => v === null || typeof v !== "object" ? JSON.stringify(v)`,
    `  : Array.isArray(v) ? "[" + v.map(c).join(",") + "]"`,
    `  : "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + c(v[k])).join(",") + "}";`,
    `fetch(process.argv[1]).then((r) => r.json()).then(({ evidence, ...content }) => {`,
    `  const hash = "sha256:" + require("node:crypto").createHash("sha256").update(c(content), "utf8").digest("hex");`,
    `  console.log(hash === process.argv[2] ? "verified " + hash : "MISMATCH " + hash);`,
    `  process.exitCode = hash === process.argv[2] ? 0 : 1;`,
    `});' ${shellWord(snapshotUrl)} ${shellWord(contentHash)}`
  ].join("\n")

/** A word the shell passes as is: single-quoted, a quote inside written as '\''. */
const shellWord = (text: string) => `'${text.replaceAll("'", "'\\''")}'`

/** The path of a snapshot's page. */
export const snapshotPath = (id: string) => `/snapshot/${encodeURIComponent(id)}`

export const snapshotPage = (report: EverythingReport, lang: Lang) => {
  const w = words(lang)
  const e = report.evidence
  const jsonPath = `/api/report/snapshot/${encodeURIComponent(e.snapshotId)}`
  const intro = html`<dl class="pairs">
    <dt>${w.snapshotCreated}</dt>
    <dd>
      <time datetime="${e.createdAt ?? ""}">${(e.createdAt ?? "").replace("T", " ").slice(0, 19)} UTC</time>
    </dd>
    <dt>${w.contentHash}</dt>
    <dd><code>${e.contentHash}</code></dd>
    <dt>${w.snapshotId}</dt>
    <dd><code>${e.snapshotId}</code></dd>
    <dt>${w.retention}</dt>
    <dd>${e.retentionNotice}</dd>
  </dl>`
  const verify = html`<section aria-labelledby="verify">
    <h2 id="verify">${w.verifyTitle}</h2>
    <p>${w.verifyIntro}</p>
    <ol>
      <li>
        ${w.verifyStep1} <a href="${jsonPath}"><code>${jsonPath}</code></a>
      </li>
      <li>${w.verifyStep2}</li>
      <li>${w.verifyStep3}</li>
      <li>${w.verifyStep4}</li>
    </ol>
    <p>${w.verifyRecipe}</p>
    <pre><code>${verifyRecipe(e.snapshotUrl, e.contentHash)}</code></pre>
  </section>`
  return page({
    lang,
    title: `${w.snapshotTitle}: ${report.domain}`,
    path: snapshotPath(e.snapshotId),
    body: reportBody(report, lang, { kind: "snapshot", intro, verify })
  })
}
