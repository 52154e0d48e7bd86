/**
 * Requests the Effect client will not make (chunked uploads, raw bytes, oversized request lines)
 * to the app under test, through node's own client or a bare socket.
 */
import { HttpServer } from "@effect/platform"
import { Effect } from "effect"
import * as http from "node:http"
import * as net from "node:net"

export interface RawResponse {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  readonly text: string
  readonly json: any
}

const parse = (text: string) => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The test server's port. */
export const serverPort = Effect.map(HttpServer.HttpServer, (server) =>
  server.address._tag === "TcpAddress" ? server.address.port : 0
)

/** One request through node's client; `chunks` are written one by one (chunked unless a length is set). */
export const rawRequest = (options: {
  readonly method: string
  readonly path: string
  readonly headers?: Record<string, string>
  readonly chunks?: ReadonlyArray<string | Buffer>
}) =>
  Effect.flatMap(serverPort, (port) =>
    Effect.async<RawResponse, Error>((resume) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method: options.method,
          path: options.path,
          headers: options.headers,
          agent: false
        },
        (res) => {
          const parts: Array<Buffer> = []
          res.on("data", (c: Buffer) => parts.push(c))
          res.on("end", () => {
            const text = Buffer.concat(parts).toString("utf8")
            resume(
              Effect.succeed({ status: res.statusCode ?? 0, headers: res.headers, text, json: parse(text) })
            )
          })
          res.on("error", (e) => resume(Effect.fail(e)))
        }
      )
      req.on("error", (e) => resume(Effect.fail(e)))
      // Writes after an early answer fail with EPIPE on some runs; the answer is what is tested.
      for (const chunk of options.chunks ?? []) if (!req.destroyed) req.write(chunk)
      req.end()
      return Effect.sync(() => req.destroy())
    })
  )

/** Bytes straight onto a socket; the whole reply as text (the server closes after errors). */
export const rawSocket = (bytes: string) =>
  Effect.flatMap(serverPort, (port) =>
    Effect.async<string, Error>((resume) => {
      const socket = net.connect(port, "127.0.0.1", () => socket.end(bytes))
      const parts: Array<Buffer> = []
      socket.on("data", (c: Buffer) => parts.push(c))
      socket.on("close", () => resume(Effect.succeed(Buffer.concat(parts).toString("utf8"))))
      socket.on("error", () => {})
    })
  )

/**
 * Bytes onto a socket that stays open: `parts` are written `everyMs` apart, and the reply is
 * whatever arrived when the server closed the connection, or after `giveUpMs` (then "").
 */
export const rawSocketOpen = (parts: ReadonlyArray<string>, everyMs: number, giveUpMs: number) =>
  Effect.flatMap(serverPort, (port) =>
    Effect.async<string, Error>((resume) => {
      const received: Array<Buffer> = []
      const timers: Array<NodeJS.Timeout> = []
      const socket = net.connect(port, "127.0.0.1", () =>
        parts.forEach((part, i) =>
          timers.push(setTimeout(() => socket.writable && socket.write(part), i * everyMs))
        )
      )
      let finished = false
      const done = (text: string) => {
        if (finished) return
        finished = true
        timers.forEach(clearTimeout)
        socket.destroy()
        resume(Effect.succeed(text))
      }
      timers.push(setTimeout(() => done(""), giveUpMs))
      socket.on("data", (c: Buffer) => received.push(c))
      socket.on("close", () => done(Buffer.concat(received).toString("utf8")))
      socket.on("error", () => {})
      return Effect.sync(() => done(""))
    })
  )
