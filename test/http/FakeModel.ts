/**
 * A fake OpenAI-compatible server on loopback for the /ai tests: it counts connections, records
 * each request, and answers a chat completion, an error, or nothing at all (it hangs).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { Effect } from "effect"

export type Behaviour = "answer" | "error" | "hang"

export interface Seen {
  readonly method: string
  readonly url: string
  readonly authorization: string | undefined
  readonly body: any
}

export const fakeModel = (behaviour: Behaviour, answer = "A friendly explanation from the model.") =>
  Effect.acquireRelease(
    Effect.async<{
      readonly port: number
      readonly seen: Array<Seen>
      readonly connections: () => number
      readonly close: () => void
    }>((resume) => {
      const seen: Array<Seen> = []
      const sockets = new Set<Socket>()
      let connections = 0
      const server = createServer((req: IncomingMessage, res: ServerResponse) => {
        let text = ""
        req.on("data", (chunk) => (text += chunk))
        req.on("end", () => {
          let body: any
          try {
            body = JSON.parse(text)
          } catch {
            body = text
          }
          seen.push({
            method: req.method ?? "",
            url: req.url ?? "",
            authorization: req.headers.authorization,
            body
          })
          if (behaviour === "hang") return
          if (behaviour === "error") {
            res.writeHead(500, { "content-type": "application/json" })
            res.end(JSON.stringify({ error: { message: "model overloaded" } }))
            return
          }
          res.writeHead(200, { "content-type": "application/json" })
          res.end(
            JSON.stringify({
              id: "chatcmpl-1",
              object: "chat.completion",
              choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }]
            })
          )
        })
      })
      server.on("connection", (socket) => {
        connections++
        sockets.add(socket)
        socket.on("close", () => sockets.delete(socket))
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address ? address.port : 0
        resume(
          Effect.succeed({
            port,
            seen,
            connections: () => connections,
            close: () => {
              for (const s of sockets) s.destroy()
              server.close()
            }
          })
        )
      })
    }),
    (fake) => Effect.sync(fake.close)
  )

/** The app's settings for a model at the fake server. */
export const modelEnv = (port: number, extra: Record<string, string> = {}) => ({
  AI_BASE_URL: `http://127.0.0.1:${port}/v1`,
  AI_MODEL: "test-model",
  AI_API_KEY: "sk-test-key",
  ...extra
})
