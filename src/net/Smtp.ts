/**
 * The SMTP probe: one session per MX address, as a sending MTA would open it (RFC 5321), with
 * STARTTLS (RFC 3207) when offered. It records what the server said and presented; judging it is
 * the checks' job (SmtpTls, Dane). Every stage has its own timeout from AppConfig, so a server that
 * stalls costs at most that timeout and is reported `unknown` with the stage that stalled.
 */
import * as net from "node:net"
import * as tls from "node:tls"
import { Effect, Layer } from "effect"
import { AppConfig } from "../Config.ts"
import { daysUntil } from "./Certificate.ts"
import { ReplyReader, SmtpFailure, type SmtpReply, type SmtpStage } from "./SmtpReader.ts"
import { connectSocket, timedOut, upgrade } from "./SmtpSocket.ts"
import { vetText } from "./Targets.ts"
import { parseAllowList } from "../records/IpAddress.ts"
import { type PeerJudged, peerJudged, readCaFile } from "./TlsPeer.ts"
import { makeSmtpTlsScan, unreachableSmtpScan } from "./SmtpTlsScan.ts"
import { makeKeyExchangeProbe, unreachableKeyExchange } from "./KeyExchangeProbe.ts"
import { starttlsOpener } from "./StartTls.ts"
import type { TlsScanResult } from "./TlsScan.ts"
import { type ProbedServer, probedServer } from "./ProbedServer.ts"
import { Destinations } from "./Destinations.ts"
import { Permits } from "../bounds/Permits.ts"
import { makeProbeCache, normalSni, type ProbeKey } from "./ProbeCache.ts"
import * as M from "../observe/Metrics.ts"

/** A probe's metric labels: its status, or `refused` when the address policy forbade it. */
const PROBE_OUTCOMES = {
  complete: M.labels({ outcome: "complete" }),
  unknown: M.labels({ outcome: "unknown" }),
  error: M.labels({ outcome: "error" }),
  refused: M.labels({ outcome: "refused" })
}

export { readCaFile, SmtpFailure, type SmtpReply, type SmtpStage }

/** Probes remembered at most: one with its chain (DER included) is ~10 kB, so ~20 MB at most. */
const PROBE_CACHE_ENTRIES = 2_048

export interface TlsFacts extends PeerJudged {
  readonly protocol: string | null
  readonly cipher: string | null
  readonly daysUntilExpiry: number | null
  /** EHLO keywords after STARTTLS (RFC 3207 4.2: the client must forget what it learned before). */
  readonly extensions: ReadonlyArray<string>
}

export interface SmtpProbe extends ProbedServer {
  /**
   * `complete`: the session ran to the end (with or without TLS). `unknown`: we could not find out
   * (timeout, refused, connection dropped). `error`: the server answered but broke the protocol or
   * the TLS handshake: a real, reportable failure.
   */
  readonly status: "complete" | "unknown" | "error"
  readonly failure: SmtpFailure | null
  readonly banner: string | null
  readonly bannerCode: number | null
  readonly ehloCode: number | null
  readonly extensions: ReadonlyArray<string>
  readonly starttlsOffered: boolean
  readonly starttlsCode: number | null
  readonly tls: TlsFacts | null
}

export interface ProbeSettings {
  readonly port: number
  readonly heloName: string
  readonly connectTimeoutMs: number
  readonly bannerTimeoutMs: number
  readonly commandTimeoutMs: number
  readonly tlsTimeoutMs: number
  readonly ca: ReadonlyArray<string>
}

const tlsFacts = (socket: tls.TLSSocket, host: string, now: Date): Omit<TlsFacts, "extensions"> => {
  const { judged } = peerJudged(socket, host)
  const cipher = socket.getCipher()
  return {
    protocol: socket.getProtocol() ?? null,
    cipher: cipher?.standardName ?? cipher?.name ?? null,
    ...judged,
    daysUntilExpiry: judged.chain[0] ? daysUntil(judged.chain[0].validTo, now) : null
  }
}

const send = (socket: net.Socket, line: string) => Effect.sync(() => socket.write(line + "\r\n"))

const keywords = (reply: SmtpReply) => reply.lines.slice(1).map((l) => l.trim().toUpperCase())

/** A probe of `address` before anything was learnt: the session fills it in stage by stage. */
const blankProbe = (port: number, host: string, address: string, checkedAt: Date): SmtpProbe => ({
  ...probedServer(host, address, port, checkedAt),
  status: "complete",
  failure: null,
  banner: null,
  bannerCode: null,
  ehloCode: null,
  extensions: [],
  starttlsOffered: false,
  starttlsCode: null,
  tls: null
})

