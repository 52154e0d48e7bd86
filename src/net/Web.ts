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
 */
import { Duration, Effect, Layer, Schema } from "effect"
import * as fs from "node:fs"
import * as http from "node:http"
import * as https from "node:https"
import * as tls from "node:tls"
import * as zlib from "node:zlib"
import { AppConfig } from "../Config.ts"
import type { DnsError } from "./Dns.ts"
import { Resolver } from "./Resolver.ts"
import { type Cidr, formatIp, hostLiteral, parseAllowList, parseIp, type Refusal, vet } from "./Targets.ts"

export type WebErrorReason =
  | "invalid-url"
  | "refused-address"
  | "dns"
  | "no-address"
  | "timeout"
  | "connect"
  | "tls"
  | "too-large"
  | "http"
  | "redirect"

export class WebError extends Schema.TaggedError<WebError>()("WebError", {
  url: Schema.String,
  reason: Schema.Literal(
    "invalid-url",
    "refused-address",
    "dns",
    "no-address",
    "timeout",
    "connect",
    "tls",
    "too-large",
    "http",
    "redirect"
  ),
  message: Schema.String,
  /** The refused or failing address, when one is known. */
  address: Schema.optional(Schema.String),
  /** For `refused-address`: which address class (Targets `Refusal`). */
  refusal: Schema.optional(Schema.String)
}) {}

export interface WebRequestOptions {
  /** Body cap for this request; defaults to (and is capped by) `HTTP_MAX_BODY_BYTES`. */
  readonly maxBytes?: number
  /** Follow 301/302/303/307/308 (default true, at most 5 hops, each vetted again). */
  readonly followRedirects?: boolean
  readonly accept?: string
  readonly method?: "GET" | "HEAD"
  /** Total budget for this request; defaults to (and is capped by) `HTTP_TIMEOUT_MS`. */
  readonly timeoutMs?: number
  /**
   * Default true: an untrusted certificate fails with reason `tls`. When false the response is
   * returned with `tls.authorized` false and the reason, for checks that report on the certificate.
   */
  readonly verifyTls?: boolean
  /** Return the first `maxBytes` of a longer body (`truncated` true) instead of failing. */
  readonly truncateBody?: boolean
}

export interface PeerCertificate {
  readonly subject: string
  readonly issuer: string
  readonly subjectAltName: string
  readonly validFrom: string
  readonly validTo: string
  readonly fingerprint256: string
  readonly serialNumber: string
  /** DER of the leaf, then the chain the server sent (as far as node exposes it). */
  readonly chain: ReadonlyArray<Uint8Array>
}

export interface TlsInfo {
  readonly authorized: boolean
  readonly authorizationError: string | null
  readonly protocol: string | null
  readonly cipher: string | null
  readonly peerCertificate: PeerCertificate | null
}

export interface Redirect {
  readonly url: string
  readonly status: number
  readonly location: string
}

export interface WebResponse {
  /** The URL asked for. */
  readonly url: string
  /** The URL that produced this response, after redirects. */
  readonly finalUrl: string
  readonly status: number
  /** Lower-case names; repeated headers joined with ", " (Set-Cookie with "\n"). */
  readonly headers: Readonly<Record<string, string>>
  /** Every header line as received, in order. */
  readonly rawHeaders: ReadonlyArray<readonly [string, string]>
  readonly body: Uint8Array
  /** The body was cut at `maxBytes` (only with `truncateBody`); Web always sets it, fakes may omit it. */
  readonly truncated?: boolean
  readonly redirects: ReadonlyArray<Redirect>
  /** The vetted address the final response came from. */
  readonly address: string
  /** Null for plain http. */
  readonly tls: TlsInfo | null
}

/** What the client needs from the resolver: the addresses of a host (A then AAAA). */
export type AddressLookup = (
  host: string
) => Effect.Effect<{ readonly v4: ReadonlyArray<string>; readonly v6: ReadonlyArray<string> }, DnsError>

