/**
 * Who may manage monitors (api/Monitoring.ts `MonitorsAccess`; docs/access.md): the machine itself
 * (LocalAdmin.ts), or anyone with `MONITORS_TOKEN` as a bearer token (compared in constant time,
 * RFC 6750 §2.1). Anyone else is refused, so a fresh deployment is not an open relay that anyone can
 * make scan and mail on a schedule.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { Effect, Layer, Redacted } from "effect"
import { Forbidden, Unauthorized } from "../../api/Errors.ts"
import { MonitorsAccess } from "../../api/Monitoring.ts"
import { AppConfig } from "../../Config.ts"
import { localAdmin } from "./LocalAdmin.ts"

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest()

export const MonitorsAccessLive = Layer.effect(
  MonitorsAccess,
  Effect.gen(function* () {
    const config = yield* AppConfig
    const token = Redacted.value(config.monitorsToken)
    const expected = digest(token)
    return {
      bearer: (sent) =>
        Effect.gen(function* () {
          if (yield* Effect.provideService(localAdmin, AppConfig, config)) return
          if (token !== "") {
            if (timingSafeEqual(digest(Redacted.value(sent)), expected)) return
            return yield* Effect.fail(
              new Unauthorized({ error: "monitors need Authorization: Bearer with the MONITORS_TOKEN" })
            )
          }
          return yield* Effect.fail(
            new Forbidden({
              error:
                "monitors are managed only from this machine (by a name it answers to: localhost, its address or ALLOWED_HOSTS) unless the service sets MONITORS_TOKEN"
            })
          )
        })
    }
  })
)
