/**
 * The Validated ROA Payloads of the configured source (`RPKI_VRPS`, RpkiVrps.ts), read once per
 * scan (RFC 6811 origin validation is the RPKI check's). Without a source service (a unit test's
 * context) validation is off.
 */
import { Effect, Option } from "effect"
import { Question } from "../Question.ts"
import { RpkiVrps, type VrpLoad } from "../RpkiVrps.ts"

const OFF: VrpLoad = { status: "off" }

export const Vrps = Question.define({
  name: "vrps",
  key: (_: void) => "",
  run: (_: void) =>
    Effect.flatMap(Effect.serviceOption(RpkiVrps), (source) =>
      Option.isSome(source) ? source.value.current : Effect.succeed(OFF)
    )
})
