/**
 * One HTTP(S) exchange with one already-vetted address: the socket goes to that address while SNI,
 * certificate identity and `Host` use the original name, so what was vetted is what is reached.
 * Enforces the connect timeout, header and body caps, and records what the TLS handshake showed.
 * Redirects, retries over addresses and the total budget are the client's (`WebClient.ts`).
 */
import { Effect } from "effect"
import * as http from "node:http"
import * as https from "node:https"
import type * as tls from "node:tls"
import { hostLiteral } from "../records/IpAddress.ts"
import { KeptPeer, peerCertificates, sharedSecureContext } from "./TlsPeer.ts"
import { decodeContentEncoding } from "./WebContentEncoding.ts"
import { bareHost } from "./WebTarget.ts"
import {
  type PeerCertificate,
  type TlsInfo,
  webError,
  WebError,
  type WebErrorReason,
  type WebRequestOptions,
  type WebSettings
} from "./WebTypes.ts"

const isTlsCode = (code: string) =>
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|EPROTO)/.test(code)

/** Certificate verdicts (OpenSSL X509_V_ERR names as node reports them): the site's answer, worth naming. */
const isCertificateCode = (code: string) =>
  /^(CERT_[A-Z_]+|UNABLE_TO_[A-Z_]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|ERR_TLS_CERT_ALTNAME_INVALID)$/.test(
    code
  )

/**
 * What the caller is told about a failed exchange: generic words, never the address, the port's
 * state (refused, reset, silent) or library text, which would turn the client into a port scanner
 * for whoever can name a URL. The full error goes to the debug log.
 */
export const failureMessage = (reason: WebErrorReason, secure: boolean, code: string): string => {
  const over = secure ? "HTTPS" : "HTTP"
  switch (reason) {
    case "tls":
      return isCertificateCode(code)
        ? `the site's TLS certificate was not accepted (${code})`
        : "the TLS handshake with the site failed"
    case "too-large":
      return "the site's response headers are too large"
    case "http":
      return `the site's ${over} response could not be read`
    default:
      return `the site could not be reached over ${over}`
  }
}

/**
 * Whether a failed exchange says the destination itself did not answer: no connection (refused,
 * reset, unreachable) or none within the connect timeout. A slow response is not one: that is
 * the page's answer, not the server's silence.
 */
export const unanswered = (error: WebError): boolean =>
  error.reason === "connect" ||
  (error.reason === "timeout" && error.message.startsWith("the site could not be reached"))

export interface Attempt {
  readonly status: number
  readonly rawHeaders: ReadonlyArray<readonly [string, string]>
  readonly body: Uint8Array
  readonly truncated: boolean
  readonly tls: TlsInfo | null
}

const tlsInfo = (socket: tls.TLSSocket, kept: KeptPeer): TlsInfo => {
  const { leaf: cert, chain: ders } = peerCertificates(socket, kept)
  let peerCertificate: PeerCertificate | null = null
  if (cert) {
    const chain = ders.map((der) => new Uint8Array(der))
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

/** The fetch's whole budget: when it ends (`performance.now()` ms), and the error it ends with. */
export interface Deadline {
  readonly at: number
  readonly error: () => WebError
}

/**
 * One request to one vetted address, ended with `deadline.error()` at the deadline. Interrupting
 * the effect destroys the socket.
 */
export const attempt = (
  settings: WebSettings,
  url: URL,
  address: string,
  options: WebRequestOptions,
  maxBytes: number,
  deadline: Deadline
): Effect.Effect<Attempt, WebError> =>
  Effect.async<Attempt, WebError>((resume) => {
    const secure = url.protocol === "https:"
    const host = bareHost(url)
    let done = false
    const finish = (e: Effect.Effect<Attempt, WebError>) => {
      if (done) return
      done = true
      clearTimeout(connectTimer)
      clearTimeout(deadlineTimer)
      resume(e)
    }
    const verify = options.verifyTls !== false
    const kept = new KeptPeer()
    const requestOptions: https.RequestOptions = {
      host: address,
      family: address.includes(":") ? 6 : 4,
      port: url.port === "" ? (secure ? 443 : 80) : Number(url.port),
      path: url.pathname + url.search,
      method: options.method ?? "GET",
      agent: false,
      maxHeaderSize: settings.maxHeaderBytes,
      headers: {
        ...options.headers,
        ...(options.body ? { "content-length": String(options.body.byteLength) } : {}),
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
            secureContext: sharedSecureContext(settings.ca, { minVersion: "TLSv1" }),
            rejectUnauthorized: verify,
            // node's own reading of the certificate, kept for `tlsInfo` (TlsPeer.ts).
            checkServerIdentity: kept.checkServerIdentity
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
            `the site could not be reached over ${secure ? "HTTPS" : "HTTP"} within ${settings.connectTimeoutMs} ms`,
            address
          )
        )
      )
    }, settings.connectTimeoutMs)
    const deadlineTimer = setTimeout(
      () => {
        req.destroy()
        finish(Effect.fail(deadline.error()))
      },
      Math.max(0, deadline.at - performance.now())
    )
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
        Effect.logDebug("web exchange failed", url.href, address, code, error.message).pipe(
          Effect.zipRight(
            Effect.fail(
              new WebError({
                url: url.href,
                reason,
                message: failureMessage(reason, secure, code),
                address,
                ...(reason === "connect" && code === "ECONNREFUSED" ? { connectionRefused: true } : {})
              })
            )
          )
        )
      )
    })
    req.on("response", (res) => {
      const tlsData = secure ? tlsInfo(res.socket as tls.TLSSocket, kept) : null
      const chunks: Array<Buffer> = []
      let size = 0
      const complete = (truncated: boolean) => {
        const raw = res.rawHeaders
        const pairs: Array<readonly [string, string]> = []
        for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!])
        const encoding = String(res.headers["content-encoding"] ?? "")
        const decoded = decodeContentEncoding(
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
      res.on("error", () =>
        finish(Effect.fail(webError(url.href, "http", failureMessage("http", secure, ""), address)))
      )
      res.on("end", () => complete(false))
    })
    req.end(options.body)
    return Effect.sync(() => {
      done = true
      clearTimeout(connectTimer)
      clearTimeout(deadlineTimer)
      req.destroy()
    })
  })
