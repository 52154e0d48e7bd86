/**
 * DNS over one kept-open TCP connection per upstream, queries pipelined (RFC 7766 6.2.1.1) and
 * their replies matched by id in any order (RFC 7766 7), for bulk work: the queries of one turn of
 * the event loop go out in one write, and one read takes in as many replies as have arrived. Over
 * UDP each query costs a send and each reply a receive (system calls, and a wake-up of the event
 * loop each); here a burst of a hundred costs one of each (scripts/bench/resolver, docs/bench.md).
 * TCP also leaves a spoofer nothing to guess (RFC 5452 9.3). Replies are accepted as
 * DnsTransport.ts says (RFC 5452 9.1): the id and the question must match.
 * When the connection fails or the upstream closes it, the queries still outstanding go to
 * `fallback` (UDP) with the time they have left; an upstream that refuses TCP, does not connect
 * within a second, stalls, or closes with queries outstanding (no pipelining), is asked over UDP
 * only for a minute.
 */
import * as net from "node:net"
import type { Upstream } from "../Config.ts"
import { Outstanding, type Pending } from "./DnsOutstanding.ts"
import { encodedQuery, type Question, show, type Waiter } from "./DnsTransport.ts"

/** How a pipe hands a query on when it cannot carry it. */
export type Fallback = (q: Question, timeoutMs: number, waiter: Waiter) => void

/** A connection with nothing outstanding is closed after this long (RFC 7766 6.2.3: clients close idle ones). */
export const PIPE_IDLE_MS = 5_000
/** After a failed connect or a close mid-pipeline, how long the upstream is asked over UDP only. */
const PIPE_RETRY_MS = 60_000
/**
 * A connection not made within this long is given up (a firewall that drops TCP to port 53 would
 * otherwise hold the queries for the system's connect timeout, minutes), and so is one from which
 * nothing was read for this long when a query on it times out (stalled): UDP only for a while.
 */
export const PIPE_CONNECT_MS = 1_000
/** At most this many queries outstanding on one connection; more go to `fallback`. */
export const PIPE_DEPTH = 1_000