/** One SMTP session against `address`, presenting `host` as SNI and expecting it in the certificate. */
export const probeOnce = (settings: ProbeSettings, host: string, address: string) =>
  Effect.gen(function* () {
    const started = Date.now()
    const checkedAt = new Date()
    const name = host.replace(/\.$/, "")
    const state: {
      -readonly [K in keyof SmtpProbe]: SmtpProbe[K]
    } = blankProbe(settings.port, name, address, checkedAt)
    const reader = new ReplyReader("banner")
    const session = Effect.gen(function* () {
      const socket = yield* Effect.acquireRelease(
        connectSocket(address, settings.port, settings.connectTimeoutMs),
        (s) => Effect.sync(() => s.destroy())
      )
      reader.attach(socket)
      const banner = yield* reader.next("banner", timedOut("banner", settings.bannerTimeoutMs))
      state.banner = banner.lines.join("\n")
      state.bannerCode = banner.code
      if (banner.code !== 220)
        return yield* new SmtpFailure({ stage: "banner", reason: "rejected", message: state.banner })
      const command = (stage: SmtpStage, line: string) =>
        Effect.zipRight(send(socket, line), reader.next(stage, timedOut(stage, settings.commandTimeoutMs)))
      const ehlo = yield* command("ehlo", `EHLO ${settings.heloName}`)
      state.ehloCode = ehlo.code
      if (ehlo.code !== 250)
        return yield* new SmtpFailure({ stage: "ehlo", reason: "rejected", message: ehlo.lines.join(" ") })
      state.extensions = keywords(ehlo)
      state.starttlsOffered = state.extensions.some((k) => k === "STARTTLS")
      let active: net.Socket = socket
      if (state.starttlsOffered) {
        const go = yield* command("starttls", "STARTTLS")
        state.starttlsCode = go.code
        if (go.code !== 220)
          return yield* new SmtpFailure({
            stage: "starttls",
            reason: "rejected",
            message: go.lines.join(" ")
          })
        const injected = reader.detach()
        const secure = yield* Effect.acquireRelease(
          upgrade(socket, name, settings.ca, settings.tlsTimeoutMs),
          (s) => Effect.sync(() => s.destroy())
        )
        state.tls = { ...tlsFacts(secure, name, checkedAt), extensions: [] }
        if (injected > 0)
          yield* Effect.logWarning(`${address}: ${injected} bytes sent before the TLS handshake`)
        reader.attach(secure)
        active = secure
        const again = yield* Effect.zipRight(
          send(secure, `EHLO ${settings.heloName}`),
          reader.next("ehlo-tls", timedOut("ehlo-tls", settings.commandTimeoutMs))
        )
        state.tls = { ...state.tls, extensions: again.code === 250 ? keywords(again) : [] }
      }
      // A polite goodbye; its answer (or silence) does not change the verdict.
      yield* Effect.zipRight(
        send(active, "QUIT"),
        reader.next("quit", timedOut("quit", settings.commandTimeoutMs))
      ).pipe(Effect.ignore)
    }).pipe(Effect.scoped)
    yield* session.pipe(
      Effect.catchAll((failure) =>
        Effect.sync(() => {
          state.failure = failure
          state.status =
            failure.reason === "timeout" ||
            failure.reason === "refused" ||
            failure.reason === "closed" ||
            (failure.reason === "error" && failure.stage === "connect")
              ? "unknown"
              : "error"
        })
      )
    )
    state.elapsedMs = Date.now() - started
    return state as SmtpProbe
  })

/** A probe that never happened: the address policy refused the address. */
const refused = (port: number, host: string, address: string, refusal: string): SmtpProbe => ({
  ...blankProbe(port, host.toLowerCase().replace(/\.$/, ""), address, new Date()),
  status: "error",
  failure: new SmtpFailure({
    stage: "connect",
    reason: "policy",
    message: `${address} is a ${refusal} address: not contacted (address policy)`
  })
})

/**
 * A probe that did not happen because `address` did not answer a moment ago (Destinations.ts):
 * unknown, with that first failure's stage and reason, so the checks read it as they read the
 * original (a refusal stays a refusal, a silent banner a silent banner).
 */
const backedOff = (port: number, host: string, address: string, first: SmtpFailure): SmtpProbe => ({
  ...blankProbe(port, host, address, new Date()),
  status: "unknown",
  failure: new SmtpFailure({
    stage: first.stage,
    reason: first.reason,
    message: `not contacted: backed off after an earlier probe (${first.message})`
  })
})