export interface WebSettings {
  readonly allow: ReadonlyArray<Cidr>
  readonly ca: ReadonlyArray<string>
  readonly connectTimeoutMs: number
  readonly timeoutMs: number
  readonly maxBodyBytes: number
  readonly maxHeaderBytes: number
  readonly userAgent: string
}

const webError = (url: string, reason: WebErrorReason, message: string, address?: string) =>
  new WebError({ url, reason, message, ...(address === undefined ? {} : { address }) })

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const MAX_REDIRECTS = 5
const GLOBAL_CONCURRENCY = 64
const PER_HOST_CONCURRENCY = 6

const refusedMessage = (address: string, refusal: Refusal) =>
  `refusing to connect to ${address}: ${refusal} address (not allowed by the address policy)`

/** Parse and vet a URL's scheme and literal host; names are resolved later. */
export const parseTarget = (text: string): { readonly url: URL } | WebError => {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return webError(text, "invalid-url", `not a URL: ${text}`)
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return webError(text, "invalid-url", `unsupported scheme ${url.protocol}`)
  url.username = ""
  url.password = ""
  url.hash = ""
  return { url }
}

const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, "")

const isTlsCode = (code: string) =>
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|EPROTO)/.test(code)

interface Attempt {
  readonly status: number
  readonly rawHeaders: ReadonlyArray<readonly [string, string]>
  readonly body: Uint8Array
  readonly truncated: boolean
  readonly tls: TlsInfo | null
}

