/**
 * The responses of GET /badge/{domain} and GET /pdf/{domain} (docs/presentation.md): both read the
 * shared, cached full scan of `composite/ScanScore.ts`, so a badge, a quick scan and a PDF of one
 * domain within `SCAN_CACHE_TTL_MS` cost one scan. What is left here is HTTP: types and caching.
 */
import type { Domain } from "../../records/DomainName.ts"
import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { badgeVerdict, pdfReport } from "../../composite/ScanScore.ts"
import { badgeSvg } from "../../report/Badge.ts"
import { publicBaseUrl } from "../edge/PublicUrl.ts"
import { requestLang } from "../pages/Respond.ts"

/** A graded badge may be cached as long as the scan it shows; "unknown" is retried sooner. */
export const BADGE_MAX_AGE_S = 300
export const UNKNOWN_BADGE_MAX_AGE_S = 60

/** The badge of `domain`: its grade, or the grey "unscannable" with the scan's reason. */
export const badgeResponse = (domain: Domain) =>
  Effect.map(badgeVerdict(domain), ({ grade, unscannable }) =>
    HttpServerResponse.text(badgeSvg(domain, grade, unscannable), {
      contentType: "image/svg+xml; charset=utf-8",
      headers: {
        "Cache-Control": `public, max-age=${grade === null ? UNKNOWN_BADGE_MAX_AGE_S : BADGE_MAX_AGE_S}`,
        // Opened on its own, the SVG may run nothing and load nothing (it draws with inline attributes only).
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
        "X-Content-Type-Options": "nosniff"
      }
    })
  )

/**
 * The PDF report of `domain` from its shared scan, in the request's language (`?lang=`, else
 * `Accept-Language`, as the pages choose it): a shared cache keeps one copy per language.
 */
export const pdfResponse = (domain: Domain) =>
  Effect.flatMap(requestLang, (lang) =>
    Effect.map(
      Effect.flatMap(publicBaseUrl, (base) => pdfReport(domain, base, lang)),
      (bytes) =>
        HttpServerResponse.uint8Array(bytes, {
          contentType: "application/pdf",
          headers: {
            "Cache-Control": `public, max-age=${BADGE_MAX_AGE_S}`,
            "Content-Language": lang,
            Vary: "Accept-Language",
            "Content-Disposition": `inline; filename="${domain}-security-report.pdf"`,
            "X-Content-Type-Options": "nosniff"
          }
        })
    )
  )
