/**
 * The page routes outside `/api` (docs/pages.md), on the same router as the API, so the edge's
 * rules (admission, limits, canonical paths, error answers) hold for them as for every endpoint.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ASSETS } from "../../pages/Assets.ts"
import * as Page from "./PageHandlers.ts"

/** The page templates; also the metrics' route labels (edge/RouteLabel.ts). */
export const PAGE_PATHS = {
  home: "/",
  report: "/report/:domain",
  createSnapshot: "/report/:domain/snapshot",
  snapshot: "/snapshot/:snapshotId",
  snapshotPdf: "/snapshot/:snapshotId/pdf",
  nis2: "/nis2/:domain",
  history: "/history/:domain",
  preview: "/preview/:domain"
} as const

export const PageRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<Page.PageServices>()
    const serve = <A, E, R>(handler: Effect.Effect<A, E, R>) =>
      Effect.provide(handler, context) as Effect.Effect<A, E, Exclude<R, Page.PageServices>>
    yield* router.get(PAGE_PATHS.home, serve(Page.home))
    yield* router.get(PAGE_PATHS.report, serve(Page.report))
    yield* router.post(PAGE_PATHS.createSnapshot, serve(Page.createSnapshot))
    yield* router.get(PAGE_PATHS.snapshot, serve(Page.snapshot))
    yield* router.get(PAGE_PATHS.snapshotPdf, serve(Page.snapshotPdfFile))
    yield* router.get(PAGE_PATHS.nis2, serve(Page.nis2))
    yield* router.get(PAGE_PATHS.history, serve(Page.history))
    yield* router.get(PAGE_PATHS.preview, serve(Page.preview))
    yield* router.post(PAGE_PATHS.preview, serve(Page.previewSubmit))
    for (const path of Object.keys(ASSETS)) yield* router.get(path as `/${string}`, Page.asset(path))
  })
)
