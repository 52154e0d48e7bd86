/**
 * The TLS scan of one server address: which protocol versions it accepts (one handshake per version,
 * `minVersion` = `maxVersion`), which cipher suites it accepts and in what order (repeated
 * handshakes, each leaving out the suite chosen before, so the server's own preference shows), the
 * key exchange of each, the certificate chain with OCSP stapling from one ordinary handshake, and
 * Extended Master Secret on TLS 1.2 (RFC 7627) from our own ClientHello (ExtendedMasterSecret.ts).
 * It records; records/TlsRating.ts judges. The same scan serves HTTPS (a TCP opener) and SMTP (an
 * opener that runs the STARTTLS dialogue first, net/Smtp.ts).
 *
 * Bounded: at most `maxHandshakes` per address, the version handshakes `concurrency` at a time and
 * the enumerations one at a time (the order is what they measure). What this client cannot offer
 * (SSL 2 and 3, RC4, 3DES, EXPORT: not built into node's OpenSSL) is reported as untested, never as
 * not accepted.
 */
import * as tls from "node:tls"
import { Effect } from "effect"
import { certificateSignatureOid } from "../records/BimiDer.ts"
import { signatureName } from "../records/TlsRating.ts"
import type { Cidr } from "../records/IpAddress.ts"
import { namesOcspResponder } from "./Certificate.ts"
import { extendedMasterSecretGated } from "./ExtendedMasterSecret.ts"
import { normalSni, type ProbeKey } from "./ProbeCache.ts"
import { vetText } from "./Targets.ts"
import { type KeptPeer, type PeerJudged, peerJudged } from "./TlsPeer.ts"
import { type ProbedServer, probedServer } from "./ProbedServer.ts"
import {
  CLIENT_SUITES,
  connectionRefused,
  handshake,
  type HandshakeOutcome,
  type KeyExchangeFacts,
  type Opener,
  PROBED_VERSIONS,
  type ProbedVersion,
  TLS13_SUITES
} from "./TlsHandshake.ts"

export {
  CLIENT_SUITES,
  type KeyExchangeFacts,
  type Opener,
  PROBED_VERSIONS,
  type ProbedVersion,
  TLS13_SUITES
}

/** `accepted` / `refused` by the server; `unknown`: no answer, or this client could not ask. */
export type VersionSupport = "accepted" | "refused" | "unknown"

export interface AcceptedSuite {
  /** IANA name. */
  readonly cipher: string
  /** The version it was negotiated at (the highest pre-1.3 version accepted, or TLSv1.3). */
  readonly version: string
  readonly keyExchange: KeyExchangeFacts | null
}

export interface TlsCertificate extends PeerJudged {
  /** The leaf's signature algorithm (RFC 5280 4.1.1.2), e.g. `sha256WithRSAEncryption`. */
  readonly signatureAlgorithm: string | null
  /** The leaf names an OCSP responder (RFC 5280 4.2.2.1): only then is there anything to staple. */
  readonly ocspResponder?: boolean
}

export interface TlsScanResult extends ProbedServer {
  readonly handshakes: number
  /**
   * `complete`: the scan ran; `closed`: every connection was refused (nothing listens on the port);
   * `unknown`: no handshake could be made otherwise; `refused`: the address policy forbade it.
   */
  readonly status: "complete" | "closed" | "unknown" | "refused"
  readonly failure: string | null
  readonly versions: Readonly<Record<ProbedVersion, VersionSupport>>
  /** Pre-1.3 suites in the server's order when it enforces one, then the TLS 1.3 suites likewise. */
  readonly suites: ReadonlyArray<AcceptedSuite>
  /** The server picks by its own order (true), the client's (false), or we could not tell (null). */
  readonly serverOrder: boolean | null
  /** Every suite this client can offer was asked about (false: the bound was hit or a handshake failed). */
  readonly suitesComplete: boolean
  /** The negotiated version and suite of an ordinary handshake (the best both sides share). */
  readonly negotiated: { readonly protocol: string; readonly cipher: string } | null
  readonly certificate: TlsCertificate | null
  /** Whether an OCSP response was stapled (RFC 6066 8); null when no handshake completed. */
  readonly ocspStapled: boolean | null
  /**
   * The server agreed to Extended Master Secret on TLS 1.2 (RFC 7627 5.2); null: TLS 1.2 not
   * accepted or no ServerHello; absent: not asked (a certificate-only scan, or an older one).
   */
  readonly extendedMasterSecret?: boolean | null
  /**
   * `false` for a certificate-only scan (`certificateOnly`): the one ordinary handshake was made and
   * no version or suite was asked about, so `versions` and `suites` say nothing (not "unknown" for
   * want of an answer: not asked). Absent for a scan that enumerated them.
   */
  readonly enumerated?: false
  /** The name whose handshakes found the versions and suites, when another one's (TlsShare.ts). */
  readonly enumeratedAs?: string
}

