/**
 * The Scanner as an Effect service: the engine the server, the batch and the command line run (the
 * fiber graph of `scan/Scanner.ts` and the pure `score/`), behind a typed door for Effect programs.
 * It adds nothing to a scan but the domain's normalisation (the API's own) and its score.
 *
 * - `Scanner.Default`: the live net services (Resolver, Web, Smtp) and AppConfig from the runtime's
 *   ConfigProvider (the environment, unless `settingsLayer(options)` says otherwise).
 * - `Scanner.DefaultWithoutDependencies`: needs `Resolver | Web | Smtp | AppConfig`, so a program
 *   can give it a resolver (or web client) of its own; `netLayer(resolver)` builds the rest over it.
 */
import { Effect, Either, Layer, Schema } from "effect"
import { AppConfig } from "../Config.ts"
import type { ScanDepth } from "../kernel/Depth.ts"
import type { ScanResult } from "../scan/ScanResult.ts"
import { type Domain, normaliseDomain } from "../records/DomainName.ts"
import { nameOutside, parseListedNames } from "../records/ListedNames.ts"
import type { ScanContext } from "../scan/FactsLive.ts"
import { netLayer, ScanNetLive } from "../scan/ScanLive.ts"
import { scan } from "../scan/Scanner.ts"
import { score, type ScanScore } from "../score/Score.ts"
import { type PreviewRefused, type PreviewScore, previewAgainst } from "../composite/Preview.ts"
import type { PreviewChanges } from "../composite/PreviewInput.ts"

/** What was given is not a domain the scanner can scan; `message` says why (the API's words). */
export class InvalidDomain extends Schema.TaggedError<InvalidDomain>()("InvalidDomain", {
  input: Schema.String,
  message: Schema.String
}) {}

/** A scan and its score: what `POST /api/scan` scores, with the checks' full results beside it. */
export interface GradedScan {
  /** The normalised domain (lower-case A-label, no trailing dot). */
  readonly domain: Domain
  readonly scan: ScanResult
  readonly score: ScanScore
}

export interface ScanSettings {
  /** Override `SCAN_DEADLINE_MS` for this scan. */
  readonly deadlineMs?: number
  /**
   * Names of the domain that DNS cannot list (`shop.example.com`), examined by the takeover check
   * as www is: the API's `names` (at most 20, each the domain or under it; docs/dependencies.md).
   */
  readonly names?: ReadonlyArray<string>
  /**
   * How deep to scan (docs/batch.md "Depth"): `full` (the default) asks everything; `standard` no TLS
   * versions or cipher suites of the web servers; `quick` none of any server (certificates only).
   * What a depth leaves out is not checked: `scan.depth` says the depth and `score.depth` the
   * records left out of the score.
   */
  readonly depth?: ScanDepth
}

/** A "what if" preview and its score (docs/preview.md): `score.compared` is the live score beside it. */
export interface GradedPreview {
  readonly domain: Domain
  /** The scan with the changes laid over the live domain. */
  readonly scan: ScanResult
  readonly score: PreviewScore
}

/** The domain and its listed names, normalised as the API does, or why they cannot be scanned. */
const normalised = (input: string, names: ReadonlyArray<string>) =>
  Either.flatMap(normaliseDomain(input), (domain) =>
    Either.flatMap(parseListedNames(names), (listed) => {
      const outside = nameOutside(domain, listed)
      return outside === null ? Either.right({ domain, listed }) : Either.left(outside)
    })
  )

/** The live net services, each reading AppConfig: what the server and the batch scan over. */
export const NetLive = ScanNetLive

export { netLayer }

export class Scanner extends Effect.Service<Scanner>()("domain-audit/Scanner", {
  effect: Effect.gen(function* () {
    const context = yield* Effect.context<ScanContext>()
    return {
      /**
       * Scans `input` (a domain, or a URL whose host is scanned) and scores it. Never fails for a
       * slow or broken domain: what could not be answered is `unknown` in the result.
       */
      scan: (input: string, settings: ScanSettings = {}): Effect.Effect<GradedScan, InvalidDomain> =>
        Either.match(normalised(input, settings.names ?? []), {
          onLeft: (message) => Effect.fail(new InvalidDomain({ input, message })),
          onRight: ({ domain, listed }) =>
            scan(domain, {
              names: listed,
              ...(settings.deadlineMs === undefined ? {} : { deadlineMs: settings.deadlineMs }),
              ...(settings.depth === undefined ? {} : { depth: settings.depth })
            }).pipe(
              // no traces: the library exports none, and a span costs memory in every scan in flight
              Effect.withTracerEnabled(false),
              Effect.map((result): GradedScan => ({ domain, scan: result, score: score(result) })),
              Effect.provide(context)
            )
        }),
      /**
       * Scans `input` as it will be once `changes` are published (records replacing the live
       * RRsets of their name and type, removals, files), beside a live scan of it: never stored.
       */
      preview: (
        input: string,
        changes: PreviewChanges,
        settings: ScanSettings = {}
      ): Effect.Effect<GradedPreview, InvalidDomain | PreviewRefused> =>
        Either.match(normalised(input, settings.names ?? []), {
          onLeft: (message) => Effect.fail(new InvalidDomain({ input, message })),
          onRight: ({ domain, listed }) => {
            const options = {
              names: listed,
              ...(settings.deadlineMs === undefined ? {} : { deadlineMs: settings.deadlineMs })
            }
            return previewAgainst(domain, changes, listed, scan(domain, options)).pipe(
              Effect.withTracerEnabled(false),
              Effect.map((graded): GradedPreview => ({ domain, scan: graded.scan, score: graded.score })),
              Effect.provide(context)
            )
          }
        }),
      /** The score of a scan (pure; `score` of the package). */
      score
    } as const
  }),
  dependencies: [NetLive.pipe(Layer.provideMerge(AppConfig.Default))]
}) {}
