/**
 * Handlers of the dns group: lookup, DNSSEC, propagation, TLSA and the TLSA generator.
 * A question the resolver could not answer at all is a 500 ("upstream resolver problem", SPEC
 * Errors), never an empty result; partial failures stay inside the result as `unknown`.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Clock, Effect, Either } from "effect"
import { Api } from "../Api.ts"
import { BadRequest, InternalError } from "../api/Errors.ts"
import * as Dnssec from "../checks/dnssec/Dnssec.ts"
import * as Lookup from "../checks/dns/Lookup.ts"
import * as Propagation from "../checks/dns/Propagation.ts"
import * as TlsaGenerator from "../generate/Tlsa.ts"
import * as MailTransport from "../scan/MailTransport.ts"

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

const upstreamProblem = (what: string, errors: ReadonlyArray<string>) =>
  new InternalError({
    error: `upstream resolver problem: ${what} (${errors[0] ?? "no answer"}); retry after a few seconds`
  })

export const DnsHandlers = HttpApiBuilder.group(Api, "dns", (handlers) =>
  handlers
    .handle("lookup", ({ urlParams }) =>
      Effect.gen(function* () {
        const types = Lookup.parseTypes(urlParams.type, urlParams.types)
        if (Either.isLeft(types)) return yield* new BadRequest({ error: types.left })
        const result = Lookup.analyse(yield* Lookup.gather(urlParams.domain, types.right))
        if (!result.success)
          return yield* upstreamProblem(
            `no lookup for ${result.domain} succeeded`,
            result.errors.map((e) => `${e.type}: ${e.message}`)
          )
        return result
      })
    )
    .handle("dnssec", ({ urlParams }) =>
      Effect.gen(function* () {
        const result = Dnssec.analyse(yield* Dnssec.gather(urlParams.domain), yield* now)
        if (result.status === "unknown")
          return yield* upstreamProblem(
            `DNSSEC state of ${result.domain} could not be determined`,
            result.errors
          )
        return result
      })
    )
    .handle("propagation", ({ urlParams }) =>
      Effect.gen(function* () {
        const facts = yield* Propagation.gather(urlParams.domain, urlParams.type ?? "A")
        return Propagation.analyse(facts, yield* now)
      })
    )
    .handle("tlsa", ({ urlParams }) => MailTransport.tlsa(urlParams.domain))
    .handle("tlsaGenerate", ({ payload }) =>
      Either.match(TlsaGenerator.generate(payload), {
        onLeft: (e) => Effect.fail(new BadRequest({ error: e.message })),
        onRight: (record) => Effect.succeed(record)
      })
    )
)
