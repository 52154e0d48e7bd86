/**
 * DNS over TCP (RFC 7766), callback-based: one connection per question. The Resolver asks over it
 * when a UDP reply was truncated (RFC 7766 5); the name-server check asks each server over it to
 * see whether TCP works at all. Each message goes with its two-octet length (RFC 1035 4.2.2), and
 * the reply is accepted as DnsTransport.ts says (RFC 5452 9.1): a reply to another question is
 * skipped and we keep reading.
 */
import * as net from "node:net"
import type { Upstream } from "../Config.ts"
import {
  acceptReply,
  type Callback,
  type Question,
  queryPacket,
  randomId,
  settleOnce,
  showAddress
} from "./DnsTransport.ts"

/** One exchange: where to, the encoded query with its id, the question it asks, how long to wait. */
export interface TcpExchange {
  readonly address: string
  readonly port: number
  /** The query as sent (without the length prefix); its first two octets are `id`. */
  readonly packet: Buffer
  readonly id: number
  readonly question: Question
  readonly timeoutMs: number
}

/** Sends one query over a fresh connection and reads until its reply; `cb` hears exactly once. */
export const tcpExchange = (x: TcpExchange, cb: Callback): void => {
  const label = showAddress(x.address, x.port)
  const socket = net.connect({ host: x.address, port: x.port })
  const finish = settleOnce(
    cb,
    () => socket.destroy(),
    x.timeoutMs,
    () => ({ reason: "timeout", message: `no TCP reply from ${label} within ${x.timeoutMs} ms` })
  )
  let buffered = Buffer.alloc(0)
  socket.on("connect", () => {
    const framed = Buffer.alloc(2 + x.packet.length)
    framed.writeUInt16BE(x.packet.length, 0)
    x.packet.copy(framed, 2)
    socket.write(framed)
  })
  socket.on("data", (chunk) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk])
    while (buffered.length >= 2) {
      const length = buffered.readUInt16BE(0)
      if (buffered.length < 2 + length) return
      const msg = buffered.subarray(2, 2 + length)
      buffered = buffered.subarray(2 + length)
      const verdict = acceptReply(msg, x.id, x.question)
      if (!verdict) continue
      if ("malformed" in verdict)
        return finish({
          reason: "malformed",
          message: `malformed TCP reply from ${label}: ${verdict.malformed}`
        })
      return finish(undefined, verdict.packet)
    }
  })
  socket.on("error", (err) => finish({ reason: "network", message: `TCP ${label}: ${err.message}` }))
  socket.on("close", () =>
    finish({ reason: "network", message: `TCP connection to ${label} closed without a reply` })
  )
}

/** The Resolver's question over TCP, when the UDP reply was truncated; `cb` hears exactly once. */
export const tcpQuery = (upstream: Upstream, q: Question, timeoutMs: number, cb: Callback): void => {
  const id = randomId()
  let packet: Buffer
  try {
    packet = queryPacket(id, q)
  } catch (e) {
    return cb(
      { reason: "network", message: `cannot encode query: ${e instanceof Error ? e.message : e}` },
      undefined
    )
  }
  tcpExchange({ address: upstream.address, port: upstream.port, packet, id, question: q, timeoutMs }, cb)
}
