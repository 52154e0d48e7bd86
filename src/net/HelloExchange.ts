/**
 * One ClientHello out, the server's first message in, then the socket is destroyed (no handshake is
 * ever finished): the exchange the raw-byte probes are made of (KeyExchangeProbe.ts,
 * ExtendedMasterSecret.ts). TlsHello.ts builds the ClientHello and reads the answer; this only moves
 * the bytes over a socket from an `Opener` (TCP, or an SMTP session after STARTTLS).
 */
import { Effect } from "effect"
import type { Opener } from "./TlsHandshake.ts"
import { readServerHello, type ServerHelloReading } from "./TlsHello.ts"

/** What came back: the server's first message read, or why there is none. */
export type HelloExchange =
  | { readonly kind: "read"; readonly reading: ServerHelloReading }
  /** The server closed or reset the connection after the ClientHello: it does not take it. */
  | { readonly kind: "refused"; readonly message: string }
  /** No connection, silence, or too many bytes without a first message: we do not know. */
  | { readonly kind: "unknown"; readonly message: string }

/** Bytes read at most before giving up on a first message (a ServerHello is well under 2 KB). */
const MAX_READ = 64 * 1024

/** Sends `hello` over a socket from `open` and reads the first message. Never fails. */
export const exchangeHello = (
  open: Opener,
  hello: Uint8Array,
  timeoutMs: number
): Effect.Effect<HelloExchange> =>
  Effect.flatMap(Effect.either(open), (opened) => {
    if (opened._tag === "Left") return Effect.succeed({ kind: "unknown", message: opened.left } as const)
    const socket = opened.right
    return Effect.async<HelloExchange>((resume) => {
      let buffered = new Uint8Array(0)
      const finish = (outcome: HelloExchange) => {
        clearTimeout(timer)
        socket.removeAllListeners("data")
        socket.destroy()
        resume(Effect.succeed(outcome))
      }
      const timer = setTimeout(
        () => finish({ kind: "unknown", message: `no ServerHello within ${timeoutMs} ms` }),
        timeoutMs
      )
      socket.on("data", (chunk: Buffer) => {
        const next = new Uint8Array(buffered.length + chunk.length)
        next.set(buffered)
        next.set(chunk, buffered.length)
        buffered = next
        const read = readServerHello(buffered)
        if (read.done) finish({ kind: "read", reading: read.reading })
        else if (buffered.length > MAX_READ) finish({ kind: "unknown", message: "no ServerHello in 64 KB" })
      })
      socket.once("error", (error: NodeJS.ErrnoException) =>
        finish(
          /ECONNRESET|EPIPE/.test(error.code ?? "")
            ? { kind: "refused", message: `${error.code}: the connection was reset after the ClientHello` }
            : { kind: "unknown", message: error.code ?? error.message }
        )
      )
      socket.once("end", () =>
        finish({ kind: "refused", message: "the server closed the connection after the ClientHello" })
      )
      socket.write(hello)
      return Effect.sync(() => {
        clearTimeout(timer)
        socket.destroy()
      })
    })
  })
