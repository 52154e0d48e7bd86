/**
 * The SMTP reply reader of the Smtp probe: multi-line replies (RFC 5321 4.2) from one socket at a
 * time, re-attachable to the TLS socket after STARTTLS, with bounded line length and reply size.
 */
import type * as net from "node:net"
import { Effect, Schema } from "effect"

export type SmtpStage = "connect" | "banner" | "ehlo" | "starttls" | "handshake" | "ehlo-tls" | "quit"

export class SmtpFailure extends Schema.TaggedError<SmtpFailure>()("SmtpFailure", {
  stage: Schema.Literal("connect", "banner", "ehlo", "starttls", "handshake", "ehlo-tls", "quit"),
  reason: Schema.Literal("timeout", "refused", "closed", "rejected", "protocol", "tls", "policy", "error"),
  message: Schema.String
}) {}

export interface SmtpReply {
  readonly code: number
  readonly lines: ReadonlyArray<string>
}

/** Reads SMTP replies (RFC 5321 4.2: `ddd-text` continues, `ddd text` ends) from one socket. */
export class ReplyReader {
  private buffer = ""
  private lines: Array<string> = []
  private ended: string | null = null
  private waiter: ((reply: SmtpReply | SmtpFailure) => void) | null = null
  private socket: net.Socket | null = null
  private readonly onData = (chunk: Buffer) => {
    this.buffer += chunk.toString("latin1")
    let index: number
    while ((index = this.buffer.indexOf("\n")) >= 0) {
      this.lines.push(this.buffer.slice(0, index).replace(/\r$/, ""))
      this.buffer = this.buffer.slice(index + 1)
    }
    if (this.buffer.length > 8192) this.ended = "reply line longer than 8192 bytes"
    this.pump()
  }
  private readonly onEnd = () => {
    this.ended ??= "connection closed by server"
    this.pump()
  }
  private readonly onError = (error: Error) => {
    this.ended ??= error.message
    this.pump()
  }
  constructor(private stage: SmtpStage) {}

  attach(socket: net.Socket) {
    this.socket = socket
    socket.on("data", this.onData)
    socket.on("end", this.onEnd)
    socket.on("close", this.onEnd)
    socket.on("error", this.onError)
  }

  /** Stops reading; returns how many bytes arrived unasked (STARTTLS command injection, CVE-2011-0411). */
  detach(): number {
    const socket = this.socket
    if (socket) {
      socket.off("data", this.onData)
      socket.off("end", this.onEnd)
      socket.off("close", this.onEnd)
      socket.off("error", this.onError)
    }
    this.socket = null
    const pending = this.buffer.length + this.lines.reduce((n, l) => n + l.length + 2, 0)
    this.buffer = ""
    this.lines = []
    return pending
  }

  private pump() {
    const deliver = this.waiter
    if (!deliver) return
    for (let i = 0; i < this.lines.length; i++) {
      const m = /^(\d{3})([ -]|$)/.exec(this.lines[i]!)
      if (!m) {
        this.waiter = null
        return deliver(
          new SmtpFailure({
            stage: this.stage,
            reason: "protocol",
            message: `not an SMTP reply: ${JSON.stringify(this.lines[i]!.slice(0, 120))}`
          })
        )
      }
      if (m[2] !== "-") {
        const lines = this.lines.splice(0, i + 1).map((l) => l.slice(4))
        this.waiter = null
        return deliver({ code: Number(m[1]), lines })
      }
      if (i > 200) this.ended = "reply longer than 200 lines"
    }
    if (this.ended !== null) {
      this.waiter = null
      deliver(new SmtpFailure({ stage: this.stage, reason: "closed", message: this.ended }))
    }
  }

  /**
   * The next reply, or `timeout.failure()` when none has come within `timeout.ms`: the timer is the
   * wait's own, not a race of two more fibers (`Effect.timeoutFail`) for every command of every
   * session (docs/bench.md, the batch).
   */
  next(
    stage: SmtpStage,
    timeout?: { readonly ms: number; readonly failure: () => SmtpFailure }
  ): Effect.Effect<SmtpReply, SmtpFailure> {
    return Effect.async<SmtpReply, SmtpFailure>((resume) => {
      this.stage = stage
      const timer =
        timeout === undefined
          ? undefined
          : setTimeout(() => {
              this.waiter = null
              resume(Effect.fail(timeout.failure()))
            }, timeout.ms)
      this.waiter = (r) => {
        clearTimeout(timer)
        resume(r instanceof SmtpFailure ? Effect.fail(r) : Effect.succeed(r))
      }
      this.pump()
      return Effect.sync(() => {
        clearTimeout(timer)
        this.waiter = null
      })
    })
  }
}
