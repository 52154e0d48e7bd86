/**
 * GET /scan/quick and POST /scan: the full scan of a domain (shared and cached by `Scans`), scored
 * by the pure model of `score/`. A repeated scan within `SCAN_CACHE_TTL_MS` is served from the cache.
 */
import { Effect } from "effect"
import { score, type ScanScore } from "../score/Score.ts"
import { Scans } from "./Scans.ts"

export const scanScore = (domain: string): Effect.Effect<ScanScore, never, Scans> =>
  Effect.flatMap(Scans, (scans) => Effect.map(scans.scan(domain), score))
