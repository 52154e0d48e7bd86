/**
 * The direct DNS question: one question straight to one name server's address (port 53), past the
 * resolver and every cache: what that server itself answers (RFC 1035 4.1.1; RFC 7766 over TCP),
 * for the name-server check. Without the NameServers service (a unit test's context) every such
 * question is unknown, never a negative answer.
 */
import { Effect, Option } from "effect"
import { normaliseName } from "../../records/DomainName.ts"
import { DnsError } from "../DnsTypes.ts"
import { type DirectQuestion, NameServers } from "../NameServers.ts"
import { Question } from "../Question.ts"

export interface DirectDnsArgs {
  /** The name server's address. */
  readonly address: string
  readonly question: DirectQuestion
}

export const DirectDns = Question.define({
  name: "directDns",
  key: ({ address, question: q }: DirectDnsArgs) =>
    `${address}\u0000${normaliseName(q.name)}\u0000${q.type}\u0000${q.recursionDesired}\u0000${q.transport}`,
  run: ({ address, question: q }: DirectDnsArgs) =>
    Effect.flatMap(Effect.serviceOption(NameServers), (direct) =>
      Option.isSome(direct)
        ? direct.value.ask(address, q)
        : Effect.fail(
            new DnsError({ name: q.name, type: q.type, reason: "other", message: "no direct DNS here" })
          )
    )
})
