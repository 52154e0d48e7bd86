/**
 * Post-quantum key exchange against the world's servers: pq-hybrid.com's web server and MTA (Node.js
 * 24, OpenSSL 3.5: scripts/world/pq.mjs) take X25519MLKEM768; perfect.com's nginx and Postfix
 * (Debian's OpenSSL 3.0) ask for X25519 with a HelloRetryRequest; spf-void.com has neither a web
 * site nor a mail server. Addresses come from the running world, never from this file.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { PqKex } from "../../src/checks/pq-kex/PqKex.ts"
import { rules } from "../../src/checks/pq-kex/Rules.ts"
import { runCheck } from "../../src/scan/Scanner.ts"
import { worldEnv } from "./env.ts"
import { ScanWorld } from "./scanWorld.ts"
import { domain as toDomain } from "../support/domain.ts"

const check = (domain: string) => runCheck(PqKex, toDomain(domain)).pipe(Effect.provide(ScanWorld))

/** Whether the running world was built with the scenario (a world started before it was added lacks it). */
const inWorld = (domain: string): boolean =>
  process.env.WORLD_SKIP !== "1" &&
  JSON.parse(readFileSync(worldEnv().WORLD_MANIFEST!, "utf8")).scenarios.some(
    (s: { domain: string }) => s.domain === domain
  )

const hybridWorld = inWorld("pq-hybrid.com")
if (!hybridWorld)
  console.warn("pqKex.test: the running world predates pq-hybrid.com (restart it: scripts/world/up)")

describe("post-quantum key exchange in the world", () => {
  it.live.skipIf(!hybridWorld)("pq-hybrid.com: its web server and MTA take X25519MLKEM768", () =>
    Effect.gen(function* () {
      const r = yield* check("pq-hybrid.com")
      expect(r.web.status).toBe("hybrid")
      expect(r.mail.status).toBe("hybrid")
      expect(r.servers.map((s) => s.service).sort()).toEqual(["mail", "web", "web"])
      for (const s of r.servers)
        expect(s).toMatchObject({ verdict: "hybrid", group: "X25519MLKEM768", helloRetry: false })
    })
  )

  it.live("perfect.com: nginx and Postfix on OpenSSL 3.0 ask for X25519 instead", () =>
    Effect.gen(function* () {
      const r = yield* check("perfect.com")
      expect(r.web.status).toBe("classical")
      expect(r.mail.status).toBe("classical")
      expect(r.servers.filter((s) => s.service === "mail").length).toBeGreaterThan(0)
      for (const s of r.servers)
        expect(s).toMatchObject({ verdict: "classical", group: "x25519", helloRetry: true })
    })
  )

  it.live("spf-void.com: no web site and no mail server, so not applicable", () =>
    Effect.gen(function* () {
      const r = yield* check("spf-void.com")
      expect([r.web.status, r.mail.status]).toEqual(["not-applicable", "not-applicable"])
      expect(r.servers).toEqual([])
    })
  )

  it.live("the rules show it for no points: classical alone is not held against the domain", () =>
    Effect.gen(function* () {
      const result = yield* check("perfect.com")
      const [web, mail] = rules.judge({ checks: { "pq-kex": { status: "done", reason: null, result } } })
      expect(web!.verdict.status).toBe("not-applicable")
      expect(web!.verdict.detail).toMatch(/classical only/)
      expect(mail!.spec).toMatchObject({ maxPoints: 0, level: "info" })
    })
  )
})
