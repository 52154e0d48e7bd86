/** A TXT source for unit tests: names map to records, "servfail"/"timeout" fail like the Resolver. */
import { Effect } from "effect"
import { DnsError } from "../../src/net/DnsTypes.ts"
import type { TxtSource } from "../../src/kernel/TxtOutcome.ts"

export const fakeTxt = (zone: Record<string, ReadonlyArray<string> | "servfail" | "timeout">) => {
  const asked: Array<string> = []
  const source: TxtSource = {
    txt: (name) =>
      Effect.suspend(() => {
        asked.push(name)
        const entry = zone[name.toLowerCase()]
        if (entry === "servfail" || entry === "timeout")
          return Effect.fail(
            new DnsError({ name, type: "TXT", reason: entry, message: `${entry} for ${name}` })
          )
        return Effect.succeed(entry ?? [])
      })
  }
  return { source, asked }
}
