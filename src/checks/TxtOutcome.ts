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
 * test) when the gather is called directly. `queryEach`, when the source has it, asks many names
 * in one fiber (Facts does); without it, a fiber per name.
 */
export type TxtSource = Pick<FactsShape, "txt"> & Partial<Pick<FactsShape, "queryEach">>

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

/** Looks each name up, at most `concurrency` at once, each outcome kept as `lookupTxt` does. */
export const lookupTxtEach = (
  dns: TxtSource,
  names: ReadonlyArray<string>,
  concurrency: number
): Effect.Effect<ReadonlyArray<TxtOutcome>> =>
  dns.queryEach
    ? Effect.map(
        dns.queryEach(
          names.map((name) => ({ name, type: "TXT" as const })),
          { concurrency }
        ),
        (outcomes) =>
          outcomes.map((outcome, i): TxtOutcome =>
            outcome._tag === "Right"
              ? { name: names[i]!, records: txtOf(outcome.right) }
              : { name: names[i]!, error: `${outcome.left.reason}: ${outcome.left.message}` }
          )
      )
    : Effect.forEach(names, (name) => lookupTxt(dns, name), { concurrency })

/** Normalises a user-supplied domain for building query names: lowercase, no trailing dot. */
export const normaliseDomain = (domain: string): string => domain.trim().toLowerCase().replace(/\.$/, "")
