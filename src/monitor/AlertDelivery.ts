/**
 * An alert's delivery as a durable workflow (`AlertDelivery`, keyed by the alert's id): attempt,
 * and on failure sleep with exponential backoff (`ALERT_RETRY_BASE_MS` doubling up to
 * `ALERT_RETRY_MAX_MS`) and attempt again, until delivered or `ALERT_RETRY_FOR_MS` (24 h) after the
 * alert was created, when it is marked failed. The sleeps are durable (`DurableClock`), so retries
 * go on across restarts and on another runner when this one dies; each attempt is journalled, and
 * written to `monitor_alerts` (status, attempts, last error, next attempt), which
 * `GET /monitors/{id}/alerts` reads.
 *
 * Delivery is at least once (a runner killed after sending but before journalling sends again);
 * receivers deduplicate by the alert id, which is the `webhook-id` and the e-mail's Message-ID.
 *
 * - Webhook: POST of the stored JSON body, signed per Standard Webhooks (`webhook-id`,
 *   `webhook-timestamp`, `webhook-signature`: HMAC-SHA256 over `id.timestamp.body` with the
 *   monitor's secret, by the `standardwebhooks` package), through the guarded web client: the
 *   address policy, `HTTP_ALLOWED_PORTS`, timeouts; redirects are not followed. A 2xx is delivered.
 * - E-mail: through the SMTP relay (`net/Mailer.ts`); accepted by the relay is delivered.
 */
import { Activity, DurableClock, Workflow } from "@effect/workflow"
import { Clock, Effect, Either, Schema } from "effect"
import { Webhook } from "standardwebhooks"
import { AppConfig } from "../Config.ts"
import { Mailer } from "../net/Mailer.ts"
import * as M from "../observe/Metrics.ts"
import { Resolver } from "../net/Resolver.ts"
import { Web } from "../net/Web.ts"
import { parseAllowList } from "../records/IpAddress.ts"
import { type AlertRow, getAlert, getMonitor, recordAttempt } from "./MonitorStore.ts"
import { webhookUrlProblem } from "./WebhookTarget.ts"

export const AlertDelivery = Workflow.make({
  name: "AlertDelivery",
  payload: { alertId: Schema.String },
  idempotencyKey: ({ alertId }) => alertId
})

/** The wait before attempt `n + 1` after `n` failed attempts: base * 2^(n-1), at most `maxMs`. */
export const backoffMs = (failedAttempts: number, baseMs: number, maxMs: number): number =>
  Math.min(maxMs, baseMs * 2 ** Math.min(30, Math.max(0, failedAttempts - 1)))

const Attempted = Schema.Struct({ done: Schema.Boolean, retryInMs: Schema.Finite })

/** Send `alert` once; fails with the reason. */
const send = (alert: AlertRow) =>
  Effect.gen(function* () {
    if (alert.channelType === "email") {
      const mail = JSON.parse(alert.body) as { subject: string; text: string }
      const mailer = yield* Mailer
      const host = (yield* AppConfig).alertMailFrom.split("@")[1] ?? "localhost"
      return yield* mailer
        .send({ to: alert.target, ...mail, headers: { "Message-ID": `<${alert.id}@${host}>` } })
        .pipe(Effect.mapError((e) => e.message))
    }
    const monitor = yield* getMonitor(alert.monitorId).pipe(Effect.orDie)
    const channel = monitor?.channels[alert.channel]
    if (channel?.type !== "webhook") return yield* Effect.fail("the monitor or its webhook was deleted")
    const config = yield* AppConfig
    const resolver = yield* Resolver
    const allow = parseAllowList(config.allowTargets)
    const problem = yield* webhookUrlProblem(channel.url, allow.ok ? allow.cidrs : [], resolver.addresses)
    if (problem !== null) return yield* Effect.fail(problem)
    const now = new Date(yield* Clock.currentTimeMillis)
    const signature = new Webhook(channel.secret).sign(alert.id, now, alert.body)
    const web = yield* Web
    const response = yield* web
      .get(channel.url, {
        method: "POST",
        body: new TextEncoder().encode(alert.body),
        headers: {
          "content-type": "application/json",
          "webhook-id": alert.id,
          "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
          "webhook-signature": signature
        },
        followRedirects: false,
        maxBytes: 65_536,
        truncateBody: true
      })
      .pipe(Effect.mapError((e) => e.message))
    if (response.status < 200 || response.status > 299)
      return yield* Effect.fail(`the webhook answered HTTP ${response.status}`)
  })

const attemptLabels = Object.fromEntries(
  ["webhook", "email"].flatMap((channel) =>
    ["delivered", "failed", "abandoned"].map((outcome) => [
      `${channel} ${outcome}`,
      M.labels({ channel, outcome })
    ])
  )
)

const countAttempt = (alert: AlertRow, outcome: "delivered" | "failed" | "abandoned") =>
  M.alertDeliveries.unsafeUpdate(1, attemptLabels[`${alert.channelType} ${outcome}`] ?? [])

/** One attempt: delivered, given up (too old), or the wait before the next. */
const attemptOnce = (alertId: string) =>
  Effect.gen(function* () {
    const config = yield* AppConfig
    const alert = yield* getAlert(alertId).pipe(Effect.orDie)
    if (alert === undefined || alert.status !== "pending") return { done: true, retryInMs: 0 }
    const outcome = yield* Effect.either(send(alert))
    const now = yield* Clock.currentTimeMillis
    if (Either.isRight(outcome)) {
      countAttempt(alert, "delivered")
      yield* recordAttempt(alertId, { nowMs: now, status: "delivered", error: null, nextAttemptAt: null })
      return { done: true, retryInMs: 0 }
    }
    const wait = backoffMs(alert.attempts + 1, config.alertRetryBaseMs, config.alertRetryMaxMs)
    const giveUp = now + wait - alert.createdAt > config.alertRetryForMs
    countAttempt(alert, giveUp ? "abandoned" : "failed")
    yield* recordAttempt(alertId, {
      nowMs: now,
      status: giveUp ? "failed" : "pending",
      error: outcome.left,
      nextAttemptAt: giveUp ? null : now + wait
    })
    return { done: giveUp, retryInMs: wait }
  }).pipe(Effect.orDie)

export const AlertDeliveryLive = AlertDelivery.toLayer(({ alertId }) =>
  Effect.gen(function* () {
    for (let attempt = 1; ; attempt++) {
      const result = yield* Activity.make({
        name: `attempt-${attempt}`,
        success: Attempted,
        execute: attemptOnce(alertId)
      })
      if (result.done) return
      yield* DurableClock.sleep({ name: `backoff-${attempt}`, duration: result.retryInMs })
    }
  })
)

/** Start the delivery of `alertId` (a no-op when it was started before). */
export const startDelivery = (alertId: string) =>
  AlertDelivery.execute({ alertId }, { discard: true }).pipe(Effect.asVoid)
