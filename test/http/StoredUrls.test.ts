/**
 * A snapshot is immutable, so its URLs must not come from the request: created with any forged
 * `Host` and no PUBLIC_BASE_URL, it carries relative URLs (and its Location and Link headers too).
 * Answers that are not stored echo a Host only when ALLOWED_HOSTS names it.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { FORGED_HOSTS } from "./forgedHosts.ts"
import { call, testApp } from "./harness.ts"

/** The hosts of every absolute http(s) URL in `text`, lower-cased. */
const urlHosts = (text: string) =>
  [...text.matchAll(/https?:\/\/([^/"'\s<>)\\]+)/gi)].map((m) => m[1]!.toLowerCase())

/** The name (or address) of a Host value, without port, brackets or trailing dot. */
const nameOf = (host: string) =>
  host
    .toLowerCase()
    .replace(/^\[(.*)\](:\d+)?$/, "$1")
    .replace(/:\d+$/, "")
    .replace(/\.$/, "")

const carries = (text: string, host: string) =>
  urlHosts(text).some((h) => h === host.toLowerCase() || nameOf(h) === nameOf(host))

describe("stored URLs", () => {
  layer(
    testApp({ SCAN_DEADLINE_MS: "1000", SNAPSHOT_RATE_BURST: "1000", ALLOWED_HOSTS: "audit.example.net" }),
    { timeout: 120_000, excludeTestServices: true }
  )((it) => {
    it.effect(
      "a snapshot created with a forged Host carries no URL with it, in body or headers",
      () =>
        Effect.gen(function* () {
          for (const [i, host] of FORGED_HOSTS.entries()) {
            const created = yield* call("POST", `/api/report/snapshot?domain=forged${i}.com`, undefined, {
              host
            })
            expect([host, created.status]).toEqual([host, 201])
            expect([host, carries(created.text, host)]).toEqual([host, false])
            expect(created.headers["location"]).toBe(
              `/api/report/snapshot/${created.json.evidence.snapshotId}`
            )
            expect(created.json.reportUrl).toBe(`/api/report/everything?domain=forged${i}.com`)
            const stored = yield* call(
              "GET",
              `/api/report/snapshot/${created.json.evidence.snapshotId}?format=markdown`
            )
            expect([host, carries(stored.text, host)]).toEqual([host, false])
            const legacy = yield* call("GET", `/api/report/snapshot?domain=forged${i}.com`, undefined, {
              host
            })
            expect(legacy.status).toBe(201)
            expect(legacy.headers["link"]).toMatch(
              /^<\/api\/report\/snapshot\?domain=forged\d+\.com>; rel="successor-version"/
            )
            expect([
              host,
              carries(legacy.text, host),
              carries(legacy.headers["location"] ?? "", host)
            ]).toEqual([host, false, false])
          }
        }),
      120_000
    )

    it.effect("a live answer echoes only an allowed Host, and otherwise names the listener", () =>
      Effect.gen(function* () {
        for (const host of FORGED_HOSTS) {
          const live = yield* call("GET", "/api/report/everything?domain=perfect.com", undefined, { host })
          expect([host, live.status, carries(live.text, host)]).toEqual([host, 200, false])
          expect(live.json.reportUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/report\/everything\?/)
        }
        const allowed = yield* call("GET", "/api/report/everything?domain=perfect.com", undefined, {
          host: "Audit.Example.Net:8443"
        })
        expect(allowed.json.reportUrl).toBe(
          "http://audit.example.net:8443/api/report/everything?domain=perfect.com"
        )
      })
    )
  })
})
