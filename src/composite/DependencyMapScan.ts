/**
 * GET /dns/dependencies: the dependency map (report/DependencyMap.ts) of the domain's full scan,
 * the one `Scans` shares and caches, so the map carries every check's verdict about each
 * dependency without running a check again. With `names` (the names its owner listed) it is the
 * scan that also probes them (scan/Scans.ts), so their CNAME targets join the map.
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect } from "effect"
import { type DependencyMap, dependencyMap } from "../report/DependencyMap.ts"
import { Scans } from "../scan/Scans.ts"

export const dependencies = (
  domain: Domain,
  names: ReadonlyArray<string> = []
): Effect.Effect<DependencyMap, never, Scans> =>
  Effect.flatMap(Scans, (scans) => Effect.map(scans.scan(domain, names), dependencyMap))
