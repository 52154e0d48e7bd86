/**
 * DNS over TCP (RFC 7766), callback-based: one connection per question, used when a UDP reply was
 * truncated. The reply is accepted as DnsTransport.ts says (RFC 5452 9.1).
 */
import * as net from "node:net"
import type { Upstream } from "../Config.ts"
import type { DecodedReply } from "./DnsDecode.ts"
import {
  acceptReply,
  type Callback,
  type Question,
  queryPacket,
  randomId,
  show,
  type TransportFailure
} from "./DnsTransport.ts"

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
