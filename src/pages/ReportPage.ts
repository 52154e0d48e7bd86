/**
 * The Everything Report as a page (docs/pages.md): the grade and its statement, the categories and
 * sections with their status, every finding with its guidance, each section's checks and facts, the
 * evidence, and what to do with the report (snapshot, permalink, other formats). The same page
 * renders a stored snapshot, with its hash and how to verify it (SnapshotPage.ts). It renders the
 * report value the API serves, built by `report/Everything.ts`: no second report engine. Pure.
 */
import {
  checkSections,
  type EverythingReport,
  type Finding,
  type QuickScoreSection,
  type Section
} from "../report/ReportSchema.ts"
import type { Recommendation } from "../score/Fixes.ts"
import { evidenceOf } from "./EvidenceBlocks.ts"
import { findingGuidance, guidanceHtml } from "./GuidanceBlock.ts"
import { type Html, html, safeUrl } from "./Html.ts"
import { gradeBlock, page, severityBadge, statusBadge, table, withLang } from "./Layout.ts"
import { receivedSection } from "./ReceivedBlock.ts"
import {
  findingTitle,
  fixImpact,
  gradeWord,
  headline,
  providersIn,
  recordTitle,
  reportStatement,
  sectionTitle
} from "./ReportWords.ts"
import { type Lang, words } from "./Text.ts"

/** The paths of a domain's pages and of its API representations. */
export const pathsOf = (domain: string) => {
  const d = encodeURIComponent(domain)
  return {
    report: `/report/${d}`,
    snapshotCreate: `/report/${d}/snapshot`,
    nis2: `/nis2/${d}`,
    history: `/history/${d}`,
    preview: `/preview/${d}`,
    json: `/api/report/everything?domain=${d}`,
    markdown: `/api/report/everything?domain=${d}&format=markdown`,
    pdf: `/api/pdf/${d}`
  }
}

/** Where a finding is shown: the key and title of the section that owns it. */
interface Owner {
  readonly key: string
  readonly title: string
}

const findingBlock = (
  finding: Finding,
  section: Owner,
  report: EverythingReport,
  lang: Lang,
  fix?: Recommendation
): Html =>
  html`<article class="finding sev-${finding.severity}" id="issue-${finding.issueId}">
    <h3>${findingTitle(finding.issueId, finding.title, lang)}</h3>
    <div class="meta">
      ${severityBadge(finding.severity, lang)}
      <span class="note"
        >${sectionTitle(section.key, section.title, lang)} ·
        <code>${finding.issueId}</code
        >${fix ? ` · ${fixImpact(fix, report.summary.unscannable !== null, lang)}` : ""}</span
      >
    </div>
    ${fix && fix.requiredBy.length > 0 ? html`<p class="note">${words(lang).requiredBy} ${providersIn(fix.requiredBy, lang)}.</p>` : ""}
    ${guidanceHtml(findingGuidance(finding, report.domain, lang), lang)}
  </article>`

const sectionsOf = (report: EverythingReport): ReadonlyArray<Section> =>
  report.summary.sections
    .filter((row) => row.key !== "quickScore" && row.key !== "nis2")
    // Own keys only: a key such as "__proto__" names no section (found by the render property test).
    .flatMap((row) => {
      const section = checkSections(report.sections).get(row.key)
      return section === undefined ? [] : [section]
    })

/** Every finding once, with the title of the section that owns it (the first to show it). */
const ownedFindings = (report: EverythingReport) => {
  const quick = report.sections.quickScore as QuickScoreSection
  const owned = new Map<string, { readonly finding: Finding; readonly section: Owner }>()
  for (const { findings, key, title } of [quick, ...sectionsOf(report)])
    for (const finding of findings)
      if (!owned.has(finding.issueId)) owned.set(finding.issueId, { finding, section: { key, title } })
  return owned
}

/**
 * The cards: the score's list of what to fix, in its order and count (score/Fixes.ts), then the
 * findings that ask for no fix, for information.
 */
