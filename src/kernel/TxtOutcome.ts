/**
 * The TXT look-ups the email-authentication checks share (DMARC, DKIM, BIMI, MTA-STS, TLS-RPT).
 * A look-up is kept as an outcome value, so `analyse` stays pure and can tell a missing record
 * (empty list) from a failed look-up (`error`), which is "unknown", never "missing".
 */
import { Effect } from "effect"
import { txtOf } from "../net/DnsWire.ts"
import type { FactsShape } from "./Facts.ts"

/**
 * The one door these gathers need: a scan's Facts in a check, any TXT source (a fake in a unit
 * test) when the gather is called directly. `sweep`, when the source has it, asks many names
 * in one fiber (Facts does); without it, a fiber per name.
 */
export type TxtSource = Pick<FactsShape, "txt"> & Partial<Pick<FactsShape, "sweep">>

export type TxtOutcome =
  | { readonly name: string; readonly records: ReadonlyArray<string> }
  | { readonly name: string; readonly error: string }

export const isTxtError = (o: TxtOutcome): o is { readonly name: string; readonly error: string } =>
  "error" in o

/** Looks a name up, turning a DNS failure into an `error` outcome (never into "no record"). */
export const lookupTxt = (dns: TxtSource, name: string): Effect.Effect<TxtOutcome> =>
  dns.txt(name).pipe(
    Effect.map((records): TxtOutcome => ({ name, records })),
    Effect.catchAll((e) => Effect.succeed<TxtOutcome>({ name, error: `${e.reason}: ${e.message}` }))
  )

/** No TXT record: one array for every negative answer of a sweep. */
const NO_RECORDS: ReadonlyArray<string> = Object.freeze([])

/**
 * Looks each name up, at most `concurrency` at once, each outcome kept as `lookupTxt` does. Over a
 * scan's Facts it is a `sweep`: only the outcomes are kept, not the answers.
 */
export const lookupTxtEach = (
  dns: TxtSource,
  names: ReadonlyArray<string>,
  concurrency: number
): Effect.Effect<ReadonlyArray<TxtOutcome>> =>
  dns.sweep
    ? dns.sweep(
        "TXT",
        names,
        (outcome, i): TxtOutcome => {
          if (outcome._tag === "Left")
            return { name: names[i]!, error: `${outcome.left.reason}: ${outcome.left.message}` }
          const records = txtOf(outcome.right)
          return { name: names[i]!, records: records.length === 0 ? NO_RECORDS : records }
        },
        { concurrency }
      )
    : Effect.forEach(names, (name) => lookupTxt(dns, name), { concurrency })