export interface TlsScanSettings {
  readonly ca: ReadonlyArray<string>
  readonly handshakeTimeoutMs: number
  readonly maxHandshakes: number
  readonly concurrency: number
  /**
   * After this long the suites found so far are the answer (`suitesComplete` false), so a crowded
   * process or server yields a partial scan within its check's budget rather than none.
   */
  readonly budgetMs?: number
  /** Runs each handshake (its connection included) under the caller's permits; its timeout starts inside. */
  readonly gate?: (handshake: Effect.Effect<HandshakeOutcome>) => Effect.Effect<HandshakeOutcome>
  /**
   * A smaller suite probe for servers that throttle (SMTP): instead of every suite in the server's
   * order, its first `preferred` choices among the suites not in `weakSuites`, then up to `weak` of
   * the `weakSuites` it still accepts (one refused handshake when it accepts none).
   */
  readonly sampling?: {
    readonly preferred: number
    readonly weak: number
    readonly weakSuites: ReadonlyArray<string>
  }
  /**
   * Only the ordinary handshake, for the certificate chain, the stapling and the version and suite
   * the server picks: one handshake instead of ~15 (a shallow batch scan, docs/batch.md "Depth").
   */
  readonly certificateOnly?: boolean
}

const noVersions = (): Record<ProbedVersion, VersionSupport> => ({
  TLSv1: "unknown",
  "TLSv1.1": "unknown",
  "TLSv1.2": "unknown",
  "TLSv1.3": "unknown"
})

/** A scan that never connected: `status` says why. */
export const blankScan = (
  host: string,
  address: string,
  port: number,
  status: TlsScanResult["status"],
  failure: string | null,
  checkedAt: Date = new Date()
): TlsScanResult => ({
  ...probedServer(host, address, port, checkedAt),
  handshakes: 0,
  status,
  failure,
  versions: noVersions(),
  suites: [],
  serverOrder: null,
  suitesComplete: false,
  negotiated: null,
  certificate: null,
  ocspStapled: null
})

/**
 * A scan not made: a shallow scan (docs/batch.md "Depth") asked no version or suite of the server,
 * which is not contacted for it (`enumerated: false`; its certificate is the STARTTLS probe's).
 */
export const unenumeratedScan = (host: string, address: string, port: number): TlsScanResult => ({
  ...blankScan(host, address, port, "complete", null),
  enumerated: false
})

/**
 * `host` at `address` through `cached` (the probe cache); an address the policy refuses is not contacted.
 */
export const vettedScan =
  (allow: ReadonlyArray<Cidr>, port: number, cached: (key: ProbeKey) => Effect.Effect<TlsScanResult>) =>
  (host: string, address: string): Effect.Effect<TlsScanResult> => {
    const verdict = vetText(address, allow)
    return verdict.ok
      ? cached({ address, port, sni: normalSni(host) })
      : Effect.succeed(
          blankScan(
            host,
            address,
            port,
            "refused",
            `${address} is a ${verdict.refusal} address: not contacted`
          )
        )
  }

const certificateOf = (socket: tls.TLSSocket, host: string, kept: KeptPeer): TlsCertificate => {
  const { ders, judged } = peerJudged(socket, host, kept)
  const oid = ders[0] ? certificateSignatureOid(ders[0]) : null
  return {
    ...judged,
    signatureAlgorithm: oid === null ? null : signatureName(oid),
    ocspResponder: ders[0] ? namesOcspResponder(ders[0]) : false
  }
}

