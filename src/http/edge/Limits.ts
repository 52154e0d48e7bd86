/**
 * The service's limits in one place, one instance per server: every per-client token bucket
 * (RateLimit.ts) and the record of every refusal (429 and 503), counted by reason and logged.
 *
 * Refusals are logged at most once per reason every `LOG_EVERY_MS`, with how many of that reason
 * went unlogged since and the meters that decided it (a crowd refused by the thousand writes a
 * few lines, not thousands); the counts since start are in `/health`'s `services.admission` and
 * in the metric `domain_audit_admission_refusals_total`.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Clock, Effect, type MetricLabel, Runtime } from "effect"
import { AppConfig } from "../../Config.ts"
import * as M from "../../observe/Metrics.ts"
import { clientAddress } from "./ClientAddress.ts"
import { KeyClients } from "./KeyClients.ts"
import {
  type Limiter,
  makeLimiter,
  type Policy,
  type Reading,
  rateLimitHeaders,
  scaled
} from "./RateLimit.ts"

const LOG_EVERY_MS = 10_000

/** Why a request was refused: a client's bucket (429) or the process's saturation (503). */
export type RefusalReason =
  | "rate-costly"
  | "rate-cheap"
  | "rate-csp-scan"
  | "rate-snapshot"
  | "rate-deep-scan"
  | "shed-cpu"
  | "shed-queue-full"
  | "shed-queue-wait"
  | "shutting-down"

export type Meters = Readonly<Record<string, number | string>>

/**
 * Counts and rate-limited log lines for refusals. `log` writes one line (the service passes the
 * Effect logger; tests pass a spy).
 */
export const makeRefusals = (log: (message: string, annotations: Meters) => void) => {
  const counts: Partial<Record<RefusalReason, number>> = {}
  const lastLogged = new Map<RefusalReason, { at: number; unlogged: number }>()
  const series = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()
  const record = (status: 429 | 503, reason: RefusalReason, meters: Meters, now = Date.now()) => {
    counts[reason] = (counts[reason] ?? 0) + 1
    const key = `${status}${reason}`
    let tags = series.get(key)
    if (tags === undefined) series.set(key, (tags = M.labels({ status: String(status), reason })))
    M.admissionRefusals.unsafeUpdate(1, tags)
    const last = lastLogged.get(reason)
    if (last !== undefined && now - last.at < LOG_EVERY_MS) {
      last.unlogged++
      return
    }
    lastLogged.set(reason, { at: now, unlogged: 0 })
    log(`refused with ${status}: ${reason}`, {
      status,
      reason,
      ...meters,
      ...(last !== undefined && last.unlogged > 0 ? { unloggedSince: last.unlogged } : {})
    })
  }
  return { record, counts: (): Readonly<Partial<Record<RefusalReason, number>>> => ({ ...counts }) }
}

export type Refusals = ReturnType<typeof makeRefusals>

/** The named per-client limits, each a token bucket with its RateLimit-Policy name. */
export interface LimitSet {
  readonly costly: Limiter
  readonly cheap: Limiter
  readonly cspScan: Limiter
  readonly snapshot: Limiter
  readonly deepScan: Limiter
}

export class Limits extends Effect.Service<Limits>()("Limits", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const runtime = yield* Effect.runtime<never>()
    // An API key's own bucket: each policy times RATE_KEY_MULTIPLIER (KeyClients.ts).
    const limiter = (policy: Policy) =>
      makeLimiter(policy, undefined, scaled(policy, config.rateKeyMultiplier))
    const limiters: LimitSet = {
      costly: limiter({
        name: "costly",
        burst: config.rateCostlyBurst,
        perMinute: config.rateCostlyPerMinute
      }),
      cheap: limiter({
        name: "cheap",
        burst: config.rateCheapBurst,
        perMinute: config.rateCheapPerMinute
      }),
      cspScan: limiter({
        name: "csp-scan",
        burst: config.cspScanBurst,
        perMinute: config.cspScanPerHour / 60
      }),
      snapshot: limiter({
        name: "snapshot",
        burst: config.snapshotRateBurst,
        perMinute: config.snapshotRatePerMinute
      }),
      deepScan: limiter({
        name: "deep-scan",
        burst: config.deepScanBurst,
        perMinute: config.deepScanPerHour / 60
      })
    }
    // Called from node's request event too (the gatekeeper), outside any fiber: fork the log line.
    const warn = (message: string, annotations: Meters) =>
      Runtime.runFork(runtime)(Effect.logWarning(message).pipe(Effect.annotateLogs(annotations)))
    const refusals = makeRefusals(warn)
    /**
     * Take a token of `limit` for `client`; a refusal is recorded. The answer then carries both the
     * edge's costly policy (where the client stands there, unchanged) and this one.
     */
    const take = (limit: OwnLimit, client: string, now: number) => {
      const reading = limiters[limit].take(client, now)
      if (reading.retryAfterS > 0)
        refusals.record(429, `rate-${limiters[limit].policy.name}` as RefusalReason, {
          client,
          retryAfterS: reading.retryAfterS
        })
      return reading
    }
    /**
     * Let this request's answer, success or refusal, carry where `client` stands under the edge's
     * costly bucket and under `limit` (`own`, when this request took a token of it).
     */
    const advertise = (limit: OwnLimit, client: string, now: number, own?: Reading) => {
      const headers = rateLimitHeaders([
        limiters.costly.peek(client, now),
        own ?? limiters[limit].peek(client, now)
      ])
      return HttpApp.appendPreResponseHandler((_request, response) =>
        Effect.succeed(HttpServerResponse.setHeaders(response, headers))
      )
    }
    return { ...limiters, refusals, warn, take, advertise } as const
  })
}) {}

/** The per-client limits a handler's work is held to, beside the edge's costly and cheap buckets. */
export type OwnLimit = Exclude<keyof LimitSet, "costly" | "cheap">

/**
 * `work` held to the caller's bucket of `limit`: the work takes a token only when it calls `charge`
 * (which answers 0 when the token was there, else the seconds until one is back), so what costs
 * nothing (a cached CSP scan, a deep scan already under way) is not charged. The answer, success or
 * refusal, carries where the caller stands (`advertise`). The caller is its API key when it
 * presents a usable one (KeyClients.ts), else the socket peer or the client behind a trusted proxy
 * (`clientAddress`). The one place a handler's limit is applied.
 */
export const metered = <A, E, R>(limit: OwnLimit, work: (charge: () => number) => Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const limits = yield* Limits
    const request = yield* HttpServerRequest.HttpServerRequest
    // a usable API key's own bucket (KeyClients.ts), else the address's
    const client = (yield* KeyClients).clientOf(request.headers.authorization) ?? (yield* clientAddress)
    const now = yield* Clock.currentTimeMillis
    let taken: Reading | undefined
    const charge = () => (taken = limits.take(limit, client, now)).retryAfterS
    return yield* work(charge).pipe(
      Effect.ensuring(Effect.suspend(() => limits.advertise(limit, client, now, taken)))
    )
  })
