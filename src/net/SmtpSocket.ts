/**
 * The SMTP probe's sockets (net/Smtp.ts): the TCP connection and the STARTTLS upgrade, each within
 * its stage's timeout, kept by the wait's own timer.
 */
import * as net from "node:net"
import * as tls from "node:tls"
import { Effect } from "effect"
import { SmtpFailure, type SmtpStage } from "./SmtpReader.ts"
import { sharedSecureContext } from "./TlsPeer.ts"

/**
 * A stage's timeout, kept by the stage's own timer (the socket's wait, below): `Effect.timeoutFail`
 * raced two more fibers per stage, seven stages a session (docs/bench.md, the batch).
 */
export const timedOut = (stage: SmtpStage, ms: number) => ({
  ms,
  failure: () =>
    new SmtpFailure({ stage, reason: "timeout", message: `no progress within ${ms} ms at ${stage}` })
})

export const connectSocket = (address: string, port: number, ms: number) =>
  Effect.async<net.Socket, SmtpFailure>((resume) => {
    const socket = net.connect({ host: address, port })
    const timer = setTimeout(() => {
      socket.destroy()
      resume(Effect.fail(timedOut("connect", ms).failure()))
    }, ms)
    const fail = (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      resume(
        Effect.fail(
          new SmtpFailure({
            stage: "connect",
            reason: error.code === "ECONNREFUSED" ? "refused" : "error",
            message: error.message
          })
        )
      )
    }
    socket.once("error", fail)
    socket.once("connect", () => {
      clearTimeout(timer)
      socket.off("error", fail)
      resume(Effect.succeed(socket))
    })
    return Effect.sync(() => {
      clearTimeout(timer)
      socket.destroy()
    })
  })

export const upgrade = (socket: net.Socket, servername: string, ca: ReadonlyArray<string>, ms: number) =>
  Effect.async<tls.TLSSocket, SmtpFailure>((resume) => {
    const secure = tls.connect({
      socket,
      // RFC 6066 3: SNI carries host names only, never address literals.
      ...(net.isIP(servername) === 0 ? { servername } : {}),
      // We observe and judge; the handshake must not abort on a bad chain or an old protocol.
      secureContext: sharedSecureContext(ca, { minVersion: "TLSv1", ciphers: "DEFAULT:@SECLEVEL=0" }),
      rejectUnauthorized: false
    })
    const timer = setTimeout(() => {
      secure.destroy()
      resume(Effect.fail(timedOut("handshake", ms).failure()))
    }, ms)
    const fail = (error: Error) => {
      clearTimeout(timer)
      resume(Effect.fail(new SmtpFailure({ stage: "handshake", reason: "tls", message: error.message })))
    }
    secure.once("error", fail)
    secure.once("secureConnect", () => {
      clearTimeout(timer)
      secure.off("error", fail)
      secure.on("error", () => {})
      resume(Effect.succeed(secure))
    })
    return Effect.sync(() => {
      clearTimeout(timer)
      secure.destroy()
    })
  })