export class Smtp extends Effect.Service<Smtp>()("Smtp", {
  effect: Effect.gen(function* () {
    const config = yield* AppConfig
    const extra = yield* readCaFile(config.extraCaFile)
    const settings: ProbeSettings = {
      port: config.smtpPort,
      heloName: config.smtpHeloName,
      connectTimeoutMs: config.smtpConnectTimeoutMs,
      bannerTimeoutMs: config.smtpBannerTimeoutMs,
      commandTimeoutMs: config.smtpCommandTimeoutMs,
      tlsTimeoutMs: config.smtpTlsTimeoutMs,
      ca: [...tls.rootCertificates, ...extra]
    }
    const global = new Permits(Math.max(1, config.smtpConcurrency))
    const destinations = new Destinations<SmtpFailure>({
      kind: "smtp",
      perAddress: config.perDestinationConcurrency,
      perPrefix: config.perPrefixConcurrency,
      backoffMs: config.destinationBackoffMs
    })
    // One session per (address, port, SNI) for PROBE_CACHE_TTL, however many domains share the MX.
    const session = ({ address, port, sni }: ProbeKey) => {
      const silent = () => destinations.backedOff(address, port)
      const open = probeOnce(settings, sni, address).pipe(
        Effect.tap((probe) =>
          Effect.sync(() => {
            M.smtpProbes.unsafeUpdate(1, PROBE_OUTCOMES[probe.status])
            // No answer in time, a refusal, a dropped connection: the next domain would get the same.
            if (probe.status === "unknown" && probe.failure)
              destinations.backOff(address, port, probe.failure)
          })
        )
      )
      // Asked before waiting for a permit and again after: those waiting behind the probe that
      // found the server silent do not knock again.
      const ifAnswering = (then: Effect.Effect<SmtpProbe>) =>
        Effect.suspend(() => {
          const first = silent()
          return first ? Effect.succeed(backedOff(port, sni, address, first)) : then
        })
      // The destination's permits first: a global one is not held while waiting on a busy server.
      return ifAnswering(destinations.around(address, ifAnswering(global.holding(open))))
    }
    const cache = yield* makeProbeCache("smtp", session, {
      ttlMs: config.probeCacheTtlMs,
      capacity: PROBE_CACHE_ENTRIES
    })
    const allowed = parseAllowList(config.allowTargets)
    const allow = allowed.ok ? allowed.cidrs : []
    if (!allowed.ok) yield* Effect.logWarning(`ALLOW_TARGETS: '${allowed.bad}' is not a CIDR; allowing none`)
    const probe = Effect.fn("Smtp.probe")(function* (host: string, address: string) {
      // The address policy (Targets.ts): an MX pointing into a private or loopback range is not
      // contacted, so a scan cannot be used to reach the service's own network.
      const verdict = vetText(address, allow)
      if (!verdict.ok) {
        M.smtpProbes.unsafeUpdate(1, PROBE_OUTCOMES.refused)
        return refused(settings.port, host, address, verdict.refusal)
      }
      return yield* cache.get({ address, port: settings.port, sni: normalSni(host) })
    })
    // The TLS scan of an MX address (versions, suites): its sessions under the same permits.
    const tlsScan = yield* makeSmtpTlsScan({
      probe: settings,
      destinations,
      global,
      allow,
      ttlMs: config.probeCacheTtlMs
    })
    // The hybrid-first ClientHello after STARTTLS (KeyExchangeProbe.ts), without SNI as the TLS scan.
    const keyExchange = yield* makeKeyExchangeProbe({
      kind: "smtp-kex",
      port: settings.port,
      allow,
      timeoutMs: settings.tlsTimeoutMs,
      ttlMs: config.probeCacheTtlMs,
      opener: (address) => starttlsOpener(settings, address),
      sendSni: false,
      silent: (address) => destinations.backedOff(address, settings.port)?.message,
      gate: (address, one) => destinations.around(address, global.holding(one))
    })
    return { probe, tlsScan, keyExchange, settings }
  }),
  dependencies: [AppConfig.Default]
}) {
  /** A fake that answers from tables keyed `host|address`; unknown keys are unreachable. */
  static Test = (probes: Record<string, SmtpProbe>, tlsScans: Readonly<Record<string, TlsScanResult>> = {}) =>
    Layer.succeed(
      Smtp,
      Smtp.make({
        probe: (host: string, address: string) =>
          Effect.succeed(
            probes[`${host}|${address}`] ?? {
              ...blankProbe(25, host, address, new Date(0)),
              status: "unknown",
              failure: new SmtpFailure({
                stage: "connect",
                reason: "refused",
                message: "no such test server"
              })
            }
          ),
        tlsScan: (host: string, address: string) =>
          Effect.succeed(tlsScans[`${host}|${address}`] ?? unreachableSmtpScan(host, address)),
        keyExchange: () => Effect.succeed(unreachableKeyExchange),
        settings: {
          port: 25,
          heloName: "test.invalid",
          connectTimeoutMs: 1,
          bannerTimeoutMs: 1,
          commandTimeoutMs: 1,
          tlsTimeoutMs: 1,
          ca: []
        }
      })
    )
}
