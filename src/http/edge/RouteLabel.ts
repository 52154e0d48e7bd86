/**
 * The route template of a request path, as a metric label: `/api/scan/deep/:scan_id` for every
 * scan id, `/report/:domain` for every page of a report, so that the label's values are the contract's endpoints and a few fixed names, however
 * many paths clients send.
 */
import { HttpApi } from "@effect/platform"
import { Api } from "../../Api.ts"
import { PAGE_PATHS } from "../pages/PageRoutes.ts"
import { ASSETS } from "../../pages/Assets.ts"

interface Labelled {
  readonly label: string
  readonly segments: ReadonlyArray<string | undefined>
}

const TEMPLATES: ReadonlyArray<Labelled> = (() => {
  const paths = new Set<string>([
    "/api",
    "/api/openapi.json",
    "/api/docs",
    ...Object.values(PAGE_PATHS),
    ...Object.keys(ASSETS)
  ])
  HttpApi.reflect(Api, { onGroup() {}, onEndpoint: ({ endpoint }) => void paths.add(endpoint.path) })
  return [...paths].map((label) => ({
    label,
    segments: label
      .split("/")
      .filter((s) => s !== "")
      .map((s) => (s.startsWith(":") ? undefined : s))
  }))
})()

/** The template `path` (no query) is served by; `/api/other` or `other` when none is. */
export const routeLabel = (path: string): string => {
  if (path === "/metrics" || path === "/health") return path
  const segments = path.split("/").filter((s) => s !== "")
  let best: Labelled | undefined
  for (const t of TEMPLATES) {
    if (t.segments.length !== segments.length) continue
    if (!t.segments.every((want, i) => want === undefined || want === segments[i])) continue
    // A literal segment beats a parameter (`/api/report/snapshot/:id` vs a fixed sibling).
    if (
      best === undefined ||
      t.segments.filter((s) => s !== undefined).length > best.segments.filter((s) => s !== undefined).length
    )
      best = t
  }
  return best?.label ?? (path.startsWith("/api/") ? "/api/other" : "other")
}
