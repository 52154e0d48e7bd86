/**
 * Web: the guarded HTTP(S) client. Every outbound web request of the service goes through it.
 *
 * - Host names resolve through our `Resolver`; every address is vetted by the address policy
 *   (`Targets.ts`) before any connection, and the socket goes to the vetted address itself with the
 *   original name for SNI and `Host`, so a name that changes its answer between check and connect
 *   (DNS rebinding) cannot slip through. Each redirect (at most 5) is resolved and vetted again.
 * - Budgets from `AppConfig`: connect timeout per attempt, total timeout per `get` (DNS and redirects
 *   included), body cap, header cap.
 * - TLS verification on, trusting the system store plus `EXTRA_CA_FILE`.
 *
 * This module is the service and its layers; the pieces live beside it: `WebTypes.ts` (error,
 * options, response), `WebTarget.ts` (URL and address vetting), `WebExchange.ts` (one request to
 * one vetted address), `WebContentEncoding.ts` (body decoding), `WebClient.ts` (redirects, budgets).
 * Everything the rest of the code uses is re-exported here, so importers need only this file.
 */
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as tls from "node:tls"
import { AppConfig } from "../Config.ts"
import { Resolver } from "./Resolver.ts"
import { parseAllowList } from "../records/IpAddress.ts"
import { makeWeb, webDestinations } from "./WebClient.ts"
import { makeKeyExchangeProbe, unreachableKeyExchange } from "./KeyExchangeProbe.ts"
import { tcpOpener } from "./TlsHandshake.ts"
import type { TlsScanResult } from "./TlsScan.ts"
import { certificateOnly, makeWebTlsScan, unreachableScan } from "./WebTlsScan.ts"
import {
  type AddressLookup,
  WebError,
  type WebRequestOptions,
  type WebResponse,
  type WebSettings
} from "./WebTypes.ts"

export { makeWeb, type WebClient } from "./WebClient.ts"
export type { AlpnAnswer } from "./WebAlpn.ts"
export { parseTarget } from "./WebTarget.ts"
export {
  type AddressLookup,
  type PeerCertificate,
  type Redirect,
  setCookieValues,
  type TlsInfo,
  WebError,
  type WebErrorReason,
  type WebRequestOptions,
  type WebResponse,
  type WebSettings
} from "./WebTypes.ts"

/** Reads `EXTRA_CA_FILE` (PEM bundle) once; a missing file is a configuration defect. */
const loadSettings = Effect.gen(function* () {
  const config = yield* AppConfig
  const allow = parseAllowList(config.allowTargets)
  if (!allow.ok) return yield* Effect.dieMessage(`ALLOW_TARGETS: '${allow.bad}' is not a CIDR or address`)
  const extra = config.extraCaFile === "" ? [] : [fs.readFileSync(config.extraCaFile, "utf8")]
  return {
    allow: allow.cidrs,
    ca: [...tls.rootCertificates, ...extra],
    connectTimeoutMs: config.httpConnectTimeoutMs,
    timeoutMs: config.httpTimeoutMs,
    maxBodyBytes: config.httpMaxBodyBytes,
    maxHeaderBytes: config.httpMaxHeaderBytes,
    userAgent: "domain-audit/0.1 (security scanner)",
    allowedPort: config.httpAllowedPorts,
    perDestination: config.perDestinationHttp,
    perPrefix: config.perPrefixHttp,
    backoffMs: config.destinationBackoffMs,
    probeCacheTtlMs: config.probeCacheTtlMs
  } satisfies WebSettings
})

/**
 * The hybrid-first ClientHello to port 443 (KeyExchangeProbe.ts), under the web's permits. An
 * address backed off for refusing a connection is told as a refusal (nothing listens for TLS
 * there), as the TLS scan tells it, whichever of a fetch, a scan or a probe met it first: never as
 * a silence, which would make the same server "no TLS" for one domain and "unknown" for the next.
 */
export const makeWebKeyExchange = (settings: WebSettings, destinations: ReturnType<typeof webDestinations>) =>
  makeKeyExchangeProbe({
    kind: "web-kex",
    port: 443,
    allow: settings.allow,
    timeoutMs: settings.connectTimeoutMs,
    ttlMs: settings.probeCacheTtlMs ?? 0,
    opener: (address) => tcpOpener(address, 443, settings.connectTimeoutMs),
    sendSni: true,
    silent: (address) => {
      const first = destinations.backedOff(address, 443)
      return first?.connectionRefused === true ? "refused a moment ago, ECONNREFUSED" : first?.message
    },
    gate: (address, probe) => destinations.around(address, probe)
  })

/** The client and the TLS scan over one set of destination permits. */
const webService = (settings: WebSettings, lookup: AddressLookup) => {
  const destinations = webDestinations(settings)
  return Effect.gen(function* () {
    const scans = yield* makeWebTlsScan(settings, destinations)
    const keyExchange = yield* makeWebKeyExchange(settings, destinations)
    return {
      ...makeWeb(settings, lookup, destinations),
      tlsScan: scans.scan,
      tlsCertificate: scans.certificate,
      keyExchange
    }
  })
}

export class Web extends Effect.Service<Web>()("Web", {
  effect: Effect.gen(function* () {
    const settings = yield* loadSettings
    const resolver = yield* Resolver
    return yield* webService(settings, (host) => resolver.addresses(host))
  })
}) {
  /**
   * A fake for checks' tests (and the OpenAPI examples' web site): `handler` answers each URL with
   * a response or a `WebError`. Redirects are the handler's business (return the final response).
   */
  static Test = (
    handler: (
      url: string,
      options: WebRequestOptions
    ) => (Partial<WebResponse> & { status: number }) | WebError,
    /** TLS scans of port 443 keyed `host|address`; others are unreachable. */
    tlsScans: Readonly<Record<string, TlsScanResult>> = {}
  ) =>
    Layer.succeed(
      Web,
      Web.make({
        tlsScan: (host: string, address: string) =>
          Effect.succeed(tlsScans[`${host}|${address}`] ?? unreachableScan(host, address)),
        tlsCertificate: (host: string, address: string) =>
          Effect.succeed(certificateOnly(tlsScans[`${host}|${address}`] ?? unreachableScan(host, address))),
        get: (url: string, options: WebRequestOptions = {}) => {
          const out = handler(url, options)
          if (out instanceof WebError) return Effect.fail(out)
          const headers = Object.fromEntries(
            Object.entries(out.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])
          )
          const response: WebResponse = {
            url,
            finalUrl: url,
            rawHeaders: Object.entries(out.headers ?? {}),
            body: new Uint8Array(),
            truncated: false,
            redirects: [],
            address: "192.0.2.1",
            tls: null,
            ...out,
            headers
          }
          return Effect.succeed(response)
        },
        keyExchange: () => Effect.succeed(unreachableKeyExchange),
        alpn: (host: string) =>
          Effect.fail(
            new WebError({ url: `https://${host}/`, reason: "connect", message: "no TLS in the fake" })
          )
      })
    )
}

/** Layer for tests or tools that already have a lookup function (no Resolver needed). */
export const webLayerWith = (lookup: AddressLookup) =>
  Layer.effect(
    Web,
    Effect.flatMap(loadSettings, (settings) => Effect.map(webService(settings, lookup), Web.make))
  )
