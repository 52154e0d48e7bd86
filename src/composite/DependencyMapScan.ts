/**
 * GET /dns/dependencies: the dependency map (report/DependencyMap.ts) of the domain's full scan,
 * the one `Scans` shares and caches, so the map carries every check's verdict about each
 * dependency without running a check again.
 */
import { Effect } from "effect"
import { type DependencyMap, dependencyMap } from "../report/DependencyMap.ts"
import { Scans } from "../scan/Scans.ts"

export const dependencies = (domain: string): Effect.Effect<DependencyMap, never, Scans> =>
  Effect.flatMap(Scans, (scans) => Effect.map(scans.scan(domain), dependencyMap))
