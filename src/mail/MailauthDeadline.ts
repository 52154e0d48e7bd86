/**
 * mailauth over the service's Resolver (net/MailauthResolver.ts), under a deadline: past
 * CHECK_TIMEOUT_MS, or once the caller is interrupted, every look-up fails at once and mailauth
 * finishes with temperrors instead of waiting. A pasted message (Authenticate.ts) and a mailed
 * report (inbound/MailAuthenticity.ts) are authenticated this way.
 */
import { Effect } from "effect"
import { AppConfig } from "../Config.ts"
import { mailauthResolver, type MailauthResolver } from "../net/MailauthResolver.ts"
import { Resolver } from "../net/Resolver.ts"

/** `run` with a deadline-bound resolver; fails with the class name of what it threw, never its text (it may quote the message). */
export const withMailauthDeadline = <A>(run: (lookups: MailauthResolver) => Promise<A>) =>
  Effect.gen(function* () {
    const resolver = yield* Resolver
    const { checkTimeoutMs } = yield* AppConfig
    return yield* Effect.tryPromise({
      try: (interrupted) => {
        const deadline = new AbortController()
        const timer = setTimeout(() => deadline.abort(), Math.max(1, checkTimeoutMs))
        interrupted.addEventListener("abort", () => deadline.abort(), { once: true })
        const lookups = mailauthResolver((name, type) => resolver.query(name, type), deadline.signal)
        return run(lookups).finally(() => clearTimeout(timer))
      },
      catch: (cause) => (cause instanceof Error ? cause.name : "unknown failure")
    })
  })
