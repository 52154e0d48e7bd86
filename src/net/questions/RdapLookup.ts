/**
 * The RDAP question: what the registry says of a registrable domain (RFC 9082 queries, RFC 9083
 * answers), through the Rdap service, which keeps answers across scans (its transport cache).
 * Without an RDAP source (no `RDAP_BOOTSTRAP`, or a unit test's context) the answer is `off`.
 */
import { Effect, Option } from "effect"
import { Rdap, type RdapAnswer } from "../Rdap.ts"
import { Question } from "../Question.ts"

const OFF: RdapAnswer = { outcome: "off" }

export const RdapLookup = Question.define({
  name: "rdap",
  /** A registrable domain; names compare without case (RFC 4343). */
  key: (domain: string) => domain.toLowerCase(),
  run: (domain: string) =>
    Effect.flatMap(Effect.serviceOption(Rdap), (rdap) =>
      Option.isSome(rdap) ? rdap.value.lookup(domain) : Effect.succeed(OFF)
    )
})
