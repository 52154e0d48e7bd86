/**
 * What a page says about one finding: the guidance every output shows for its catalogue issue
 * (`score/Guidance.ts`: why, numbered steps, provider notes, the record, the generator, the
 * sources), the same words as the PDF, the markdown and `/ai/explain`. A finding the catalogue does
 * not know (a rule a result judges itself by) is shown with its own description and fix. Pure.
 * The guidance is in the page's language.
 */
import { referenceOf } from "../report/GuidanceText.ts"
import type { Finding } from "../report/ReportSchema.ts"
import { type Guidance, guidanceOf, providerNames } from "../score/Guidance.ts"
import { type Html, html, safeUrl } from "./Html.ts"
import { numberedList } from "./Layout.ts"
import { type Lang, words } from "./Text.ts"

/**
 * The guidance shown for a finding of `domain`'s report, in the page's language (every catalogue
 * issue's guidance is written in English and Dutch; a finding outside the catalogue keeps its own
 * English description and fix).
 */
export const findingGuidance = (finding: Finding, domain: string, lang: Lang): Guidance =>
  guidanceOf(finding.issueId, domain, lang) ?? {
    why: finding.description,
    steps: [finding.fix],
    providers: [],
    record: null,
    generator: null,
    references: []
  }

/** The guidance as HTML: why, steps, provider notes (folded), record, generator, sources. */
export const guidanceHtml = (g: Guidance, lang: Lang): Html => {
  const w = words(lang)
  return html`<p><strong>${w.why}:</strong> ${g.why}</p>
    ${numberedList(w.steps, g.steps)}
    ${
      g.providers.length > 0
        ? html`<details>
            <summary>${w.providers}</summary>
            <dl class="pairs">
              ${g.providers.map(
                (p) =>
                  html`<dt>${providerNames[p.provider]}</dt>
                    <dd>${p.note}</dd>`
              )}
            </dl>
          </details>`
        : ""
    }
    ${
      g.record !== null
        ? html`<p><strong>${w.record}:</strong></p>
            <pre><code>${g.record}</code></pre>`
        : ""
    }
    ${g.generator !== null ? html`<p class="note">${w.generator}: <code>${g.generator}</code></p>` : ""}
    ${
      g.references.length > 0
        ? html`<p class="note">
            ${w.sources}:
            ${g.references.map((r, i) => {
              const s = referenceOf(r)
              return html`${i > 0 ? "; " : ""}${s.url === "" ? s.title : html`<a href="${safeUrl(s.url)}">${s.title}</a>`}`
            })}
          </p>`
        : ""
    }`
}
