/**
 * The page routes outside `/api` (docs/pages.md), on the same router as the API, so the edge's
 * rules (admission, limits, canonical paths, error answers) hold for them as for every endpoint.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ASSETS } from "../../pages/Assets.ts"
import * as Page from "./PageHandlers.ts"

export const PageRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const context = yield* Effect.context<Page.PageServices>()
    const serve = <A, E, R>(handler: Effect.Effect<A, E, R>) =>
      Effect.provide(handler, context) as Effect.Effect<A, E, Exclude<R, Page.PageServices>>
    yield* router.get("/", serve(Page.home))
    yield* router.get("/report/:domain", serve(Page.report))
    yield* router.post("/report/:domain/snapshot", serve(Page.createSnapshot))
    yield* router.get("/snapshot/:snapshotId", serve(Page.snapshot))
    yield* router.get("/nis2/:domain", serve(Page.nis2))
    yield* router.get("/history/:domain", serve(Page.history))
    for (const path of Object.keys(ASSETS)) yield* router.get(path as `/${string}`, Page.asset(path))
  })
)