const tlsInfo = (socket: tls.TLSSocket): TlsInfo => {
  const cert = socket.getPeerCertificate(true)
  const chain: Array<Uint8Array> = []
  let peerCertificate: PeerCertificate | null = null
  if (cert && cert.raw) {
    let c: tls.DetailedPeerCertificate | undefined = cert
    const seen = new Set<string>()
    while (c && c.raw && !seen.has(c.fingerprint256)) {
      seen.add(c.fingerprint256)
      chain.push(new Uint8Array(c.raw))
      c = c.issuerCertificate
    }
    const name = (o: unknown) =>
      o && typeof o === "object"
        ? Object.entries(o as Record<string, unknown>)
            .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join("+") : String(v)}`)
            .join(", ")
        : ""
    peerCertificate = {
      subject: name(cert.subject),
      issuer: name(cert.issuer),
      subjectAltName: cert.subjectaltname ?? "",
      validFrom: cert.valid_from,
      validTo: cert.valid_to,
      fingerprint256: cert.fingerprint256,
      serialNumber: cert.serialNumber,
      chain
    }
  }
  const err = socket.authorizationError as unknown
  return {
    authorized: socket.authorized,
    authorizationError: err ? String((err as { code?: string }).code ?? err) : null,
    protocol: socket.getProtocol(),
    cipher: socket.getCipher()?.name ?? null,
    peerCertificate
  }
}

/** One request to one vetted address. Interrupting the effect destroys the socket. */
const attempt = (
  settings: WebSettings,
  url: URL,
  address: string,
  options: WebRequestOptions,
  maxBytes: number
): Effect.Effect<Attempt, WebError> =>
  Effect.async<Attempt, WebError>((resume) => {
    const secure = url.protocol === "https:"
    const host = bareHost(url)
    let done = false
    const finish = (e: Effect.Effect<Attempt, WebError>) => {
      if (done) return
      done = true
      clearTimeout(connectTimer)
      resume(e)
    }
    const verify = options.verifyTls !== false
    const requestOptions: https.RequestOptions = {
      host: address,
      family: address.includes(":") ? 6 : 4,
      port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
      path: url.pathname + url.search,
      method: options.method ?? "GET",
      agent: false,
      maxHeaderSize: settings.maxHeaderBytes,
      headers: {
        host: url.host,
        "user-agent": settings.userAgent,
        accept: options.accept ?? "*/*",
        "accept-encoding": "gzip, deflate, br",
        connection: "close"
      },
      ...(secure
        ? {
            // SNI and certificate identity use the original host name (not for IP literals, RFC 6066 §3).
            ...(hostLiteral(host) === undefined ? { servername: host } : {}),
            ca: [...settings.ca],
            rejectUnauthorized: verify,
            minVersion: "TLSv1" as const
          }
        : {})
    }
    const req = (secure ? https : http).request(requestOptions)
    const connectTimer = setTimeout(() => {
      req.destroy()
      finish(
        Effect.fail(
          webError(
            url.href,
            "timeout",
            `connect to ${address} timed out after ${settings.connectTimeoutMs} ms`,
            address
          )
        )
      )
    }, settings.connectTimeoutMs)
    req.on("socket", (socket) => {
      socket.once(secure ? "secureConnect" : "connect", () => clearTimeout(connectTimer))
    })
    req.on("error", (error: NodeJS.ErrnoException) => {
      const code = error.code ?? ""
      const reason: WebErrorReason =
        code === "HPE_HEADER_OVERFLOW"
          ? "too-large"
          : code.startsWith("HPE_")
            ? "http"
            : isTlsCode(code) || /certificate|ssl|tls/i.test(error.message)
              ? "tls"
              : "connect"
      finish(
        Effect.fail(
          new WebError({
            url: url.href,
            reason,
            message: `${code ? code + ": " : ""}${error.message}`,
            address
          })
        )
      )
    })
    req.on("response", (res) => {
      const tlsData = secure ? tlsInfo(res.socket as tls.TLSSocket) : null
      const chunks: Array<Buffer> = []
      let size = 0
      const complete = (truncated: boolean) => {
        const raw = res.rawHeaders
        const pairs: Array<readonly [string, string]> = []
        for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!])
        const encoding = String(res.headers["content-encoding"] ?? "")
        const decoded = decode(
          Buffer.concat(chunks),
          encoding,
          maxBytes,
          truncated || options.truncateBody === true
        )
        if (decoded === "too-large")
          return finish(Effect.fail(webError(url.href, "too-large", "decompressed body too large", address)))
        if (decoded === "bad")
          return finish(Effect.fail(webError(url.href, "http", "undecodable content-encoding", address)))
        finish(
          Effect.succeed({
            status: res.statusCode ?? 0,
            rawHeaders: pairs,
            body: decoded.body,
            truncated: truncated || decoded.truncated,
            tls: tlsData
          })
        )
      }
      const overflow = (message: string) => {
        req.destroy()
        if (options.truncateBody) complete(true)
        else finish(Effect.fail(webError(url.href, "too-large", message, address)))
      }
      const declared = Number(res.headers["content-length"] ?? NaN)
      if (declared > maxBytes && !options.truncateBody)
        return overflow(`response body of ${declared} bytes exceeds the ${maxBytes} byte limit`)
      res.on("data", (chunk: Buffer) => {
        if (done) return
        const room = maxBytes - size
        size += chunk.length
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, Math.max(0, room)))
          overflow(`response body exceeds the ${maxBytes} byte limit`)
        } else chunks.push(chunk)
      })
      res.on("error", (error) => finish(Effect.fail(webError(url.href, "http", error.message, address))))
      res.on("end", () => complete(false))
    })
    req.end()
    return Effect.sync(() => {
      done = true
      clearTimeout(connectTimer)
      req.destroy()
    })
  })

/**
 * Undo Content-Encoding within the cap. With `lenient` (a truncated body or truncation allowed),
 * a partial stream decodes as far as it goes and an oversized result is cut instead of failing.
 */
const decode = (
  body: Buffer,
  encoding: string,
  maxBytes: number,
  lenient: boolean
): { readonly body: Uint8Array; readonly truncated: boolean } | "too-large" | "bad" => {
  const enc = encoding.trim().toLowerCase()
  if (enc === "" || enc === "identity") return { body: new Uint8Array(body), truncated: false }
  const flush = lenient
    ? enc === "br"
      ? { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }
      : { finishFlush: zlib.constants.Z_SYNC_FLUSH }
    : {}
  const run = (limit: number) => {
    const opts = { maxOutputLength: limit, ...flush }
    if (enc === "gzip" || enc === "x-gzip") return zlib.gunzipSync(body, opts)
    if (enc === "deflate") return zlib.inflateSync(body, opts)
    if (enc === "br") return zlib.brotliDecompressSync(body, opts)
    return undefined
  }
  try {
    const out = run(maxBytes)
    return out === undefined ? "bad" : { body: new Uint8Array(out), truncated: false }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ERR_BUFFER_TOO_LARGE") return "bad"
    if (!lenient) return "too-large"
    try {
      const out = run(maxBytes * 4)
      return out === undefined ? "bad" : { body: new Uint8Array(out.subarray(0, maxBytes)), truncated: true }
    } catch {
      return "too-large"
    }
  }
}

const joinHeaders = (pairs: ReadonlyArray<readonly [string, string]>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [name, value] of pairs) {
    const key = name.toLowerCase()
    const prev = out[key]
    out[key] = prev === undefined ? value : `${prev}${key === "set-cookie" ? "\n" : ", "}${value}`
  }
  return out
}

/** Resolve (unless a literal) and vet every address of the URL's host; refuse if any is refused. */
const vettedAddresses = (
  settings: WebSettings,
  lookup: AddressLookup,
  url: URL
): Effect.Effect<ReadonlyArray<string>, WebError> => {
  const host = bareHost(url)
  const literal = hostLiteral(host)
  const refuse = (address: string, refusal: Refusal) =>
    new WebError({
      url: url.href,
      reason: "refused-address",
      message: refusedMessage(address, refusal),
      address,
      refusal
    })
  if (literal === "invalid") return Effect.fail(webError(url.href, "invalid-url", `invalid address ${host}`))
  if (literal !== undefined) {
    const verdict = vet(literal, settings.allow)
    return verdict.ok
      ? Effect.succeed([formatIp(literal)])
      : Effect.fail(refuse(formatIp(literal), verdict.refusal))
  }
  if (/(^|\.)localhost\.?$/i.test(host)) return Effect.fail(refuse(host, "loopback"))
  return lookup(host).pipe(
    Effect.mapError((e) => webError(url.href, "dns", `resolving ${host} failed: ${e.reason}: ${e.message}`)),
    Effect.flatMap(({ v4, v6 }) => {
      const all = [...v4, ...v6]
      if (all.length === 0)
        return Effect.fail(webError(url.href, "no-address", `${host} has no A or AAAA record`))
      // One refused address refuses the name: mixing public and internal answers is how rebinding starts.
      for (const address of all) {
        const ip = parseIp(address)
        if (!ip) return Effect.fail(refuse(address, "reserved"))
        const verdict = vet(ip, settings.allow)
        if (!verdict.ok) return Effect.fail(refuse(address, verdict.refusal))
      }
      return Effect.succeed(all)
    })
  )
}

/** Build the client from settings and an address lookup (tests inject a fake lookup). */
export const makeWeb = (settings: WebSettings, lookup: AddressLookup) => {
  // DESIGN principle 6: bounded concurrency globally and per target host.
  const global = Effect.unsafeMakeSemaphore(GLOBAL_CONCURRENCY)
  const perHost = new Map<string, Effect.Semaphore>()
  const hostPermit = (host: string) => {
    let sem = perHost.get(host)
    if (!sem) {
      if (perHost.size > 10_000) perHost.clear()
      sem = Effect.unsafeMakeSemaphore(PER_HOST_CONCURRENCY)
      perHost.set(host, sem)
    }
    return sem.withPermits(1)
  }
  const fetchOnce = (url: URL, options: WebRequestOptions, maxBytes: number) =>
    Effect.gen(function* () {
      const addresses = yield* vettedAddresses(settings, lookup, url)
      let last: WebError | undefined
      for (const address of addresses) {
        const result = yield* Effect.either(
          attempt(settings, url, address, options, maxBytes).pipe(
            hostPermit(url.hostname),
            global.withPermits(1)
          )
        )
        if (result._tag === "Right") return { ...result.right, address }
        last = result.left
        // Only an unreachable address is worth trying the next one for; TLS and HTTP errors are the site's answer.
        if (last.reason !== "connect" && last.reason !== "timeout") break
      }
      return yield* Effect.fail(last!)
    })

  const get = Effect.fn("Web.get")(function* (text: string, options: WebRequestOptions = {}) {
    const timeoutMs = Math.min(options.timeoutMs ?? settings.timeoutMs, settings.timeoutMs)
    const maxBytes = Math.min(options.maxBytes ?? settings.maxBodyBytes, settings.maxBodyBytes)
    yield* Effect.annotateCurrentSpan("url", text)
    return yield* Effect.gen(function* () {
      const target = parseTarget(text)
      if (target instanceof WebError) return yield* Effect.fail(target)
      let url = target.url
      const redirects: Array<Redirect> = []
      for (;;) {
        const res = yield* fetchOnce(url, options, maxBytes)
        const headers = joinHeaders(res.rawHeaders)
        const location = headers["location"]
        if (options.followRedirects !== false && REDIRECTS.has(res.status) && location !== undefined) {
          if (redirects.length >= MAX_REDIRECTS)
            return yield* Effect.fail(webError(text, "redirect", `more than ${MAX_REDIRECTS} redirects`))
          let next: URL
          try {
            next = new URL(location, url)
          } catch {
            return yield* Effect.fail(webError(url.href, "redirect", `invalid redirect location ${location}`))
          }
          const parsed = parseTarget(next.href)
          if (parsed instanceof WebError)
            return yield* Effect.fail(webError(url.href, "redirect", parsed.message))
          redirects.push({ url: url.href, status: res.status, location: parsed.url.href })
          url = parsed.url
          continue
        }
        const response: WebResponse = {
          url: text,
          finalUrl: url.href,
          status: res.status,
          headers,
          rawHeaders: res.rawHeaders,
          body: res.body,
          truncated: res.truncated,
          redirects,
          address: res.address,
          tls: res.tls
        }
        return response
      }
    }).pipe(
      Effect.timeoutFail({
        duration: Duration.millis(timeoutMs),
        onTimeout: () => webError(text, "timeout", `no complete response within ${timeoutMs} ms`)
      })
    )
  })

  return { get } as const
}

export type WebClient = ReturnType<typeof makeWeb>

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
    userAgent: "domain-audit/0.1 (security scanner)"
  } satisfies WebSettings
})

export class Web extends Effect.Service<Web>()("Web", {
  effect: Effect.gen(function* () {
    const settings = yield* loadSettings
    const resolver = yield* Resolver
    return makeWeb(settings, (host) => resolver.addresses(host))
  })
}) {
  /**
   * A fake for checks' tests: `handler` answers each URL with a response or a `WebError`.
   * Redirects are the handler's business (return the final response).
   */
  static Test = (
    handler: (
      url: string,
      options: WebRequestOptions
    ) => (Partial<WebResponse> & { status: number }) | WebError
  ) =>
    Layer.succeed(
      Web,
      Web.make({
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
        }
      })
    )
}

/** Layer for tests or tools that already have a lookup function (no Resolver needed). */
export const webLayerWith = (lookup: AddressLookup) =>
  Layer.effect(
    Web,
    Effect.map(loadSettings, (settings) => Web.make(makeWeb(settings, lookup)))
  )
