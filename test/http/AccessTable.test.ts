/**
 * docs/access.md's table "Every caller, checked" is what the service does: each request in it is
 * sent as each caller and answered with the status the table gives. The test reads the table, so
 * the two cannot drift apart. Callers: anonymous (a client whose Host is not this machine's, as a
 * page that reached loopback by DNS rebinding is), two tenants' keys with every scope but admin
 * (tenant A has verified the customer domain and watches it with a monitor), an admin key, and the
 * machine itself (loopback, Host localhost, no key). One app for the file; DNS answers only the
 * challenge, from a fake server.
 */
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as DnsPacket from "dns-packet"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { ConfigProvider, Effect, Layer } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { ApiKeys, ApiKeysCommandLive } from "../../src/monitor/access/ApiKeys.ts"
import type { Scope } from "../../src/monitor/access/ApiKey.ts"
import { dmarcXml } from "../inbound/reports.ts"
import { fakeDnsServer, reply } from "../net/FakeDnsServer.ts"
import { call, testApp } from "./harness.ts"

const DOMAIN = "a-customer.com"
const CALLERS = ["anonymous", "tenant A", "tenant B", "operator", "this machine"] as const
type Caller = (typeof CALLERS)[number]

/** The rows of the table under `heading` in docs/access.md: the request, then a status per caller. */
const tableRows = (heading: string) => {
  const text = readFileSync(new URL("../../docs/access.md", import.meta.url), "utf8")
  const start = text.indexOf(`\n## ${heading}\n`)
  expect(start, `docs/access.md has a section "${heading}"`).toBeGreaterThan(0)
  const section = text.slice(start + 1).split("\n## ")[0]!
  const lines = section.split("\n").filter((l) => l.startsWith("|"))
  const header = lines[0]!
    .split("|")
    .slice(2, -1)
    .map((c) => c.trim())
  expect(header).toEqual([...CALLERS])
  return lines.slice(2).map((line) => {
    const cells = line
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim())
    const request = /^`(GET|POST|PUT|DELETE) ([^`]+)`/.exec(cells[0]!)
    if (request === null) throw new Error(`not a request: ${cells[0]}`)
    return {
      method: request[1] as "GET" | "POST" | "PUT" | "DELETE",
      path: request[2]!,
      body: /with (.+)$/.exec(cells[0]!)?.[1],
      statuses: Object.fromEntries(CALLERS.map((c, i) => [c, Number(cells[i + 1])])) as Record<Caller, number>
    }
  })
}

const keysAt = (dataDir: string) =>
  ApiKeysCommandLive.pipe(
    Layer.provide(AppConfig.Default),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["DATA_DIR", dataDir]]))))
  )

const TENANT_SCOPES: ReadonlyArray<Scope> = ["monitors", "reports:read", "reports:write", "history"]

/** The bodies the table names ("with ..."): JSON, or a text with its media type. */
const BODIES: Record<string, unknown> = {
  "a monitor of the domain": { domain: DOMAIN, every: "PT1H", alerts: [] },
  "public: true": { public: true },
  "an empty XML body": { text: "", type: "application/xml" },
  "an empty TLS report body": { text: "", type: "application/tlsrpt+json" },
  "an empty message": { text: "", type: "message/rfc822" },
  // yesterday's, so that it is within REPORTS_RETENTION whenever the test runs
  "a report of the domain": {
    text: dmarcXml({
      domain: DOMAIN,
      reportId: "access-table",
      begin: Math.floor(Date.now() / 86_400_000) * 86_400 - 86_400,
      end: Math.floor(Date.now() / 86_400_000) * 86_400 - 1,
      rows: [{ ip: "192.0.2.1", count: 1 }]
    }),
    type: "application/xml"
  }
}

/** `call`, with a text body sent under its own media type. */
const send = (
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  body: unknown,
  headers: Record<string, string>
) => {
  const typed = body as { text?: string; type?: string } | undefined
  return typed?.type === undefined
    ? call(method, path, body, headers)
    : Effect.scoped(
        Effect.flatMap(HttpClient.HttpClient, (client) =>
          client.execute(
            HttpClientRequest.make(method)(path).pipe(
              HttpClientRequest.setHeaders(headers),
              HttpClientRequest.bodyText(typed.text ?? "", typed.type)
            )
          )
        ).pipe(
          Effect.flatMap((response) =>
            Effect.map(
              Effect.orElseSucceed(response.json, () => undefined),
              (json) => ({
                status: response.status,
                json: json as { error?: string } | undefined
              })
            )
          )
        )
      )
}

describe("docs/access.md's table", () => {
  it.live(
    "is what every caller gets from every request in it",
    () =>
      Effect.gen(function* () {
        const dataDir = mkdtempSync(join(tmpdir(), "domain-audit-access-table-"))
        const keys = yield* Effect.gen(function* () {
          const service = yield* ApiKeys
          const make = (tenant: string, scopes: ReadonlyArray<Scope>) =>
            Effect.map(service.create({ tenant, scopes, validForMs: null }), (k) => k.key)
          return {
            a: yield* make("a", TENANT_SCOPES),
            b: yield* make("b", TENANT_SCOPES),
            op: yield* make("ops", ["admin"])
          }
        }).pipe(Effect.provide(keysAt(dataDir)))
        const headers: Record<Caller, Record<string, string>> = {
          anonymous: { Host: "rebind.evil.example:18080", Origin: "http://rebind.evil.example:18080" },
          "tenant A": { Authorization: `Bearer ${keys.a}` },
          "tenant B": { Authorization: `Bearer ${keys.b}` },
          operator: { Authorization: `Bearer ${keys.op}` },
          "this machine": { Host: "localhost" }
        }

        // the challenge, as tenant A publishes it once it has claimed the domain
        let challenge: ReadonlyArray<string> = []
        const server = yield* fakeDnsServer((q) => {
          const question = q.questions![0]!
          if (question.name.toLowerCase() === DOMAIN) return reply(q, [])
          if (question.name.toLowerCase() !== `_domain-audit-challenge.${DOMAIN}` || question.type !== "TXT")
            return reply(q, [], { rcode: "NXDOMAIN" } as object)
          return reply(
            q,
            challenge.map(
              (text) =>
                ({ type: "TXT", name: question.name, ttl: 60, class: "IN", data: [text] }) as DnsPacket.Answer
            )
          )
        })

        yield* Effect.gen(function* () {
          const claim = yield* call("POST", "/api/domains", { domain: DOMAIN }, headers["tenant A"])
          expect(claim.status).toBe(201)
          challenge = [claim.json.challenge.value]
          expect(
            (yield* call("POST", `/api/domains/${DOMAIN}/verify`, undefined, headers["tenant A"])).json.state
          ).toBe("verified")
          const monitor = yield* call(
            "POST",
            "/api/monitors",
            BODIES["a monitor of the domain"],
            headers["tenant A"]
          )
          expect([monitor.status, monitor.json.error]).toEqual([201, undefined])

          const differences: Array<string> = []
          for (const row of tableRows("Every caller, checked")) {
            const path = row.path.replace("{A's monitor}", monitor.json.id)
            for (const caller of CALLERS) {
              const body = row.body === undefined ? undefined : BODIES[row.body]
              const answer = yield* send(row.method, path, body, headers[caller])
              if (answer.status !== row.statuses[caller])
                differences.push(
                  `${row.method} ${row.path} as ${caller}: ${answer.status} (${answer.json?.error ?? ""}), the table says ${row.statuses[caller]}`
                )
            }
          }
          expect(differences).toEqual([])
        }).pipe(Effect.provide(testApp({ DNS_RESOLVERS: `127.0.0.1:${server.port}` }, dataDir)))
      }).pipe(Effect.scoped),
    120_000
  )
})
