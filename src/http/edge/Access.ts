/**
 * Who may manage monitors (api/Monitoring.ts `MonitorsAccess`). With `MONITORS_TOKEN` set, the
 * request's bearer token must match it (compared in constant time, RFC 6750 §2.1); without one,
 * the monitors API answers only clients on this machine, so a fresh deployment is not an open
 * relay that anyone can make scan and mail on a schedule.
 */
import { createHash, timingSafeEqual } from "node:crypto"
import { Effect, Layer, Redacted } from "effect"
import { Forbidden, Unauthorized } from "../../api/Errors.ts"
import { MonitorsAccess } from "../../api/Monitoring.ts"
import { AppConfig } from "../../Config.ts"
import { contains, parseCidr, parseIp } from "../../records/IpAddress.ts"
import { clientAddress } from "../edge/ClientAddress.ts"

const LOOPBACK = ["127.0.0.0/8", "::1/128", "::ffff:127.0.0.0/104"].map((c) => parseCidr(c)!)

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
          if (token !== "") {
            if (timingSafeEqual(digest(Redacted.value(sent)), expected)) return
            return yield* Effect.fail(
              new Unauthorized({ error: "monitors need Authorization: Bearer with the MONITORS_TOKEN" })
            )
          }
          const client = parseIp(yield* Effect.provideService(clientAddress, AppConfig, config))
          if (client !== undefined && LOOPBACK.some((cidr) => contains(cidr, client))) return
          return yield* Effect.fail(
            new Forbidden({
              error: "monitors are managed only from this machine unless the service sets MONITORS_TOKEN"
            })
          )
        })
    }
  })
)
