/**
 * The SVG badge of a domain's grade (GET /badge/{domain}), drawn by badge-maker (shields.io's
 * renderer). Pure: the same domain and grade give the same bytes.
 *
 * Badges are pasted inline into HTML pages, where every element id shares one document: two
 * badges with the same ids would point each other's `url(#...)` references at the wrong element.
 * badge-maker's `idSuffix` covers its gradient and clip path but not the "flat" style's shadow
 * filter (`id="blur"`), so every id of the SVG is suffixed here, deterministically, from the domain
 * and the grade.
 */
import { createHash } from "node:crypto"
import { makeBadge } from "badge-maker"

/** What the badge says when its scan failed outright (a defect): nothing is known. */
export const UNKNOWN = "unknown"
/** What the badge says when the scan says it cannot grade the domain (`ScanScore.unscannable`). */
export const UNSCANNABLE = "unscannable"

/**
 * Grade -> badge-maker's named colour (its lib/color.js): green for the top grades through red for
 * F, the shields.io convention; light grey for "unknown", badge-maker's own "inactive" colour.
 */
export const BADGE_COLOURS: Readonly<Record<string, string>> = {
  "A+": "brightgreen",
  A: "green",
  B: "yellowgreen",
  C: "yellow",
  D: "orange",
  F: "red",
  [UNKNOWN]: "lightgrey",
  [UNSCANNABLE]: "lightgrey"
}

export const BADGE_LABEL = "security"

/** The id suffix of `domain`'s badge with `message`: 10 hex digits of SHA-256, so ids stay short. */
export const badgeIdSuffix = (domain: string, message: string): string =>
  "-" + createHash("sha256").update(`${domain}\n${message}`).digest("hex").slice(0, 10)

/** Append `suffix` to every element id of `svg` and to every local reference to one. */
const suffixIds = (svg: string, suffix: string): string => {
  const ids = [...svg.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!)
  let out = svg
  for (const id of new Set(ids)) {
    const escaped = id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    out = out
      .replace(new RegExp(`(\\sid=")${escaped}"`, "g"), `$1${id}${suffix}"`)
      .replace(new RegExp(`url\\(#${escaped}\\)`, "g"), `url(#${id}${suffix})`)
      .replace(new RegExp(`(href=")#${escaped}"`, "g"), `$1#${id}${suffix}"`)
  }
  return out
}

/** XML character data: the reason names the domain, which is only ever an A-label, but escape anyway. */
const xmlText = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/**
 * The badge of `domain`: its grade; the grey "unscannable" with the scan's reason as the SVG's
 * title (what a reader's pointer and a screen reader get) when `unscannable` is given; the grey
 * "unknown" for `null` alone.
 */
export const badgeSvg = (domain: string, grade: string | null, unscannable: string | null = null): string => {
  const message =
    unscannable !== null ? UNSCANNABLE : grade !== null && grade in BADGE_COLOURS ? grade : UNKNOWN
  const svg = makeBadge({ label: BADGE_LABEL, message, color: BADGE_COLOURS[message]!, style: "flat" })
  const titled =
    unscannable === null
      ? svg
      : svg
          .replace(
            `<title>${BADGE_LABEL}: ${message}</title>`,
            `<title>${xmlText(`${BADGE_LABEL}: ${message}: ${unscannable}`)}</title>`
          )
          .replace(
            `aria-label="${BADGE_LABEL}: ${message}"`,
            `aria-label="${xmlText(`${BADGE_LABEL}: ${message}: ${unscannable}`)}"`
          )
  return suffixIds(titled, badgeIdSuffix(domain, message))
}
