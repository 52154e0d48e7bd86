/**
 * Mailer: alert e-mail out through the operator's SMTP relay (`ALERT_SMTP_URL`, e.g.
 * `smtp://relay.example:587` or `smtps://user:pass@relay.example`), with `nodemailer`. The relay is
 * the operator's own, not an address a caller chose, so it is not subject to the outbound address
 * policy; the recipients are callers', and the relay decides where their mail goes (RFC 5321 §2.3.10).
 */
import { Effect, Redacted, Schema } from "effect"
import { createTransport } from "nodemailer"
import { AppConfig } from "../Config.ts"

export class MailError extends Schema.TaggedError<MailError>()("MailError", { message: Schema.String }) {}

/**
 * What a monitor's owner is told of a failed hand-over (docs/errors.md): generic words and the
 * relay's SMTP reply code, never the relay's address, its port's state or library text (the relay
 * is the operator's; the owner may be any tenant). The full error goes to the operator's log.
 */
export const relayFailure = (error: unknown): string => {
  const { code, responseCode } = (typeof error === "object" && error !== null ? error : {}) as {
    readonly code?: unknown
    readonly responseCode?: unknown
  }
  if (code === "EAUTH") return "the SMTP relay refused the service's credentials"
  // RFC 5321 §4.2: a reply code says what the relay decided, not where it is
  if (typeof responseCode === "number" && responseCode >= 400 && responseCode <= 599)
    return `the SMTP relay refused the message (reply ${responseCode})`
  if (code === "ETIMEDOUT") return "the SMTP relay did not answer in time"
  if (code === "ETLS") return "the TLS handshake with the SMTP relay failed"
  if (code === "ECONNECTION" || code === "ESOCKET" || code === "EDNS")
    return "the SMTP relay could not be reached"
  return "the SMTP relay could not take the message"
}

export interface OutgoingMail {
  readonly to: string
  readonly subject: string
  readonly text: string
  /** Headers such as a stable `Message-ID` (so a retried alert is recognisably the same message). */
  readonly headers?: Readonly<Record<string, string>>
}

export class Mailer extends Effect.Service<Mailer>()("Mailer", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const url = Redacted.value(config.alertSmtpUrl).trim()
    const transport =
      url === ""
        ? undefined
        : createTransport({
            url,
            connectionTimeout: config.smtpConnectTimeoutMs,
            greetingTimeout: config.smtpBannerTimeoutMs,
            socketTimeout: config.smtpCommandTimeoutMs * 6
          } as Parameters<typeof createTransport>[0])
    /** Hand one message to the relay; fails with what the owner may read of why (`relayFailure`). */
    const send = (mail: OutgoingMail) =>
      transport === undefined
        ? Effect.fail(new MailError({ message: "no SMTP relay is configured (ALERT_SMTP_URL)" }))
        : Effect.tryPromise({
            try: () =>
              transport.sendMail({
                from: config.alertMailFrom,
                to: mail.to,
                subject: mail.subject,
                text: mail.text,
                headers: { ...mail.headers }
              }),
            catch: (e) => ({ said: relayFailure(e), full: e instanceof Error ? e.message : String(e) })
          }).pipe(
            Effect.asVoid,
            Effect.tapError(({ full }) =>
              Effect.logWarning("alert e-mail not handed over").pipe(Effect.annotateLogs({ error: full }))
            ),
            Effect.mapError(({ said }) => new MailError({ message: said }))
          )
    return { send, configured: transport !== undefined } as const
  })
}) {}
