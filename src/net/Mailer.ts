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
    /** Hand one message to the relay; fails with the relay's (or the network's) reason. */
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
            catch: (e) => new MailError({ message: e instanceof Error ? e.message : String(e) })
          }).pipe(Effect.asVoid)
    return { send, configured: transport !== undefined } as const
  })
}) {}
