/**
 * GET /scan/nis2: the NIS2 scorecard (src/score/Nis2.ts) of the domain's full scan. The scan is the
 * one `Scans` shares and caches, so /scan/quick and /scan/nis2 of one domain run a single scan.
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect } from "effect"
import { type Nis2Scorecard, nis2Scorecard } from "../score/Nis2.ts"
import type { Lang } from "../score/Nis2Text.ts"
import { Scans } from "../scan/Scans.ts"

export const scanNis2 = (
  domain: Domain,
  lang: Lang = "en",
  names: ReadonlyArray<string> = []
): Effect.Effect<Nis2Scorecard, never, Scans> =>
  Effect.flatMap(Scans, (scans) => Effect.map(scans.scan(domain, names), (scan) => nis2Scorecard(scan, lang)))
