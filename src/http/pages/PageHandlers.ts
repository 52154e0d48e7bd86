/**
 * What each page route does (docs/pages.md): read the request, call the service the matching API
 * endpoint calls (the shared, cached scan; the snapshot store; the hall of fame), and render the
 * page from the same report value the API serves. Refusals are pages too: an invalid domain is a
 * 400 page, a domain that cannot be scanned a 404 or 503 page, a missing snapshot a 404 page.
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Either, Schema } from "effect"
import { Domain } from "../../api/Domain.ts"
import { AppConfig } from "../../Config.ts"
import { reportsReceived, snapshotReport } from "../../composite/Reports.ts"
import type { ReportSummaries } from "../../inbound/Summaries.ts"
import type { VerifiedDomains } from "../../monitor/access/VerifiedDomains.ts"
import {
  failurePage,
  historyMissingPage,
  historyPrivatePage,
  snapshotMissingPage,
  tooManyPage,
  unscannablePage
} from "../../pages/ErrorPages.ts"
import { historyPage } from "../../pages/HistoryPage.ts"
import { homePage } from "../../pages/HomePage.ts"
import { Histories } from "../../monitor/Histories.ts"
import { diffLines } from "../../monitor/DiffLines.ts"
import { nis2Page } from "../../pages/Nis2Page.ts"
import { previewPage } from "../../pages/PreviewPage.ts"
import { liveRecordLines, previewOfForm, readForm } from "../../composite/PreviewForm.ts"
import { pathsOf, reportPage } from "../../pages/ReportPage.ts"
import { snapshotPage, snapshotPath } from "../../pages/SnapshotPage.ts"
import { withLang } from "../../pages/Layout.ts"
import { type Lang } from "../../pages/Text.ts"
import { verdictOf } from "../../pages/Verdict.ts"
import { ASSETS } from "../../pages/Assets.ts"
import { everythingOf } from "../../report/Everything.ts"
import { hallOfFame } from "../../report/HallOfFameList.ts"
import type { EverythingReport } from "../../report/ReportSchema.ts"
import { readStoredReport } from "../../report/StoredReport.ts"
import { snapshotPdf } from "../../report/ScanPdf.ts"
import { Snapshots } from "../../report/Snapshots.ts"
import type { ScanContext } from "../../scan/FactsLive.ts"
import type { ScanResult } from "../../scan/ScanResult.ts"
import { Scans } from "../../scan/Scans.ts"
import { nis2Scorecard } from "../../score/Nis2.ts"
import { Limits, metered } from "../edge/Limits.ts"
import { KeyClients } from "../edge/KeyClients.ts"
import { localAdmin } from "../edge/LocalAdmin.ts"
import { publicBaseUrl, storedBaseUrl } from "../edge/PublicUrl.ts"
import { errorResponse, htmlResponse, requestLang, seeOther } from "./Respond.ts"

const decodeDomain = Schema.decodeUnknownEither(Domain)

/** The path of the request, for the language switch of an error page. */
const requestPath = Effect.map(HttpServerRequest.HttpServerRequest, (r) => r.url.split("?")[0]!)

/**
 * The domain of a page path, normalised as every endpoint normalises it; a spelling other than the
 * normalised one (upper case, a URL, a trailing dot) is redirected to it, so a report has one
 * permalink.
 */
const withDomain = <A, E, R>(
  page: (domain: typeof Domain.Type) => string,
  run: (domain: typeof Domain.Type, lang: Lang) => Effect.Effect<A, E, R>
) =>
  Effect.gen(function* () {
    const lang = yield* requestLang
    const given = (yield* HttpRouter.params).domain ?? ""
    const decoded = decodeDomain(given)
    if (Either.isLeft(decoded))
      return errorResponse(
        failurePage(lang, yield* requestPath, 400, decoded.left.message.split("\n").slice(-1)[0]!.trim())
      )
    if (decoded.right !== given)
      return HttpServerResponse.empty({
        status: 301,
        headers: { Location: withLang(page(decoded.right), lang) }
      })
    return yield* run(decoded.right, lang)
  })

