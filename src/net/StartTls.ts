/**
 * The STARTTLS opener: an SMTP session up to the point where TLS begins (RFC 3207 4: banner, EHLO,
 * STARTTLS, 220), handed to `handshake` (TlsHandshake.ts) as an `Opener`, so the TLS scan that
 * probes web servers over plain TCP probes mail servers the same way. Every stage has the probe's
 * own timeout (AppConfig); a stall, a refusal or an SMTP rejection is the opener's error string,
 * which `handshake` reports as `unknown`, never as a refused protocol version.
 */
import type * as net from "node:net"
import { Effect } from "effect"
import { ReplyReader, SmtpFailure, type SmtpStage } from "./SmtpReader.ts"
import { type Opener, tcpOpener } from "./TlsHandshake.ts"

/** The timeouts and EHLO name of the SMTP probe (net/Smtp.ts `ProbeSettings`). */
export interface StartTlsSettings {
  readonly port: number
  readonly heloName: string
  readonly connectTimeoutMs: number
  readonly bannerTimeoutMs: number
  readonly commandTimeoutMs: number
}

const failure = (stage: SmtpStage, message: string) => new SmtpFailure({ stage, reason: "rejected", message })

/**
 * Connects to `address`, reads the 220 banner, says EHLO, expects STARTTLS among the keywords, asks
 * for it and expects 220 (RFC 3207 4); the socket is then the caller's, with nothing read past the
 * 220 (bytes sent before the handshake are dropped, as a client must: CVE-2011-0411).
 */
export const starttlsOpener = (settings: StartTlsSettings, address: string): Opener =>
  Effect.gen(function* () {
    const socket = yield* tcpOpener(address, settings.port, settings.connectTimeoutMs)
    const reader = new ReplyReader("banner")
    const session = Effect.gen(function* () {
      reader.attach(socket)
      // Each step's timeout is the reader's own timer, not a race of two more fibers per step.
      const step = (stage: SmtpStage, line: string | null, ms: number) =>
        Effect.zipRight(
          Effect.sync(() => line !== null && socket.write(line + "\r\n")),
          reader.next(stage, {
            ms,
            failure: () =>
              new SmtpFailure({ stage, reason: "timeout", message: `no answer at ${stage} within ${ms} ms` })
          })
        )
      const banner = yield* step("banner", null, settings.bannerTimeoutMs)
      if (banner.code !== 220) return yield* failure("banner", `banner ${banner.code}`)
      const ehlo = yield* step("ehlo", `EHLO ${settings.heloName}`, settings.commandTimeoutMs)
      if (ehlo.code !== 250) return yield* failure("ehlo", `EHLO answered ${ehlo.code}`)
      if (!ehlo.lines.slice(1).some((k) => k.trim().toUpperCase() === "STARTTLS"))
        return yield* failure("ehlo", "STARTTLS not offered")
      const go = yield* step("starttls", "STARTTLS", settings.commandTimeoutMs)
      if (go.code !== 220) return yield* failure("starttls", `STARTTLS answered ${go.code}`)
      reader.detach()
      return socket as net.Socket
    })
    return yield* session.pipe(
      Effect.mapError((f) => `${f.stage}: ${f.message}`),
      Effect.onExit((exit) =>
        Effect.sync(() => {
          if (exit._tag === "Failure") {
            reader.detach()
            socket.destroy()
          }
        })
      )
    )
  })