const end = (outcome: HandshakeOutcome) => {
  if (outcome.kind === "accepted") outcome.socket.destroy()
}

/**
 * Scans `host` (SNI and the name the certificate must carry) at the server `open` connects to.
 * `address` and `port` only label the result.
 */
export const scanTls = (
  settings: TlsScanSettings,
  host: string,
  address: string,
  port: number,
  open: Opener
): Effect.Effect<TlsScanResult> =>
  Effect.gen(function* () {
    const started = Date.now()
    const checkedAt = new Date()
    const name = host.toLowerCase().replace(/\.$/, "")
    let handshakes = 0
    const spent = () =>
      handshakes >= settings.maxHandshakes || Date.now() - started >= (settings.budgetMs ?? Infinity)
    const shake = (request: Omit<Parameters<typeof handshake>[1], "servername" | "timeoutMs">) =>
      Effect.suspend(() => {
        handshakes++
        const one = handshake(open, { ...request, servername: name, timeoutMs: settings.handshakeTimeoutMs })
        return settings.gate ? settings.gate(one) : one
      })
    // An ordinary handshake (what a browser gets) for the certificate and stapling, offering every
    // TLS 1.3 suite in OpenSSL's default order (the CCM ones last), so that it also answers for
    // TLS 1.3: a server picks the highest version both sides have (RFC 8446 4.2.1, with the
    // downgrade sentinel of 4.1.3), and its choice is the first step of the TLS 1.3 enumeration.
    const ordinary = shake({
      minVersion: "TLSv1",
      maxVersion: "TLSv1.3",
      suites: CLIENT_SUITES,
      tls13Suites: TLS13_SUITES,
      ca: settings.ca,
      requestOcsp: true
    }).pipe(
      Effect.map((o) => {
        if (o.kind !== "accepted")
          return { negotiated: null, certificate: null, ocspStapled: null, failure: o.message, outcome: o }
        const certificate = certificateOf(o.socket, name, o.kept)
        end(o)
        return {
          negotiated: { protocol: o.protocol, cipher: o.cipher },
          certificate,
          ocspStapled: o.ocspStapled,
          failure: null,
          outcome: o
        }
      })
    )
    if (settings.certificateOnly === true) {
      const main = yield* ordinary
      const reached = main.outcome.kind === "accepted" || main.outcome.kind === "refused"
      const status = reached ? "complete" : connectionRefused(main.outcome) ? "closed" : "unknown"
      return {
        ...blankScan(name, address, port, status, main.failure, checkedAt),
        negotiated: main.negotiated,
        certificate: main.certificate,
        ocspStapled: main.ocspStapled,
        handshakes,
        elapsedMs: Date.now() - started,
        enumerated: false as const
      }
    }
    const tls12Extensions = Effect.suspend(() =>
      extendedMasterSecretGated(open, name, settings.handshakeTimeoutMs, settings.gate, () => handshakes++)
    )
    const perVersion = PROBED_VERSIONS.filter((version) => version !== "TLSv1.3").map((version) =>
      shake({ minVersion: version, maxVersion: version, suites: CLIENT_SUITES }).pipe(
        Effect.tap(end),
        Effect.map((o) => [version, o] as const)
      )
    )
    const [first, ...outcomes] = yield* Effect.all([ordinary, ...perVersion], {
      concurrency: Math.max(1, settings.concurrency)
    })
    const main = first as Effect.Effect.Success<typeof ordinary>
    const byVersion = outcomes as ReadonlyArray<readonly [ProbedVersion, HandshakeOutcome]>
    const versions = noVersions()
    for (const [version, o] of byVersion) versions[version] = o.kind === "accepted" ? "accepted" : o.kind
    versions["TLSv1.3"] =
      main.outcome.kind === "accepted"
        ? main.outcome.protocol === "TLSv1.3"
          ? "accepted"
          : "refused"
        : main.outcome.kind
    if (main.negotiated === null && byVersion.every(([, o]) => o.kind !== "accepted")) {
      const reachable = main.outcome.kind === "refused" || byVersion.some(([, o]) => o.kind === "refused")
      const closed = connectionRefused(main.outcome) && byVersion.every(([, o]) => connectionRefused(o))
      const status = reachable ? "complete" : closed ? "closed" : "unknown"
      return {
        ...blankScan(name, address, port, status, main.failure, checkedAt),
        versions,
        handshakes,
        elapsedMs: Date.now() - started
      }
    }
    // Before the suites, which may spend the budget: a TLS 1.2 server's EMS is always asked.
    const extendedMasterSecret = versions["TLSv1.2"] === "accepted" ? yield* tls12Extensions : null
    const suites: Array<AcceptedSuite> = []
    let complete = true
    /**
     * Server-order enumeration at `version`: offer all, note the choice, offer the rest again. The
     * first offer of all was already made (the version's own handshake): `opening` is its answer.
     * At most `limit` suites are named.
     */
    const enumerate = (
      version: tls.SecureVersion,
      pool: ReadonlyArray<string>,
      tls13: boolean,
      opening: HandshakeOutcome | undefined,
      limit = Infinity
    ) =>
      Effect.gen(function* () {
        const left = [...pool]
        const found: Array<string> = []
        let given: HandshakeOutcome | undefined = opening
        while (left.length > 0) {
          if ((given === undefined && spent()) || found.length >= limit) {
            complete = false
            break
          }
          const o: HandshakeOutcome =
            given ??
            (yield* shake({
              minVersion: version,
              maxVersion: version,
              // TLS 1.3 suites go apart; a pre-1.3 list must still be non-empty for OpenSSL.
              suites: tls13 ? [CLIENT_SUITES[0]!] : left,
              tls13Suites: tls13 ? left : []
            }))
          given = undefined
          end(o)
          if (o.kind === "refused") break
          if (o.kind === "unknown") {
            complete = false
            break
          }
          const at = left.indexOf(o.opensslName.toUpperCase())
          const index = at >= 0 ? at : left.indexOf(o.cipher.toUpperCase())
          if (index < 0) {
            complete = false
            break
          }
          left.splice(index, 1)
          found.push(o.opensslName.toUpperCase())
          suites.push({ cipher: o.cipher, version: o.protocol, keyExchange: o.keyExchange })
        }
        return found
      })
    const legacy = (["TLSv1.2", "TLSv1.1", "TLSv1"] as const).find((v) => versions[v] === "accepted")
    let serverOrder: boolean | null = null
    const sampling = settings.sampling
    const weak = new Set(sampling?.weakSuites ?? [])
    if (legacy !== undefined) {
      const opening = byVersion.find(([version]) => version === legacy)![1]
      const pool = sampling ? CLIENT_SUITES.filter((c) => !weak.has(c)) : CLIENT_SUITES
      // The version's handshake offered every suite: its answer opens a sample only if in the pool.
      const opens = opening.kind !== "accepted" || pool.includes(opening.opensslName.toUpperCase())
      const found = yield* enumerate(legacy, pool, false, opens ? opening : undefined, sampling?.preferred)
      // Offered backwards: a server that keeps its first choice picks by its own order.
      if (found.length >= 2 && !spent()) {
        const o = yield* shake({ minVersion: legacy, maxVersion: legacy, suites: [...found].reverse() })
        end(o)
        if (o.kind === "accepted") serverOrder = o.opensslName.toUpperCase() === found[0]
      }
      if (sampling && sampling.weak > 0) yield* enumerate(legacy, [...weak], false, undefined, sampling.weak)
    }
    if (versions["TLSv1.3"] === "accepted") yield* enumerate("TLSv1.3", TLS13_SUITES, true, main.outcome)
    return {
      ...blankScan(name, address, port, "complete", null, checkedAt),
      versions,
      suites,
      serverOrder,
      suitesComplete: complete,
      negotiated: main.negotiated,
      certificate: main.certificate,
      ocspStapled: main.ocspStapled,
      extendedMasterSecret,
      handshakes,
      elapsedMs: Date.now() - started
    }
  })
