/**
 * The pages' static files: one style sheet (screen and print) and the icon. They are files, not
 * inline `<style>`, so the pages' Content-Security-Policy allows styles from 'self' only and never
 * 'unsafe-inline' (CSP3 §6.1.13). Colours pair text and background at 4.5:1 or more (WCAG 1.4.3),
 * and every status also carries an icon and a word (Layout.ts). Table cells break between words
 * only (`overflow-wrap: break-word` keeps a column as wide as its longest word); record values, set
 * in monospace, and the last column (free text: a detail, a value, which may hold a long header
 * value) may break anywhere, so that no table is wider than a phone's screen.
 */

export const STYLESHEET_PATH = "/assets/pages.css"
export const ICON_PATH = "/assets/icon.svg"

const CSS = `
:root { --ink: #1b1f24; --muted: #4a5360; --line: #d3d8de; --bg: #ffffff; --panel: #f5f7f9; --link: #0b57a4; }
* { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: var(--ink); background: var(--bg); line-height: 1.5; }
body { margin: 0; }
a { color: var(--link); }
a:focus-visible, button:focus-visible, input:focus-visible, summary:focus-visible { outline: 3px solid #b35c00; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; }
.skip:focus { left: .5rem; z-index: 2; }
header.site { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; justify-content: space-between; padding: .75rem 1.25rem; border-bottom: 1px solid var(--line); background: var(--panel); }
header.site .brand { font-weight: 700; font-size: 1.15rem; text-decoration: none; color: var(--ink); }
header.site ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; margin: 0; padding: 0; }
main { max-width: 68rem; margin: 0 auto; padding: 1.25rem; }
footer.site { max-width: 68rem; margin: 2rem auto 0; padding: 1rem 1.25rem; border-top: 1px solid var(--line); color: var(--muted); font-size: .9rem; }
h1 { font-size: 1.75rem; line-height: 1.25; margin: .5rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.35rem; margin: 2rem 0 .75rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; }
h3 { font-size: 1.1rem; margin: 1.25rem 0 .5rem; }
p, li { overflow-wrap: anywhere; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .9em; overflow-wrap: anywhere; word-break: break-all; }
h1 .mono { display: inline-block; max-width: 100%; word-break: normal; }
.lead { font-size: 1.1rem; color: var(--muted); max-width: 46rem; }
.note { color: var(--muted); font-size: .95rem; }
form.domain { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-end; margin: 1.5rem 0; }
form.domain label { display: block; font-weight: 600; width: 100%; }
form.domain input { font: inherit; padding: .55rem .75rem; border: 1px solid #6b7480; border-radius: 4px; min-width: 16rem; flex: 1 1 16rem; max-width: 30rem; }
form.preview label { display: block; font-weight: 600; margin-top: 1rem; }
form.preview textarea { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .9rem; width: 100%; box-sizing: border-box; padding: .5rem; border: 1px solid #6b7480; border-radius: 4px; }
form.preview button { margin-top: .75rem; }
.problem { border-left: 4px solid #9b1c1c; padding: .25rem .75rem; background: #fde7e7; }
.hint { width: 100%; margin: 0; color: var(--muted); font-size: .9rem; }
button { font: inherit; padding: .55rem 1.1rem; border-radius: 4px; border: 1px solid #0b4a8b; background: #0b57a4; color: #fff; cursor: pointer; }
button:hover { background: #0a4a8c; }
.hero { display: flex; flex-wrap: wrap; gap: 1.25rem; align-items: center; margin: 1rem 0 1.5rem; }
.grade { display: inline-flex; flex-direction: column; align-items: center; justify-content: center; min-width: 7rem; padding: .75rem 1rem; border-radius: 8px; border: 2px solid; }
.grade-letter { font-size: 2.75rem; font-weight: 800; line-height: 1; }
.grade-label { font-weight: 600; }
.grade-aplus, .grade-a { background: #e3f3e7; color: #0b5c22; border-color: #0b5c22; }
.grade-b { background: #eef6dc; color: #3d5a00; border-color: #3d5a00; }
.grade-c, .grade-d { background: #fff3d6; color: #6b4a00; border-color: #6b4a00; }
.grade-f { background: #fde7e7; color: #9b1c1c; border-color: #9b1c1c; }
.headline { font-size: 1.1rem; max-width: 46rem; margin: 0; }
.status { display: inline-block; white-space: normal; padding: .05rem .5rem; border-radius: .8rem; font-weight: 600; font-size: .9rem; border: 1px solid; }
.nowrap { white-space: nowrap; }
.tone-pass { background: #e3f3e7; color: #0b5c22; }
.tone-partial { background: #fff3d6; color: #6b4a00; }
.tone-fail { background: #fde7e7; color: #9b1c1c; }
.tone-unknown { background: #e9ecf1; color: #343b46; }
.tone-na { background: #f1f2f4; color: #454b54; }
.table-wrap { width: 100%; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-size: .95rem; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { text-align: left; vertical-align: top; padding: .4rem .5rem; border-bottom: 1px solid var(--line); overflow-wrap: break-word; hyphens: manual; }
th { background: var(--panel); }
td:last-child { overflow-wrap: anywhere; }
td.num, th.num { text-align: right; white-space: nowrap; }
.finding { border: 1px solid var(--line); border-left: 6px solid #6b7480; border-radius: 6px; padding: .75rem 1rem; margin: .75rem 0; break-inside: avoid; }
.finding.sev-critical, .finding.sev-high { border-left-color: #9b1c1c; }
.finding.sev-medium { border-left-color: #a86b00; }
.finding h3 { margin: 0 0 .35rem; font-size: 1.05rem; }
.finding ol { padding-left: 1.4rem; }
.meta { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin-bottom: .35rem; }
section.concern { margin-top: 1.5rem; }
section.concern > header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: baseline; }
section.concern > header h3 { margin: 0; }
ul.tree, ul.tree ul { list-style: none; padding-left: 1.1rem; margin: .25rem 0; border-left: 2px solid var(--line); }
ul.tree > li { margin: .2rem 0; }
.actions { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; padding: 1rem; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; margin: 1.5rem 0; }
.actions form, .actions div { flex: 1 1 18rem; }
.actions p { margin: .25rem 0 .5rem; }
dl.pairs { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; margin: 1rem 0; }
dl.pairs dt { font-weight: 600; }
dl.pairs dd { margin: 0; overflow-wrap: anywhere; }
ol.hall { padding-left: 1.4rem; }
ol.fixes { padding-left: 1.6rem; }
ol.fixes > li::marker { font-weight: 700; }
svg.chart { width: 100%; max-width: 45rem; height: auto; display: block; margin: 1rem 0; }
pre { background: var(--panel); border: 1px solid var(--line); padding: .75rem; white-space: pre-wrap; overflow-wrap: anywhere; }
@media (max-width: 40rem) {
  main { padding: .75rem; }
  h1 { font-size: 1.4rem; }
  th, td { padding: .3rem .35rem; font-size: .88rem; }
  .status { font-size: .82rem; padding: .05rem .4rem; }
  dl.pairs { grid-template-columns: 1fr; }
  table.stack thead { position: absolute; left: -9999px; }
  table.stack tr { display: block; border-bottom: 1px solid var(--line); padding: .3rem 0; }
  table.stack td { display: block; border: 0; padding: .1rem .35rem; }
  table.stack td::before { content: attr(data-label) ": "; font-weight: 600; }
  form.domain input { min-width: 0; }
}
@media print {
  header.site nav, .skip, form, .actions form, footer.site { display: none; }
  html { font-size: 10.5pt; color: #000; }
  main { max-width: none; padding: 0; }
  a { color: #000; text-decoration: none; }
  a[href^="http"]::after { content: " (" attr(href) ")"; font-size: .85em; }
  h2, h3 { break-after: avoid; }
  .finding, tr, .grade { break-inside: avoid; }
  .status, .grade { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
}
`.trim()

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b57a4"/><path d="M9 16.5l4.5 4.5L23 11" fill="none" stroke="#fff" stroke-width="3.5" stroke-linecap="round" stroke-linejoin="round"/></svg>`

/** The static files by path: body and media type. */
export const ASSETS: Readonly<Record<string, { readonly body: string; readonly contentType: string }>> = {
  [STYLESHEET_PATH]: { body: CSS, contentType: "text/css; charset=utf-8" },
  [ICON_PATH]: { body: ICON, contentType: "image/svg+xml; charset=utf-8" }
}
