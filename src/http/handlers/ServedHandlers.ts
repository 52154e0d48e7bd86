/**
 * The one handler of every endpoint a check declares (api/ServedChecks.ts): it runs that check
 * alone (composite/SingleChecks.ts) and answers its result.
 */
import type { HttpApiBuilder } from "@effect/platform"
import { type ServedEndpoint, type ServedGroup, servedIn, ServedName } from "../../api/ServedChecks.ts"
import { checkAlone } from "../../composite/SingleChecks.ts"
import type { ScanContext } from "../../scan/FactsLive.ts"

/**
 * A group's handlers, its hand-declared endpoints handled, with every endpoint the checks of
 * `group` declare handled too.
 */
export const handleServed = <E, Provides, R>(
  group: ServedGroup,
  handlers: HttpApiBuilder.Handlers<E, Provides, R, ServedEndpoint>
): HttpApiBuilder.Handlers<E, Provides, R | ScanContext, never> => {
  let open: HttpApiBuilder.Handlers<E, Provides, R | ScanContext, ServedEndpoint> = handlers
  let done: HttpApiBuilder.Handlers<E, Provides, R | ScanContext, never> | undefined
  for (const check of servedIn(group)) {
    done = open.handle(ServedName(check.served.name), ({ urlParams }) => checkAlone(check, urlParams.domain))
    open = done
  }
  if (done === undefined) throw new Error(`no check of the registry is served in the ${group} group`)
  return done
}
