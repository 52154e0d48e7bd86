/**
 * The cost of every route of the contract, as its endpoint declares it (api/Cost.ts), in a table
 * the edge reads per request before any Effect runs (Gatekeeper.ts): the static paths in a map,
 * the ones with path parameters (`/api/report/snapshot/:snapshotId`) as patterns. Built once from
 * the contract, so a new endpoint is classed where it is declared, not in a second list here.
 */
import { HttpApi } from "@effect/platform"
import { Api } from "../../Api.ts"
import { classOf, type Costing, costingOf, type RouteClass } from "../../api/Cost.ts"

interface Pattern {
  readonly method: string
  readonly path: RegExp
  readonly cost: Costing
}

/** `/a/:b/c` as a pattern of one segment per parameter; a trailing slash matches too. */
const patternOf = (path: string) =>
  new RegExp(
    `^${path
      .split("/")
      .map((s) => (s.startsWith(":") ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/")}/?$`
  )

const build = () => {
  const fixed = new Map<string, Costing>()
  const patterns: Array<Pattern> = []
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations }) => {
      const cost = costingOf(mergedAnnotations)
      if (endpoint.path.includes(":"))
        patterns.push({ method: endpoint.method, path: patternOf(endpoint.path), cost })
      else {
        fixed.set(`${endpoint.method} ${endpoint.path}`, cost)
        fixed.set(`${endpoint.method} ${endpoint.path}/`, cost)
      }
    }
  })
  return { fixed, patterns }
}

let table: ReturnType<typeof build> | undefined

/** What the contract declares for `method path` (HEAD counted as GET); undefined off the contract. */
const declared = (method: string, path: string): Costing | undefined => {
  table ??= build()
  const fixed = table.fixed.get(`${method} ${path}`)
  if (fixed !== undefined) return fixed
  for (const p of table.patterns) if (p.method === method && p.path.test(path)) return p.cost
  return undefined
}

/** The class of a request the contract serves, its query (`a=1&b=2`) given; undefined off the contract. */
export const declaredCost = (method: string, path: string, query: string): RouteClass | undefined => {
  const costing = declared(method, path)
  return costing === undefined ? undefined : classOf(costing, query)
}
