/** A tiny in-memory SpfDns for unit tests: keys "name TYPE", values rdata lists or "SERVFAIL". */
import { Effect } from "effect"
import { DnsError } from "../../src/net/DnsTypes.ts"
import type { SpfDns } from "../../src/checks/spf/SpfGraph.ts"

export type Zone = Record<string, ReadonlyArray<string> | "SERVFAIL">

export const fakeDns = (zone: Zone) => {
  const asked: Array<string> = []
  const get = (name: string, type: string) =>
    Effect.suspend(() => {
      const key = `${name.toLowerCase().replace(/\.$/, "")} ${type}`
      asked.push(key)
      const v = zone[key]
      if (v === "SERVFAIL")
        return Effect.fail(
          new DnsError({ name, type, reason: "servfail", message: `${name} ${type}: SERVFAIL` })
        )
      return Effect.succeed(v ?? [])
    })
  const dns: SpfDns = {
    txt: (name) => get(name, "TXT"),
    addresses: (host) =>
      Effect.all([get(host, "A"), get(host, "AAAA")]).pipe(Effect.map(([v4, v6]) => ({ v4, v6 }))),
    mx: (domain) =>
      get(domain, "MX").pipe(
        Effect.map((rs) =>
          rs.map((r) => {
            const [p, h] = r.split(" ")
            return { priority: Number(p), exchange: h === "." ? "" : (h ?? "").replace(/\.$/, "") }
          })
        )
      )
  }
  return { dns, asked }
}
