/**
 * The shapes of monitors and alerts, declared once: the contract (`api/Monitors.ts`), the store and
 * the workflows read them from here (DESIGN.md principle 1).
 */
import { NormalDomain } from "../records/DomainName.ts"
import { Schema } from "effect"
import { Languages } from "../kernel/Nis2Evidence.ts"
import { DateTime, Nullable } from "../records/Schemas.ts"

/** The language a monitor's alerts are written in: English or Dutch. */
export const AlertLanguage = Schema.Literal(...Languages).annotations({
  description: "the language of the monitor's alerts (webhook text and e-mail): en (the default) or nl"
})
export type AlertLanguage = typeof AlertLanguage.Type

/**
 * A webhook: `url` (https, or http to an address inside ALLOW_TARGETS) and `secret`, the Standard
 * Webhooks signing key (`whsec_` and base64 of 24 to 64 random bytes, or the base64 alone).
 */
export const WebhookChannel = Schema.Struct({
  type: Schema.Literal("webhook"),
  url: Schema.String.pipe(Schema.maxLength(2048)),
  secret: Schema.String.pipe(Schema.maxLength(200))
}).annotations({ identifier: "WebhookChannel" })

/** An e-mail recipient, sent through the service's SMTP relay (`ALERT_SMTP_URL`). */
export const EmailChannel = Schema.Struct({
  type: Schema.Literal("email"),
  to: Schema.String.pipe(
    Schema.maxLength(254),
    // RFC 5321 §4.1.2 Mailbox, loosely: one local part, one domain, no spaces or list separators.
    Schema.pattern(/^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/, {
      message: () => "alerts[].to must be one e-mail address such as ops@example.com"
    })
  )
}).annotations({ identifier: "EmailChannel" })

export const Channel = Schema.Union(WebhookChannel, EmailChannel)
export type Channel = typeof Channel.Type

/** POST /monitors. */
export const CreateMonitor = Schema.Struct({
  domain: Schema.String,
  every: Schema.String.pipe(Schema.maxLength(40)).annotations({
    description: "ISO 8601 duration such as PT1H, at least MONITOR_MIN_INTERVAL",
    examples: ["PT1H"]
  }),
  alerts: Schema.Array(Channel).pipe(Schema.maxItems(10)),
  lang: Schema.optional(AlertLanguage)
})

/** A channel as the API shows it: the webhook secret is never sent back. */
export const ChannelView = Schema.Union(
  Schema.Struct({ type: Schema.Literal("webhook"), url: Schema.String }),
  Schema.Struct({ type: Schema.Literal("email"), to: Schema.String })
)

export const Monitor = Schema.Struct({
  id: Schema.String,
  domain: NormalDomain,
  every: Schema.String,
  alerts: Schema.Array(ChannelView),
  lang: AlertLanguage,
  createdAt: DateTime,
  /** The next scheduled scan (its due time: runs are spread over the interval, not on the hour). */
  nextRunAt: DateTime,
  lastRunAt: Nullable(DateTime),
  lastGrade: Nullable(Schema.String),
  /** Scheduled and manual runs finished so far. */
  runs: Schema.Int
}).annotations({ identifier: "Monitor" })
export type Monitor = typeof Monitor.Type

/** GET /monitors: one page, in creation order; `nextCursor` asks for the next (null: no more). */
export const MonitorList = Schema.Struct({
  monitors: Schema.Array(Monitor),
  nextCursor: Schema.NullOr(Schema.String)
})

/** POST /monitors/{id}/run: the scan was queued. */
export const MonitorRunAccepted = Schema.Struct({
  success: Schema.Boolean,
  id: Schema.String,
  status: Schema.Literal("queued"),
  /** The run's key: its due time (the request time for a manual run). */
  dueAt: DateTime
})

export const AlertStatus = Schema.Literal("pending", "delivered", "failed")
export type AlertStatus = typeof AlertStatus.Type

/** One alert to one channel: what it says and how its delivery went. */
export const Alert = Schema.Struct({
  /** Also the `webhook-id` header and the e-mail's Message-ID: stable across retries, so receivers can deduplicate. */
  id: Schema.String,
  monitorId: Schema.String,
  domain: NormalDomain,
  createdAt: DateTime,
  channel: ChannelView,
  /** Which rules fired: `grade-drop`, `new-issue`, `record-change`, `certificate-expiry`, `dnssec-expiry`, `registration-expiry`. */
  rules: Schema.Array(Schema.String),
  /** One sentence per change or warning, as a domain owner reads it. */
  summaries: Schema.Array(Schema.String),
  status: AlertStatus,
  attempts: Schema.Int,
  lastAttemptAt: Nullable(DateTime),
  /** While pending: when the next attempt is due. */
  nextAttemptAt: Nullable(DateTime),
  deliveredAt: Nullable(DateTime),
  lastError: Nullable(Schema.String)
}).annotations({ identifier: "Alert" })
export type Alert = typeof Alert.Type

export const AlertList = Schema.Struct({ alerts: Schema.Array(Alert) })
