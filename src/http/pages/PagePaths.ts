/**
 * The page routes outside `/api` (docs/pages.md), as data the edge reads before routing: their
 * templates join the API's in RequestTarget.ts (so other spellings redirect to one canonical
 * path), and their cost class joins Admission.ts's (a page that runs a full scan is costly, like
 * the API call it stands for).
 */
import { ASSETS } from "../../pages/Assets.ts"

/** Method and path template of every page route (`:name` marks a parameter). */
export const PAGE_ROUTES: ReadonlyArray<readonly [method: string, path: string]> = [
  ["GET", "/"],
  ["GET", "/report/:domain"],
  ["POST", "/report/:domain/snapshot"],
  ["GET", "/snapshot/:snapshotId"],
  ["GET", "/nis2/:domain"],
  ["GET", "/history/:domain"],
  ["GET", "/preview/:domain"],
  ["POST", "/preview/:domain"],
  ...Object.keys(ASSETS).map((path) => ["GET", path] as const)
]

/**
 * A page's cost: the report and NIS2 pages, snapshot creation and the "what if" page (its form
 * reads the live DNS, its answer runs two scans) are costly; the home page, stored snapshots,
 * history and assets read local state (cheap).
 */
export const pageRouteClass = (method: string, path: string): "cheap" | "costly" =>
  (method === "GET" && /^\/(?:report|nis2)\/[^/]+$/.test(path)) ||
  ((method === "GET" || method === "POST") && /^\/preview\/[^/]+$/.test(path)) ||
  (method === "POST" && /^\/report\/[^/]+\/snapshot$/.test(path))
    ? "costly"
    : "cheap"

/** The API's documentation, a page inside `/api` (ApiDocsRoute.ts): it gets the page headers too. */
export const API_DOCS_PATH = "/api/docs"

/** Whether a path is a page's (everything outside `/api`): answered as HTML, with page headers. */
export const isPagePath = (path: string) => path !== "/api" && !path.startsWith("/api/")
