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
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { ConfigProvider, Effect, Layer } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { AppLive } from "../../src/http/Server.ts"

/** Port 9 (discard) on loopback: nothing listens, so every query fails at once. */
export const NOWHERE = {
  DNS_RESOLVERS: "127.0.0.1:9",
  PROPAGATION_RESOLVERS: "127.0.0.1:9|Nowhere|Test|ZZ",
  SMTP_PORT: "9",
  ALLOW_TARGETS: ""
}

export const testApp = (
  env: Record<string, string> = {},
  dataDir = mkdtempSync(join(tmpdir(), "domain-audit-test-"))
) => {
  const config = Layer.setConfigProvider(
    ConfigProvider.fromMap(
      new Map(Object.entries({ ...NOWHERE, DATA_DIR: dataDir, LOG_LEVEL: "Error", ...env }))
    )
  )
  return AppLive.pipe(
    Layer.provideMerge(NodeHttpServer.layerTest),
    Layer.provide(AppConfig.Default),
    Layer.provide(config)
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