const cardsOf = (report: EverythingReport) => {
  const quick = report.sections.quickScore as QuickScoreSection
  const owned = ownedFindings(report)
  const fixes = quick.recommendations.flatMap((fix) => {
    const card = owned.get(fix.id)
    return card === undefined ? [] : [{ ...card, fix }]
  })
  const listed = new Set(quick.recommendations.map((r) => r.id))
  const notes = [...owned.values()].filter((c) => !listed.has(c.finding.issueId))
  return { fixes, notes }
}

const sectionDetail = (section: Section, lang: Lang): Html => {
  const w = words(lang)
  const title = sectionTitle(section.key, section.title, lang)
  return html`<section class="concern" id="sec-${section.key}" aria-labelledby="h-${section.key}">
    <header>
      <h3 id="h-${section.key}">${title}</h3>
      ${statusBadge(section.status, lang)}${section.maxPoints > 0 ? html`<span class="note">${section.points} / ${section.maxPoints} ${w.points.toLowerCase()}</span>` : ""}
    </header>
    ${section.unknownReason !== null ? html`<p>${w.notFinished} ${section.unknownReason}</p>` : ""}
    ${
      section.records.length > 0
        ? table(
            `${w.checks}: ${title}`,
            [w.check_, w.status, w.points, w.detail],
            section.records.map((r) => [
              recordTitle(r.id, r.title, lang),
              statusBadge(r.status, lang),
              `${r.points}/${r.maxPoints}`,
              r.detail
            ])
          )
        : ""
    }
    ${
      section.facts.length > 0
        ? html`<details>
            <summary>${w.facts} (${section.facts.length})</summary>
            ${table(
              `${w.facts}: ${title}`,
              [w.fact, w.value],
              section.facts.map((f) => [f.label, html`<span class="mono">${f.value}</span>`])
            )}
          </details>`
        : ""
    }
    ${section.findings.length > 0 ? html`<p>${w.findings}: ${section.findings.map((f, i) => html`${i > 0 ? ", " : ""}<a href="#issue-${f.issueId}">${findingTitle(f.issueId, f.title, lang)}</a>`)}</p>` : ""}
  </section>`
}

/**
 * How the page was reached: the live report, a stored snapshot with its evidence, or a preview
 * (PreviewPage.ts: nothing to keep or link to, so no actions).
 */
export type ReportMode =
  | { readonly kind: "live" }
  | { readonly kind: "snapshot"; readonly intro: Html; readonly verify: Html }
  | { readonly kind: "preview"; readonly title: string; readonly intro: Html }

