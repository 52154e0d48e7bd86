/**
 * DNS over UDP and TCP (RFC 1035 4.2), callback-based for speed; the Resolver wraps it in Effects.
 * Every reply is checked against the query before it is accepted (RFC 5452 9.1): source address and
 * port, transaction id, QR bit and the question. Anything else is dropped and we keep waiting, so a
 * spoofed or stray datagram cannot answer a question; a reply that matches the id but cannot be
 * decoded is remembered and reported as "malformed" if nothing better arrives before the timeout.
 */
import { randomBytes } from "node:crypto"
import * as dgram from "node:dgram"
import * as net from "node:net"
import * as DnsPacket from "dns-packet"
import type { Upstream } from "../Config.ts"
import { type DecodedReply, decodeReply, typeNumber, wireType } from "./DnsDecode.ts"
import { expandV6 } from "./DnsWire.ts"

export interface Question {
  readonly name: string
  readonly type: string
  readonly checkingDisabled: boolean
}

export interface TransportFailure {
  readonly reason: "timeout" | "network" | "malformed"
  readonly message: string
}

export type Callback = (failure: TransportFailure | undefined, reply: DecodedReply | undefined) => void

/** RFC 6891 6.2.5 / DNS Flag Day 2020: 1232 bytes avoids IP fragmentation. */
export const EDNS_PAYLOAD = 1232

/** The query packet: RD, optional CD, EDNS0 with the DO bit (RFC 3225) so we get RRSIGs and AD. */
export const encodeQuery = (id: number, q: Question): Buffer =>
  DnsPacket.encode({
    type: "query",
    id,
    flags: DnsPacket.RECURSION_DESIRED | (q.checkingDisabled ? DnsPacket.CHECKING_DISABLED : 0),
    questions: [{ type: wireType(q.type), name: q.name, class: "IN" }],
    additionals: [
      {
        type: "OPT",
        name: ".",
        udpPayloadSize: EDNS_PAYLOAD,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: DnsPacket.DNSSEC_OK,
        flag_do: true,
        options: []
      }
    ]
  })

/** Transaction ids from a CSPRNG (RFC 5452 9.2), drawn from a refilled pool to keep queries cheap. */
let idPool = randomBytes(8192)
let idOffset = 0
export const randomId = (): number => {
  if (idOffset >= idPool.length) {
    idPool = randomBytes(8192)
    idOffset = 0
  }
  const id = idPool.readUInt16BE(idOffset)
  idOffset += 2
  return id
}

/**
 * Encoded queries by name, then by type and CD bit, so a repeated question costs a copy and an id
 * write (RFC 1035 4.1.1: the id is the first two octets). Two levels keep the lookup free of a
 * concatenated key string per query.
 */
const templates = new Map<string, Map<string, Buffer>>()
let templateCount = 0
export const queryPacket = (id: number, q: Question): Buffer => {
  let byType = templates.get(q.name)
  const key = q.checkingDisabled ? `${q.type}+cd` : q.type
  let template = byType?.get(key)
  if (!template) {
    template = encodeQuery(0, q)
    if (templateCount >= 4096) {
      templates.clear()
      templateCount = 0
      byType = undefined
    }
    if (!byType) templates.set(q.name, (byType = new Map()))
    byType.set(key, template)
    templateCount++
  }
  const packet = Buffer.allocUnsafe(template.length)
  template.copy(packet)
  packet[0] = id >> 8
  packet[1] = id & 0xff
  return packet
}

/** The decoder's names are lower case without the root dot, as the Resolver asks: usually equal as is. */
const sameName = (a: string, b: string) =>
  a === b || a.replace(/\.$/, "").toLowerCase() === b.replace(/\.$/, "").toLowerCase()

/** Decodes a reply and checks it answers exactly our question; undefined when it must be dropped. */
export const acceptReply = (
  msg: Buffer,
  id: number,
  q: Question
): { readonly packet: DecodedReply } | { readonly malformed: string } | undefined => {
  if (msg.length < 12 || msg.readUInt16BE(0) !== id) return undefined
  let packet: DecodedReply
  try {
    packet = decodeReply(msg)
  } catch (e) {
    return { malformed: e instanceof Error ? e.message : String(e) }
  }
  if (!packet.qr || packet.questionCount !== 1 || !packet.question) return undefined
  const question = packet.question
  if (!sameName(question.name, q.name) || question.type !== typeNumber(q.type) || question.class !== 1)
    return undefined
  return { packet }
}

/** Who waits for a reply: called once, with a failure or the accepted reply. */
export interface Waiter {
  settle(failure: TransportFailure | undefined, reply: DecodedReply | undefined): void
}

