/**
 * A network question: one kind of thing a check may ask the world (a probe of a server, a direct
 * DNS question, a registry look-up), declared once and asked through the scan's Facts door
 * (`facts.ask(question, args)`, kernel/Facts.ts), which memoises it per scan like every other
 * question: asked twice with the same key it runs once, and its failure is kept for the scan.
 *
 * A question is declared in net/ (network only in net/, DESIGN.md principle 3), or beside a check
 * when it only composes what Facts already asks (its `run` then reads Facts, which the scan also
 * provides). Adding one touches neither kernel/ nor scan/: the
 * live Facts (scan/FactsLive.ts) provide every question the services of the scan once, generically:
 * the Resolver, the Web client, the Smtp client, the settings (AppConfig), the scan's own address
 * look-up (`ScanLookup`), and the optional services where the scan has them (NameServers, Rdap,
 * RpkiVrps), which a question reads with `Effect.serviceOption` and answers without.
 */
import { Context, type Effect } from "effect"
import type { AddressLookup } from "./WebTypes.ts"

export interface Question<Args, A, E = never, R = never> {
  /** Names the question's span (`Question.<name>`) and, in logs, what was asked. */
  readonly name: string
  /**
   * What tells one question of this kind from another: asked with equal keys, it runs once per
   * scan. Everything that changes the answer belongs in it, nothing else (a budget does not).
   */
  readonly key: (args: Args) => string
  /** Asks it, over the services the scan provides (above). */
  readonly run: (args: Args) => Effect.Effect<A, E, R>
}

export const Question = {
  /** Declare each question once, at module level: the scan's memo is kept per question object. */
  define: <Args, A, E = never, R = never>(question: Question<Args, A, E, R>): Question<Args, A, E, R> =>
    question
}

/**
 * The scan's own address look-up (A and AAAA of a host, memoised for the scan): a question that
 * connects to a host by name resolves it through this, so the scan asks each name once.
 */
export class ScanLookup extends Context.Tag("ScanLookup")<ScanLookup, AddressLookup>() {}