export class DnsPipe {
  private readonly pending: Outstanding
  private socket: net.Socket | undefined
  private connected = false
  /** Templates and ids of the queries waiting for this turn's write (or for the connect). */
  private outTemplates: Array<Buffer> = []
  private outIds: Array<number> = []
  private outBytes = 0
  private flushScheduled = false
  /** Where every read of the connection lands (RFC 7766 6.2.1.1 lets a burst of replies come at once). */
  private readonly inbox = Buffer.allocUnsafe(65_536)
  /** The start of a reply that the last read cut off. */
  private carry: Buffer | undefined
  /** No connection before this time (performance.now()): the last connect failed. */
  private refusedUntil = 0
  /** When the connection last delivered anything (performance.now()). */
  private lastRead = 0
  private connectTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly upstream: Upstream,
    private readonly fallback: Fallback
  ) {
    this.pending = new Outstanding(`TCP ${show(upstream)}`, () => {
      if (this.socket && performance.now() - this.lastRead >= PIPE_CONNECT_MS) this.lost(this.socket, true)
    })
  }

  /** Whether the pipe is open or opening: while it is, it carries every query to its upstream. */
  get open(): boolean {
    return this.socket !== undefined
  }

  /** Whether a new connection may be tried now. */
  get usable(): boolean {
    return this.socket !== undefined || performance.now() >= this.refusedUntil
  }

  /** Sends one query over the pipe (connecting first if need be); the waiter hears exactly once. */
  send(q: Question, timeoutMs: number, waiter: Waiter): void {
    if (!this.usable || this.pending.size >= PIPE_DEPTH) return this.fallback(q, timeoutMs, waiter)
    const template = encodedQuery(q, waiter)
    if (!template) return
    const p = this.pending.add(q, timeoutMs, waiter)
    this.connect()
    this.outTemplates.push(template)
    this.outIds.push(p.id)
    this.outBytes += 2 + template.length
    if (!this.flushScheduled) {
      this.flushScheduled = true
      setImmediate(this.flush)
    }
  }

  private connect() {
    if (this.socket) return
    // `onread`: every read lands in one buffer of the pipe's own and is parsed at once, without a
    // Buffer allocated per read nor the stream's push and "data" event (replies are decoded to
    // strings and numbers before the next read; what a read cuts off is copied into `carry`).
    const socket = net.connect({
      host: this.upstream.address,
      port: this.upstream.port,
      noDelay: true,
      onread: {
        buffer: this.inbox,
        callback: (n: number, buf: Uint8Array) => {
          if (this.socket !== socket) return false
          this.lastRead = performance.now()
          this.onData(buf as Buffer, n)
          return true
        }
      }
    })
    this.socket = socket
    this.connected = false
    this.carry = undefined
    socket.unref()
    socket.setTimeout(PIPE_IDLE_MS)
    this.lastRead = performance.now()
    this.connectTimer = setTimeout(() => this.lost(socket, true), PIPE_CONNECT_MS)
    this.connectTimer.unref()
    socket.on("connect", () => {
      clearTimeout(this.connectTimer)
      this.connected = true
      this.lastRead = performance.now()
      this.flush()
    })
    // Idle, or stalled (queries outstanding and nothing read or written for that long): close it.
    socket.on("timeout", () => this.lost(socket, false))
    // A connect that fails, or a close with queries outstanding (a server that does not pipeline
    // answers one and closes, RFC 7766 6.2.1.1): UDP only for a while.
    socket.on("error", () => this.lost(socket, !this.connected || this.pending.size > 0))
    socket.on("close", () => this.lost(socket, !this.connected || this.pending.size > 0))
  }

  /**
   * The connection is gone: everything outstanding on it goes to the fallback with the time it has
   * left (a query past its deadline fails as a timeout would). The next query opens a new one,
   * unless `backOff`.
   */
  private lost(socket: net.Socket, backOff: boolean) {
    if (this.socket !== socket) return
    clearTimeout(this.connectTimer)
    this.socket = undefined
    this.connected = false
    this.carry = undefined
    this.outTemplates = []
    this.outIds = []
    this.outBytes = 0
    socket.destroy()
    if (backOff) this.refusedUntil = performance.now() + PIPE_RETRY_MS
    const now = performance.now()
    for (const p of this.pending.drain()) this.handOn(p, now)
  }

  private handOn(p: Pending, now: number) {
    const left = Math.floor(p.deadline - now)
    if (left >= 1) return this.fallback(p.q, left, p.waiter)
    p.waiter.settle(
      p.malformed
        ? { reason: "malformed", message: `malformed TCP reply from ${show(this.upstream)}: ${p.malformed}` }
        : { reason: "timeout", message: `no reply from TCP ${show(this.upstream)} within ${p.timeoutMs} ms` },
      undefined
    )
  }

  /** Writes this turn's queries as one buffer, each with its two-octet length (RFC 1035 4.2.2). */
  private readonly flush = () => {
    this.flushScheduled = false
    const socket = this.socket
    if (!socket || !this.connected || this.outIds.length === 0) return
    const out = Buffer.allocUnsafe(this.outBytes)
    let o = 0
    const templates = this.outTemplates
    const ids = this.outIds
    for (let i = 0; i < ids.length; i++) {
      const template = templates[i]!
      const id = ids[i]!
      out[o] = template.length >> 8
      out[o + 1] = template.length & 0xff
      out.set(template, o + 2)
      out[o + 2] = id >> 8
      out[o + 3] = id & 0xff
      o += 2 + template.length
    }
    this.outTemplates = []
    this.outIds = []
    this.outBytes = 0
    socket.write(out)
  }

  /** Every whole reply in the `size` octets read into `chunk`; the cut-off start of the next waits for more. */
  private onData(chunk: Buffer, size: number) {
    let buf = chunk
    let end = size
    if (this.carry) {
      buf = Buffer.concat([this.carry, chunk.subarray(0, size)])
      end = buf.length
      this.carry = undefined
    }
    let o = 0
    while (end - o >= 2) {
      const length = (buf[o]! << 8) | buf[o + 1]!
      if (end - o - 2 < length) break
      this.pending.reply(buf, o + 2, o + 2 + length)
      o += 2 + length
    }
    // A copy, not a view: the read buffer is overwritten by the next read.
    if (o < end) this.carry = Buffer.from(buf.subarray(o, end))
  }

  close() {
    const socket = this.socket
    clearTimeout(this.connectTimer)
    this.socket = undefined
    this.outTemplates = []
    this.outIds = []
    this.outBytes = 0
    this.pending.close()
    socket?.destroy()
  }
}