/**
 * One outstanding UDP query. A class rather than closures: a query is the hot path, and a plain
 * object with prototype methods costs less to allocate and collect (scripts/bench/resolver).
 */
export class Pending {
  malformed: string | undefined = undefined
  constructor(
    readonly q: Question,
    readonly id: number,
    readonly timeoutMs: number,
    readonly deadline: number,
    readonly waiter: Waiter
  ) {}
}

/**
 * One UDP socket connected to one upstream, with its own table of outstanding transaction ids.
 * Connecting lets the kernel drop datagrams from any other source and saves an address lookup
 * per send; the source address is still checked (belt and braces).
 * Timeouts: one timer per channel, armed for the oldest deadline, instead of a timer per query.
 * Sends: the queries of one turn of the event loop go out together at its end (setImmediate).
 * Every datagram to a sleeping upstream costs a wake-up; a burst pays it once, and on this
 * 2-core machine that was 15-20% more queries per second (scripts/bench/resolver).
 */
class Channel {
  private readonly pending = new Map<number, Pending>()
  private socket: dgram.Socket | undefined
  private connected = false
  /** Encoded queries waiting for the end of this turn of the event loop (or for the connect). */
  private outbox: Array<Buffer> = []
  private flushScheduled = false
  private timer: NodeJS.Timeout | undefined
  /** When the armed timer fires (performance.now() time). */
  private armedFor = Infinity
  private readonly label: string

  constructor(private readonly upstream: Upstream) {
    this.label = show(upstream)
  }

  private open(): dgram.Socket {
    if (this.socket) return this.socket
    const socket = dgram.createSocket({ type: net.isIPv6(this.upstream.address) ? "udp6" : "udp4" })
    this.connected = false
    socket.on("message", (msg, rinfo) => this.onMessage(msg, rinfo))
    socket.on("error", (err) => this.broken(socket, err.message))
    socket.connect(this.upstream.port, this.upstream.address, (err?: Error) => {
      if (err) return this.broken(socket, err.message)
      this.connected = true
      this.flush()
    })
    socket.unref()
    this.socket = socket
    return socket
  }

  /** A broken socket fails everything waiting on it; the next send opens a fresh one. */
  private broken(socket: dgram.Socket, message: string) {
    if (this.socket !== socket) return
    this.socket = undefined
    this.outbox = []
    try {
      socket.close()
    } catch {
      // already closed
    }
    for (const p of [...this.pending.values()]) this.finish(p, { reason: "network", message })
  }

  private onMessage(msg: Buffer, rinfo: dgram.RemoteInfo) {
    if (msg.length < 12) return
    const p = this.pending.get((msg[0]! << 8) | msg[1]!)
    if (!p || rinfo.port !== this.upstream.port || !sameAddress(rinfo.address, this.upstream.address)) return
    const verdict = acceptReply(msg, p.id, p.q)
    if (!verdict) return
    if ("malformed" in verdict) {
      p.malformed = verdict.malformed
      return
    }
    this.finish(p, undefined, verdict.packet)
  }

  private finish(p: Pending, failure: TransportFailure | undefined, reply?: DecodedReply) {
    if (this.pending.get(p.id) !== p) return
    this.pending.delete(p.id)
    this.idle()
    p.waiter.settle(failure, reply)
  }

  /** Like a per-query timer, ours keeps the process alive only while a query is outstanding. */
  private idle() {
    if (this.pending.size === 0) this.timer?.unref()
  }

  /** Fails every query past its deadline, then re-arms for the oldest one left (if any). */
  private expire() {
    this.timer = undefined
    this.armedFor = Infinity
    const now = performance.now()
    let next = Infinity
    for (const p of [...this.pending.values()]) {
      if (p.deadline > now) {
        next = Math.min(next, p.deadline)
        continue
      }
      this.finish(
        p,
        p.malformed
          ? { reason: "malformed", message: `malformed reply from ${this.label}: ${p.malformed}` }
          : {
              reason: "timeout",
              message: `no reply from ${this.label} within ${p.timeoutMs} ms`
            }
      )
    }
    if (next !== Infinity) this.arm(next - now)
  }

  private arm(delayMs: number) {
    if (this.timer) clearTimeout(this.timer)
    const delay = Math.max(1, Math.ceil(delayMs))
    this.armedFor = performance.now() + delay
    this.timer = setTimeout(() => this.expire(), delay)
  }

