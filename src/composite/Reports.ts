/**
 * The report endpoints' compositions: one full scan (shared and cached by `Scans`, like
 * GET /scan/quick) handed to the report builders of `report/`, which take a scan and start none.
 */
import { Effect } from "effect"
import { everythingOf } from "../report/Everything.ts"
import { Snapshots } from "../report/Snapshots.ts"
import { Scans } from "../scan/Scans.ts"

/** The live Everything Report of `domain`, its URLs on `base`. */
export const liveReport = (domain: string, base: string) =>
  Effect.flatMap(Scans, (scans) => Effect.map(scans.scan(domain), (scan) => everythingOf(scan, base)))

/** A snapshot of `domain`'s report now (or the same content stored moments ago). */
export const snapshotReport = (domain: string, base: string) =>
  Effect.flatMap(Effect.zip(Scans, Snapshots), ([scans, snapshots]) =>
    Effect.flatMap(scans.scan(domain), (scan) => snapshots.create(scan, base))
  )
