/**
 * The vocabulary of the guarded web client: its error, request options, response and TLS facts,
 * settings, and the address lookup it needs. Kept apart from the code that performs requests so the
 * target vetting, the single exchange, the redirect-following client and the service share one
 * definition without an import cycle, and checks' fakes can build these shapes directly.
 */
import { type Effect, Schema } from "effect"
import type { DnsError } from "./DnsTypes.ts"
import type { Cidr } from "../records/IpAddress.ts"

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
  /** For `refused-address`: which address class (Targets `Refusal`), or `port`. */
  refusal: Schema.optional(Schema.String),
  /**
   * For `connect`: the host refused the TCP connection (ECONNREFUSED), an answer rather than a
   * silence. Kept for the destination's backoff, whose remembered failure a TLS scan of the same
   * address reads (net/WebTlsScan.ts); the message does not say it (`failureMessage`).
   */
  connectionRefused: Schema.optional(Schema.Boolean)
}) {}

export interface WebRequestOptions {
  /** Body cap for this request; defaults to (and is capped by) `HTTP_MAX_BODY_BYTES`. */
  readonly maxBytes?: number
  /** Follow 301/302/303/307/308 (default true, at most 5 hops, each vetted again). */
  readonly followRedirects?: boolean
  readonly accept?: string
  readonly method?: "GET" | "HEAD" | "POST"
  /** A request body (POST: a webhook delivery); sent with its length. */
  readonly body?: Uint8Array
  /** Further request headers (a webhook's content type and signature); the client's own win. */
  readonly headers?: Readonly<Record<string, string>>
  /** Total budget for this request; defaults to (and is capped by) `HTTP_TIMEOUT_MS`. */
  readonly timeoutMs?: number
  /**
   * Default true: an untrusted certificate fails with reason `tls`. When false the response is
   * returned with `tls.authorized` false and the reason, for checks that report on the certificate.
   */
  readonly verifyTls?: boolean
  /** Return the first `maxBytes` of a longer body (`truncated` true) instead of failing. */
  readonly truncateBody?: boolean
  /** Resolve host names with this lookup (a scan's memoised one) instead of the service's own. */
  readonly lookup?: AddressLookup
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
  /**
   * The redirect's Set-Cookie values: browsers store them before they follow it (RFC 6265bis 5.7).
   * Set by the client; absent in hops a caller followed itself.
   */
  readonly setCookies?: ReadonlyArray<string>
}

/** The Set-Cookie values among raw header lines, each apart (RFC 6265bis 3: never folded into one). */
export const setCookieValues = (raw: ReadonlyArray<readonly [string, string]>): Array<string> =>
  raw.filter(([name]) => name.toLowerCase() === "set-cookie").map(([, value]) => value)

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
  /**
   * Ports an `https:` URL may name (`HTTP_ALLOWED_PORTS`, default 443 only); `http:` URLs may also
   * use 80. Anything else is refused like a forbidden address, so the client is no port scanner.
   */
  readonly allowedPort: (port: number) => boolean
  /** Exchanges at once per destination address (`PER_DESTINATION_HTTP`, default 4). */
  readonly perDestination?: number
  /** Exchanges at once per /24 or /48 (`PER_PREFIX_HTTP`, default 16). */
  readonly perPrefix?: number
  /** How long an address that did not answer is left alone (`DESTINATION_BACKOFF`; 0 or unset: never). */
  readonly backoffMs?: number
  /**
   * How long a TLS scan of (address, 443, SNI), and its enumeration per (address, 443), is reused
   * (`PROBE_CACHE_TTL`; 0 or unset: only while in flight).
   */
  readonly probeCacheTtlMs?: number
}

/** A `WebError` with the address only when one is known (exactOptionalPropertyTypes). */
export const webError = (
  url: string,
  reason: WebErrorReason,
  message: string,
  address?: string,
  connectionRefused?: boolean
) =>
  new WebError({
    url,
    reason,
    message,
    ...(address === undefined ? {} : { address }),
    ...(connectionRefused === true ? { connectionRefused } : {})
  })