  /** Sends one query; the waiter hears of its reply, timeout or failure exactly once. */
  send(q: Question, timeoutMs: number, waiter: Waiter): void {
    let id = randomId()
    while (this.pending.has(id)) id = randomId()
    let packet: Buffer
    try {
      packet = queryPacket(id, q)
    } catch (e) {
      return waiter.settle(
        { reason: "network", message: `cannot encode query: ${e instanceof Error ? e.message : e}` },
        undefined
      )
    }
    const p = new Pending(q, id, timeoutMs, performance.now() + timeoutMs, waiter)
    this.pending.set(id, p)
    if (this.pending.size === 1) this.timer?.ref()
    // Usually armed already, for an older query; a shorter timeout than that one re-arms earlier.
    if (p.deadline < this.armedFor) this.arm(timeoutMs)
    this.open()
    this.outbox.push(packet)
    if (!this.flushScheduled) {
      this.flushScheduled = true
      setImmediate(this.flush)
    }
  }

  /** Sends what waits in the outbox, once connected. */
  private readonly flush = () => {
    this.flushScheduled = false
    const socket = this.socket
    if (!socket || !this.connected || this.outbox.length === 0) return
    const out = this.outbox
    this.outbox = []
    // No per-send callback (it costs a native round trip per query): send errors arrive as "error".
    for (const packet of out) socket.send(packet)
  }

  close() {
    const socket = this.socket
    this.socket = undefined
    this.outbox = []
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    this.armedFor = Infinity
    try {
      socket?.close()
    } catch {
      // already closed
    }
  }
}

const sameAddress = (a: string, b: string) => {
  if (a === b || a === `::ffff:${b}`) return true
  const x = expandV6(a)
  const y = expandV6(b)
  return x !== undefined && y !== undefined && x.every((g, i) => g === y[i])
}

const shown = new WeakMap<Upstream, string>()
/** `address:port` (IPv6 in brackets), remembered per upstream: every answer names its resolver. */
export const show = (u: Upstream): string => {
  let text = shown.get(u)
  if (text === undefined) {
    text = u.address.includes(":") ? `[${u.address}]:${u.port}` : `${u.address}:${u.port}`
    shown.set(u, text)
  }
  return text
}

/**
 * A few connected UDP sockets per upstream, each on its own random source port: spoofing needs
 * the port and the 16-bit id (RFC 5452 4.5), and several sockets spread the id space.
 */
export class UdpPool {
  private readonly channels = new Map<string, Array<Channel>>()
  private next = 0

  constructor(private readonly size = 4) {}

  send(upstream: Upstream, q: Question, timeoutMs: number, waiter: Waiter): void {
    const key = show(upstream)
    let list = this.channels.get(key)
    if (!list) {
      list = Array.from({ length: this.size }, () => new Channel(upstream))
      this.channels.set(key, list)
    }
    list[this.next++ % list.length]!.send(q, timeoutMs, waiter)
  }

  close() {
    for (const list of this.channels.values()) for (const c of list) c.close()
    this.channels.clear()
  }
}

/** One query over TCP (RFC 7766), used when the UDP reply was truncated; `cb` hears exactly once. */
export const tcpQuery = (upstream: Upstream, q: Question, timeoutMs: number, cb: Callback): void => {
  const id = randomId()
  let packet: Buffer
  try {
    packet = queryPacket(id, q)
  } catch (e) {
    cb(
      { reason: "network", message: `cannot encode query: ${e instanceof Error ? e.message : e}` },
      undefined
    )
    return
  }
  let done = false
  const socket = net.connect({ host: upstream.address, port: upstream.port })
  const finish = (failure: TransportFailure | undefined, reply?: DecodedReply) => {
    if (done) return
    done = true
    clearTimeout(timer)
    socket.destroy()
    cb(failure, reply)
  }
  const timer = setTimeout(
    () =>
      finish({ reason: "timeout", message: `no TCP reply from ${show(upstream)} within ${timeoutMs} ms` }),
    timeoutMs
  )
  let buffered = Buffer.alloc(0)
  socket.on("connect", () => {
    const framed = Buffer.alloc(2 + packet.length)
    framed.writeUInt16BE(packet.length, 0)
    packet.copy(framed, 2)
    socket.write(framed)
  })
  socket.on("data", (chunk) => {
    buffered = Buffer.concat([buffered, chunk])
    while (buffered.length >= 2) {
      const length = buffered.readUInt16BE(0)
      if (buffered.length < 2 + length) return
      const msg = buffered.subarray(2, 2 + length)
      buffered = buffered.subarray(2 + length)
      const verdict = acceptReply(msg, id, q)
      if (!verdict) continue
      if ("malformed" in verdict)
        return finish({
          reason: "malformed",
          message: `malformed TCP reply from ${show(upstream)}: ${verdict.malformed}`
        })
      return finish(undefined, verdict.packet)
    }
  })
  socket.on("error", (err) => finish({ reason: "network", message: `TCP ${show(upstream)}: ${err.message}` }))
  socket.on("close", () =>
    finish({ reason: "network", message: `TCP connection to ${show(upstream)} closed without a reply` })
  )
}
