/**
 * The real app on a random local port, with settings from `env` and a fresh temp data dir,
 * for tests that talk HTTP to it through the provided HttpClient.
 *
 * Every outbound setting defaults to a closed port on loopback: a test reaches the network only
 * where it says so (the world's env, or a fake server), never the machine's or the public resolvers.
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { HttpClient, HttpClientRequest, HttpServer } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import * as DnsPacket from "dns-packet"
import { Clock, ConfigProvider, Effect, Layer, Logger } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { AppLive, nodeServerLayer } from "../../src/Layers.ts"
import { fakeDnsServer, reply } from "../net/FakeDnsServer.ts"

/** Port 9 (discard) on loopback: nothing listens, so every query fails at once. */
export const NOWHERE = {
  DNS_RESOLVERS: "127.0.0.1:9",
  PROPAGATION_RESOLVERS: "127.0.0.1:9|Nowhere|Test|ZZ",
  SMTP_PORT: "9",
  ALLOW_TARGETS: ""
}

/** NodeHttpServer.layerTest, but with the service's own node server (its limits and parser errors). */
const testServer = HttpServer.layerTestClient.pipe(
  Layer.provide(NodeHttpClient.layerWithoutAgent),
  Layer.provide(NodeHttpClient.makeAgentLayer({ keepAlive: false })),
  Layer.provideMerge(nodeServerLayer({ host: "127.0.0.1", port: 0 }))
)

/**
 * Tests call from one address in quick succession on shared machines: the per-client buckets and
 * the CPU shedding limit are opened wide unless a test sets them (the admission tests do).
 */
export const UNLIMITED = {
  RATE_COSTLY_BURST: "1000000",
  RATE_CHEAP_BURST: "1000000",
  // tests that fill the gate on purpose test the gate, not the CPU meter
  ADMISSION_MAX_CPU_PERCENT: "100000"
}

/**
 * Report fixtures carry fixed dates (test/inbound/reports.ts); reports older than REPORTS_RETENTION
 * are refused, so the tests' service keeps them a century unless a test sets it (ReportsKept does).
 */
const TIMELESS = { REPORTS_RETENTION: "P36500D" }

/**
 * The tests scan world domains nobody owns (no monitor, no verified claim) and read their history,
 * so the tests' service keeps every scan's unless a test sets HISTORY (the default keeps owned ones).
 */
const EVERY_HISTORY = { HISTORY: "all" }

/**
 * The service runs on the machine's clock, as it does in production. A test's `it.effect` gives its
 * own fiber a TestClock that moves only when the test moves it: an app built from that fiber would
 * inherit it, so the cluster's loops, which sleep between passes, would never run a second pass
 * (a shard not taken in the first was never taken, and the first run of a monitor waited forever
 * for it) and every timeout and budget inside the service would never fire.
 */
const LIVE_CLOCK = Layer.setClock(Clock.make())

export const testApp = (
  env: Record<string, string> = {},
  dataDir = mkdtempSync(join(tmpdir(), "domain-audit-test-"))
) => {
  const config = Layer.setConfigProvider(
    ConfigProvider.fromMap(
      new Map(
        Object.entries({
          ...NOWHERE,
          ...UNLIMITED,
          ...TIMELESS,
          ...EVERY_HISTORY,
          DATA_DIR: dataDir,
          LOG_LEVEL: "Error",
          ...env
        })
      )
    )
  )
  // the level applies to building the layers too, as `serve` applies it (a test says nothing at Info)
  const logLevel = Layer.unwrapEffect(Effect.map(AppConfig, (c) => Logger.minimumLogLevel(c.logLevel)))
  return AppLive.pipe(
    Layer.provideMerge(testServer),
    Layer.provide(logLevel),
    Layer.provide(AppConfig.Default),
    Layer.provide(config),
    Layer.provide(LIVE_CLOCK)
  )
}

/**
 * One request to the app under test. A string body is sent as is (to test malformed JSON), anything
 * else as JSON. `json` is the parsed body, or undefined when it is not JSON.
 */
export const call = (
  method: "GET" | "POST" | "PUT" | "DELETE",
  url: string,
  body?: unknown,
  headers: Record<string, string> = {}
) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method)(url).pipe(HttpClientRequest.setHeaders(headers))
    if (body !== undefined)
      request = HttpClientRequest.bodyText(
        request,
        typeof body === "string" ? body : JSON.stringify(body),
        "application/json"
      )
    const response = yield* client.execute(request)
    const text = yield* response.text
    let json: any
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return {
      status: response.status,
      headers: response.headers,
      type: response.headers["content-type"] ?? "",
      text,
      json
    }
  }).pipe(Effect.scoped)

/**
 * Run `effect` against the app with DNS answered by a fake server on loopback that knows only the
 * TXT records of `txt` (by lower-case name); every other question is NXDOMAIN.
 */
export const withTxtDns = <A, E>(
  txt: Readonly<Record<string, ReadonlyArray<string>>>,
  effect: Effect.Effect<A, E, HttpClient.HttpClient>
) =>
  Effect.gen(function* () {
    const server = yield* fakeDnsServer((q) => {
      const question = q.questions![0]!
      const records = question.type === "TXT" ? txt[question.name.toLowerCase()] : undefined
      if (records === undefined) return reply(q, [], { rcode: "NXDOMAIN" } as object)
      return reply(
        q,
        records.map(
          // character-strings are at most 255 octets (RFC 1035 3.3.14): long values are split
          (text) =>
            ({
              type: "TXT",
              name: question.name,
              ttl: 60,
              class: "IN",
              data: text.match(/.{1,255}/g) ?? [""]
            }) as DnsPacket.Answer
        )
      )
    })
    return yield* effect.pipe(Effect.provide(testApp({ DNS_RESOLVERS: `127.0.0.1:${server.port}` })))
  })