/** GET /: the domain box (a submitted domain redirects to its report) and the recent A+ domains. */
export const home = Effect.gen(function* () {
  const lang = yield* requestLang
  const { domain } = yield* HttpServerRequest.ParsedSearchParams
  const hall = yield* hallOfFame
  if (typeof domain !== "string") return htmlResponse(homePage(hall, lang))
  const decoded = decodeDomain(domain)
  if (Either.isLeft(decoded))
    return htmlResponse(
      homePage(hall, lang, domain.slice(0, 253), decoded.left.message.split("\n").slice(-1)[0]!.trim()),
      400
    )
  return seeOther(withLang(pathsOf(decoded.right).report, lang))
})

/**
 * A page of the domain's shared scan (the one `Scans` serves the API): `render` it, or the 404/503
 * page of a domain that cannot be scanned.
 */
const scannedPage = <E, R>(
  path: (paths: ReturnType<typeof pathsOf>) => string,
  render: (
    scan: ScanResult,
    domain: typeof Domain.Type,
    lang: Lang
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  withDomain(
    (d) => path(pathsOf(d)),
    (domain, lang) =>
      Effect.gen(function* () {
        const scan = yield* (yield* Scans).scan(domain)
        const verdict = verdictOf(scan)
        if (verdict._tag === "Unscannable")
          return errorResponse(
            unscannablePage(lang, path(pathsOf(domain)), domain, verdict.nxdomain, verdict.reason)
          )
        return yield* render(scan, domain, lang)
      })
  )

/** GET /report/{domain}: the live Everything Report of the shared scan. */
export const report = scannedPage(
  (paths) => paths.report,
  (scan, domain, lang) =>
    Effect.gen(function* () {
      const base = yield* publicBaseUrl
      return htmlResponse(
        reportPage(everythingOf(scan, base, yield* reportsReceived(domain, scan, base)), lang)
      )
    })
)

/** GET /preview/{domain}: the "what if" form, prefilled with the live records a change starts from. */
export const preview = withDomain(
  (d) => pathsOf(d).preview,
  (domain, lang) =>
    Effect.map(liveRecordLines(domain), (records) =>
      htmlResponse(previewPage({ domain, form: { records, remove: "" } }, lang))
    )
)

const PreviewFields = Schema.Struct({
  records: Schema.optionalWith(Schema.String, { default: () => "" }),
  remove: Schema.optionalWith(Schema.String, { default: () => "" })
})

/**
 * POST /preview/{domain}: the form previewed, as POST /api/scan/preview previews it, shown as the
 * report page shows a scan with the changes marked; a form the preview refuses is the form again
 * with the refusal beside it, status 400.
 */
export const previewSubmit = withDomain(
  (d) => pathsOf(d).preview,
  (domain, lang) =>
    Effect.gen(function* () {
      const form = yield* Effect.orElseSucceed(HttpServerRequest.schemaBodyUrlParams(PreviewFields), () => ({
        records: "",
        remove: ""
      }))
      const refused = (problem: string) => htmlResponse(previewPage({ domain, form, problem }, lang), 400)
      const changes = readForm(form)
      if (Either.isLeft(changes)) return refused(changes.left)
      const previewed = yield* Effect.either(previewOfForm(domain, changes.right))
      if (Either.isLeft(previewed)) return refused(previewed.left.message)
      const base = yield* publicBaseUrl
      const report = everythingOf(previewed.right.scan, base)
      return htmlResponse(
        previewPage({ domain, form, result: { report, score: previewed.right.score } }, lang)
      )
    })
)

/** GET /nis2/{domain}: the NIS2 scorecard of the shared scan, in the page's language. */
export const nis2 = scannedPage(
  (paths) => paths.nis2,
  (scan, _domain, lang) => Effect.succeed(htmlResponse(nis2Page(nis2Scorecard(scan, lang), lang)))
)

/**
 * POST /report/{domain}/snapshot: the form's action. Held to the snapshot limit of
 * POST /api/report/snapshot (a snapshot is kept for good), then 303 to the snapshot's page.
 */
export const createSnapshot = withDomain(
  (d) => pathsOf(d).snapshotCreate,
  (domain, lang) =>
    metered("snapshot", (charge) =>
      Effect.gen(function* () {
        const wait = charge()
        if (wait > 0) return errorResponse(tooManyPage(lang, pathsOf(domain).report, wait))
        const { snapshot } = yield* snapshotReport(domain, yield* storedBaseUrl)
        return seeOther(withLang(snapshotPath(snapshot.id), lang))
      })
    )
)

/** The stored snapshot of the path, verified on read, shown by `show`; a missing one is a 404 page. */
const withSnapshot = <E, R>(
  show: (report: EverythingReport, lang: Lang) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  Effect.gen(function* () {
    const lang = yield* requestLang
    const path = yield* requestPath
    const id = (yield* HttpRouter.params).snapshotId ?? ""
    const found = yield* Effect.either((yield* Snapshots).read(id))
    if (Either.isLeft(found))
      return errorResponse(
        found.left._tag === "SnapshotMissing"
          ? snapshotMissingPage(lang, path, found.left.message)
          : failurePage(lang, path, 500, "this snapshot failed its integrity check and is not served")
      )
    // Read whatever registry stored it: a check added or removed since is no integrity failure.
    const stored = yield* Effect.either(readStoredReport(found.right.body))
    if (Either.isLeft(stored))
      return errorResponse(
        failurePage(lang, path, 500, "this snapshot failed its integrity check and is not served")
      )
    return yield* show(stored.right, lang)
  })

/** GET /snapshot/{snapshotId}: the stored snapshot as a page. */
export const snapshot = withSnapshot((report, lang) =>
  Effect.map(publicBaseUrl, (base) => htmlResponse(snapshotPage(report, lang, base)))
)

/** GET /snapshot/{snapshotId}/pdf: the stored snapshot as a PDF, its id and content hash in every footer. */
export const snapshotPdfFile = withSnapshot((report) =>
  Effect.map(snapshotPdf(report), (bytes) =>
    HttpServerResponse.uint8Array(bytes, {
      contentType: "application/pdf",
      headers: {
        // a snapshot never changes
        "Cache-Control": "public, max-age=31536000, immutable",
        "Content-Disposition": `inline; filename="${report.domain}-snapshot-${report.evidence.snapshotId}.pdf"`
      }
    })
  )
)

/** How many of the latest scans' changes the history page lists (each diff reads two stored scans). */
const HISTORY_STEPS = 10

/**
 * GET /history/{domain}: the domain's history (GET /api/history/{domain}) and the changes of its
 * latest scans; a domain without history is a 404 page.
 */
export const history = withDomain(
  (d) => pathsOf(d).history,
  (domain, lang) =>
    Effect.gen(function* () {
      // once a key exists the history is its owners' (docs/access.md): a page carries no key, so only
      // the machine itself is shown it
      if ((yield* KeyClients).anyDefined() && !(yield* localAdmin))
        return errorResponse(historyPrivatePage(lang, pathsOf(domain).history, domain))
      const histories = yield* Histories
      const listed = yield* Effect.either(histories.list(domain))
      if (Either.isLeft(listed))
        return errorResponse(historyMissingPage(lang, pathsOf(domain).history, listed.left.message))
      const list = listed.right
      const seqs = list.entries
        .map((e) => e.seq)
        .filter((seq) => seq > 1)
        .slice(-HISTORY_STEPS)
      const steps = yield* Effect.forEach(seqs, (seq) =>
        Effect.map(Effect.either(histories.diff(domain, seq - 1, seq)), (d) => ({
          to: seq,
          lines: Either.isRight(d) ? diffLines(d.right.changes, lang) : []
        }))
      )
      return htmlResponse(
        historyPage(
          { domain, entries: list.entries, chainValid: list.chainValid, invalidSeq: list.invalidSeq, steps },
          lang
        )
      )
    })
)

/** GET /assets/...: the style sheet and icon, cached for a day and revalidated by ETag. */
export const asset = (path: string) =>
  Effect.succeed(
    HttpServerResponse.text(ASSETS[path]!.body, {
      contentType: ASSETS[path]!.contentType,
      headers: { "Cache-Control": "public, max-age=86400" }
    })
  )

/** The services the page handlers read, for the route layer's context. */
export type PageServices =
  | Scans
  | Snapshots
  | Histories
  | Limits
  | KeyClients
  | AppConfig
  | ReportSummaries
  | VerifiedDomains
  | ScanContext
  | Effect.Effect.Context<typeof hallOfFame>