/** The body of a report page (live or snapshot). */
export const reportBody = (report: EverythingReport, lang: Lang, mode: ReportMode): Html => {
  const w = words(lang)
  const quick = report.sections.quickScore as QuickScoreSection
  const paths = pathsOf(report.domain)
  const cards = cardsOf(report)
  const nis2 = report.sections.nis2
  const { caps } = reportStatement(report, lang)
  return html`<h1>
      ${mode.kind === "live" ? w.reportTitle : mode.kind === "snapshot" ? w.snapshotTitle : mode.title}:
      <span class="mono">${report.domain}</span>
    </h1>
    ${mode.kind !== "live" ? mode.intro : html`<p class="note">${w.liveNote} <time datetime="${report.generatedAt}">${report.generatedAt.replace("T", " ").slice(0, 19)} UTC</time>.</p>`}
    <div class="hero">
      ${gradeBlock(report.summary.grade, gradeWord(report.summary.grade, report.summary.label, lang), lang)}
      <p class="headline">${headline(report, lang)}</p>
    </div>
    ${
      caps.length > 0
        ? html`<ul>
            ${caps.map((c) => html`<li>${c}</li>`)}
          </ul>`
        : ""
    }
    ${lang === "nl" ? html`<p class="note">${w.englishOnly}</p>` : ""}
    <section aria-labelledby="summary">
      <h2 id="summary">${w.summary}</h2>
      ${table(
        w.categories,
        [w.category, w.score, w.points, w.status],
        Object.entries(quick.categories).map(([key, c]) => [
          key,
          `${c.percentage}%`,
          `${c.points}/${c.maxPoints}`,
          statusBadge(c.status, lang)
        ])
      )}
      ${table(
        w.sections,
        [w.section, w.status, w.findings],
        report.summary.sections.map((row) => [
          row.key === "quickScore"
            ? sectionTitle(row.key, row.title, lang)
            : row.key === "nis2"
              ? html`<a href="${withLang(paths.nis2, lang)}">${w.nis2Link}</a>`
              : html`<a href="#sec-${row.key}">${sectionTitle(row.key, row.title, lang)}</a>`,
          row.key === "nis2" ? statusBadge(nis2.status, lang) : statusBadge(row.status, lang),
          String(row.findings)
        ])
      )}
    </section>
    <section aria-labelledby="issues">
      <h2 id="issues">${w.issues} (${cards.fixes.length})</h2>
      ${
        cards.fixes.length === 0
          ? html`<p>${statusBadge("pass", lang)} ${w.noIssues}</p>`
          : html`<p class="note">${w.fixOrder}</p>
              <ol class="fixes">
                ${cards.fixes.map(({ finding, section, fix }) => html`<li>${findingBlock(finding, section, report, lang, fix)}</li>`)}
              </ol>`
      }
    </section>
    ${
      cards.notes.length > 0
        ? html`<section aria-labelledby="notes">
            <h2 id="notes">${w.forInformation} (${cards.notes.length})</h2>
            ${cards.notes.map(({ finding, section }) => findingBlock(finding, section, report, lang))}
          </section>`
        : ""
    }
    <section aria-labelledby="details">
      <h2 id="details">${w.sections}</h2>
      ${sectionsOf(report).map((s) => sectionDetail(s, lang))}
    </section>
    ${receivedSection(report.domain, report.reportsReceived, lang)} ${evidenceOf(report, lang)}
    ${mode.kind === "snapshot" ? mode.verify : ""}
    ${mode.kind === "preview" ? "" : actions(report, lang, mode)}`
}

const actions = (
  report: EverythingReport,
  lang: Lang,
  mode: Exclude<ReportMode, { kind: "preview" }>
): Html => {
  const w = words(lang)
  const paths = pathsOf(report.domain)
  // a snapshot's PDF is drawn from what it stored, with its hash in the footer; the live one from the scan
  const pdf =
    mode.kind === "snapshot" ? `/snapshot/${encodeURIComponent(report.evidence.snapshotId)}/pdf` : paths.pdf
  return html`<section class="actions" aria-labelledby="actions">
    <h2 id="actions">${w.actions}</h2>
    <form method="post" action="${withLang(paths.snapshotCreate, lang)}">
      <p>${w.snapshotHelp}</p>
      <button type="submit">${w.snapshotCreate}</button>
    </form>
    <div>
      <p>
        <a href="${safeUrl(withLang(paths.report, lang))}" rel="bookmark"
          >${mode.kind === "live" ? w.permalink : w.reportTitle}</a
        >
      </p>
      <p>
        ${w.formats}: <a href="${paths.json}">${w.json}</a> · <a href="${pdf}">${w.pdf}</a> ·
        <a href="${paths.markdown}">${w.markdown}</a> ·
        <a href="${withLang(paths.nis2, lang)}">${w.nis2Link}</a>
      </p>
    </div>
  </section>`
}

/** The live report page. */
export const reportPage = (report: EverythingReport, lang: Lang): Html =>
  page({
    lang,
    title: `${words(lang).reportTitle}: ${report.domain}`,
    path: pathsOf(report.domain).report,
    body: reportBody(report, lang, { kind: "live" })
  })
