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
    <pre><code>curl -s https://&lt;this host&gt;${jsonPath} | node -e '
const canonicalize = require("canonicalize"), { createHash } = require("node:crypto");
let s = ""; process.stdin.on("data", (d) =&gt; (s += d)).on("end", () =&gt; {
  const { evidence, ...content } = JSON.parse(s);
  const hash = "sha256:" + createHash("sha256").update(canonicalize(content), "utf8").digest("hex");
  console.log(hash === evidence.contentHash ? "verified " + hash : "MISMATCH " + hash);
});'</code></pre>
  </section>`
  return page({
    lang,
    title: `${w.snapshotTitle}: ${report.domain}`,
    path: snapshotPath(e.snapshotId),
    body: reportBody(report, lang, { kind: "snapshot", intro, verify })
  })
}
