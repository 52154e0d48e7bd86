/**
 * The `format=html` view of GET /email/bimi: the logo and the verdict on one small page.
 * Pure. Every text is escaped; the logo is shown through an <img> data: URI (an SVG loaded as an
 * image cannot run scripts or fetch anything), and the page's own CSP forbids everything else.
 */
import type { BimiResult } from "./Bimi.ts"

export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)

const list = (title: string, items: ReadonlyArray<string>) =>
  items.length === 0
    ? ""
    : `<h2>${escapeHtml(title)}</h2><ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join("")}</ul>`

const row = (label: string, value: string | number | boolean | null | undefined) =>
  `<tr><th>${escapeHtml(label)}</th><td>${escapeHtml(value === null || value === undefined ? "-" : String(value))}</td></tr>`

/** Renders a BIMI result as a standalone HTML page. */
export const renderBimiHtml = (result: BimiResult, logoSvg: Uint8Array | null): string => {
  const verdict = result.valid
    ? "valid"
    : result.exists
      ? "not valid"
      : result.status === "unknown"
        ? "unknown"
        : "no BIMI record"
  const colour = result.valid ? "#1a7f37" : result.status === "unknown" ? "#9a6700" : "#cf222e"
  const logo =
    logoSvg !== null && logoSvg.length > 0
      ? `<img alt="BIMI logo of ${escapeHtml(result.domain)}" width="160" height="160" src="data:image/svg+xml;base64,${Buffer.from(logoSvg).toString("base64")}">`
      : `<div class="nologo">no logo</div>`
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>BIMI: ${escapeHtml(result.domain)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1f2328}
.card{display:flex;gap:1.5rem;align-items:center}.logo img,.nologo{width:160px;height:160px;border-radius:50%;border:1px solid #d0d7de;object-fit:contain}
.nologo{display:flex;align-items:center;justify-content:center;color:#57606a}.verdict{font-size:1.4rem;font-weight:600;color:${colour}}
table{border-collapse:collapse;margin-top:1rem}th,td{text-align:left;padding:.25rem .75rem;border-bottom:1px solid #eaeef2;vertical-align:top}
code{word-break:break-all}.note{color:#57606a;font-size:.9rem}</style></head>
<body><h1>BIMI for ${escapeHtml(result.domain)}</h1>
<div class="card"><div class="logo">${logo}</div><div><div class="verdict">${escapeHtml(verdict)}</div>
<div>status: ${escapeHtml(result.status)}</div></div></div>
<table>${row("record", result.record)}${row("logo URL", result.logoUrl)}${row("certificate URL", result.authorityUrl)}${row(
    "logo SVG Tiny PS",
    result.logo?.svg ? result.logo.svg.tinyPs : null
  )}${row("logo size (bytes)", result.logo?.size)}${row("logo content type", result.logo?.contentType)}${row(
    "certificate type",
    result.authority?.type
  )}${row("certificate valid", result.authority ? result.authority.valid : null)}${row(
    "DMARC policy",
    result.dmarc?.policy
  )}</table>
${list("Issues", result.issues)}${list("Warnings", result.warnings)}
<p class="note">${escapeHtml(result.trademarkNote)}</p></body></html>
`
}
