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

/**
 * The command that checks the hash and the signature (cli/Verify.ts) against the service's
 * published keys, so that a copy signed by anyone else fails. `domain-audit` is this project's
 * command (package.json `bin`); not `npx domain-audit`, which outside a checkout would fetch
 * whatever package holds that name on the registry.
 */
export const verifyCommand = (snapshotUrl: string, keysUrl: string): string =>
  `domain-audit verify ${shellWord(snapshotUrl)} --key ${shellWord(keysUrl)}`

/** The key set's URL (api/SigningKeys.ts) on the origin of `base` (the public base URL, ending in /api). */
export const keysUrlOf = (base: string) => `${base.replace(/\/api$/, "")}/.well-known/domain-audit-keys.json`

/** A word the shell passes as is: single-quoted, a quote inside written as '\''. */
const shellWord = (text: string) => `'${text.replaceAll("'", "'\\''")}'`

/** The path of a snapshot's page. */
export const snapshotPath = (id: string) => `/snapshot/${encodeURIComponent(id)}`

/**
 * The page of a stored snapshot. `base` is the public base URL of the request (ending in /api): the
 * recipes name absolute URLs a reader can run as printed, which the stored evidence does not have
 * when the service has no PUBLIC_BASE_URL (its URLs are relative then: http/edge/PublicUrl.ts).
 */
export const snapshotPage = (report: EverythingReport, lang: Lang, base?: string) => {
  const w = words(lang)
  const e = report.evidence
  const jsonPath = `/api/report/snapshot/${encodeURIComponent(e.snapshotId)}`
  const snapshotUrl =
    base === undefined ? e.snapshotUrl : `${base}/report/snapshot/${encodeURIComponent(e.snapshotId)}`
  const signed =
    e.signature === undefined
      ? html``
      : html`<p>${w.verifySignature}</p>
          <pre><code>${verifyCommand(snapshotUrl, keysUrlOf(base ?? e.snapshotUrl.replace(/\/report\/snapshot\/[^/]*$/, "")))}</code></pre>`
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
    ${signed}
    <p>${w.verifyRecipe}</p>
    <pre><code>${verifyRecipe(snapshotUrl, e.contentHash)}</code></pre>
  </section>`
  return page({
    lang,
    title: `${w.snapshotTitle}: ${report.domain}`,
    path: snapshotPath(e.snapshotId),
    body: reportBody(report, lang, { kind: "snapshot", intro, verify })
  })
}
