/**
 * What a monitor's owner reads of an alert e-mail the relay did not take: generic words and the SMTP
 * reply code, never the operator's relay address, its port's state or library text (docs/errors.md).
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { Mailer, relayFailure } from "../../src/net/Mailer.ts"

describe("an alert e-mail the relay did not take", () => {
  it("is told in generic words, with the relay's reply code when it gave one", () => {
    const nodemailer = (message: string, fields: Record<string, unknown>) =>
      Object.assign(new Error(message), fields)
    expect(
      [
        nodemailer("connect ECONNREFUSED 10.20.30.40:2525", { code: "ESOCKET" }),
        nodemailer("Connection timeout", { code: "ETIMEDOUT" }),
        nodemailer("Invalid login: 535 5.7.8 bad credentials for ops@relay.internal", {
          code: "EAUTH",
          responseCode: 535
        }),
        nodemailer("Message failed: 550 5.1.1 <x@relay.internal>: unknown", {
          code: "EMESSAGE",
          responseCode: 550
        }),
        nodemailer("unable to verify the first certificate", { code: "ETLS" }),
        "a string thrown by something"
      ].map(relayFailure)
    ).toEqual([
      "the SMTP relay could not be reached",
      "the SMTP relay did not answer in time",
      "the SMTP relay refused the service's credentials",
      "the SMTP relay refused the message (reply 550)",
      "the TLS handshake with the SMTP relay failed",
      "the SMTP relay could not take the message"
    ])
  })

  it.effect("through a relay that refuses connections, says so without its address or port", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        (yield* Mailer).send({ to: "owner@example.com", subject: "s", text: "t" })
      )
      expect(error.message).toBe("the SMTP relay could not be reached")
    }).pipe(
      Effect.provide(
        Mailer.Default.pipe(
          Layer.provide(AppConfig.Default),
          Layer.provide(
            Layer.setConfigProvider(
              ConfigProvider.fromMap(
                new Map([
                  ["ALERT_SMTP_URL", "smtp://127.0.0.1:9"],
                  ["LOG_LEVEL", "Error"]
                ])
              )
            )
          )
        )
      )
    )
  )
})
