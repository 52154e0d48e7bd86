/**
 * DNS messages for both transports (RFC 1035 4.2): the question, the query packet, transaction ids
 * and the acceptance of a reply. The UDP pool (DnsUdp.ts) and the TCP exchange (DnsTcp.ts) send
 * them; the Resolver wraps both in Effects.
 * Every reply is checked against the query before it is accepted (RFC 5452 9.1): source address and
 * port, transaction id, QR bit and the question. Anything else is dropped and we keep waiting, so a
 * spoofed or stray datagram cannot answer a question; a reply that matches the id but cannot be
 * decoded is remembered and reported as "malformed" if nothing better arrives before the timeout.
 */
import { randomBytes } from "node:crypto"
import * as DnsPacket from "dns-packet"
import type { Upstream } from "../Config.ts"
import { type DecodedReply, decodeReply } from "./DnsDecode.ts"
import { typeNumber, wireType } from "./DnsTypeCodes.ts"

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

/**
 * `cb` heard once for one exchange: the first of a reply, a failure or the timeout settles it,
 * stops the timer and closes the socket; what comes later (an error after the reply, the close
 * after a timeout) is dropped. `timedOut` says what the deadline means (no reply, or the malformed
 * one remembered).
 */
export const settleOnce = (
  cb: Callback,
  close: () => void,
  timeoutMs: number,
  timedOut: () => TransportFailure
): ((failure: TransportFailure | undefined, reply?: DecodedReply) => void) => {
  let settled = false
  const settle = (failure: TransportFailure | undefined, reply?: DecodedReply) => {
    if (settled) return
    settled = true
    clearTimeout(timer)
    close()
    cb(failure, reply)
  }
  const timer = setTimeout(() => settle(timedOut()), timeoutMs)
  return settle
}

/** RFC 6891 6.2.5 / DNS Flag Day 2020: 1232 bytes avoids IP fragmentation. */
export const EDNS_PAYLOAD = 1232

/** The EDNS0 OPT pseudo-record of every query we send (RFC 6891 6.1.2), with the DO bit as asked (RFC 3225). */
export const ednsOpt = (dnssecOk: boolean): DnsPacket.OptAnswer => ({
  type: "OPT",
  name: ".",
  udpPayloadSize: EDNS_PAYLOAD,
  extendedRcode: 0,
  ednsVersion: 0,
  flags: dnssecOk ? DnsPacket.DNSSEC_OK : 0,
  flag_do: dnssecOk,
  options: []
})

/** The query packet: RD, optional CD, EDNS0 with the DO bit (RFC 3225) so we get RRSIGs and AD. */
export const encodeQuery = (id: number, q: Question): Buffer =>
  DnsPacket.encode({
    type: "query",
    id,
    flags: DnsPacket.RECURSION_DESIRED | (q.checkingDisabled ? DnsPacket.CHECKING_DISABLED : 0),
    questions: [{ type: wireType(q.type), name: q.name, class: "IN" }],
    additionals: [ednsOpt(true)]
  })

/** Transaction ids from a CSPRNG (RFC 5452 9.2), drawn from a refilled pool to keep queries cheap. */
let idPool = randomBytes(8192)
let idOffset = 0
export const randomId = (): number => {
  if (idOffset >= idPool.length) {
    idPool = randomBytes(8192)
    idOffset = 0
  }
  const id = (idPool[idOffset]! << 8) | idPool[idOffset + 1]!
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
/** The encoded query for `q` with id 0: copy it and write the id (never change it in place). */
export const queryTemplate = (q: Question): Buffer => {
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
  return template
}

export const queryPacket = (id: number, q: Question): Buffer => {
  const template = queryTemplate(q)
  const packet = Buffer.allocUnsafe(template.length)
  // TypedArray.set is a native copy; Buffer.copy goes through a JS bounds-checking wrapper first.
  packet.set(template)
  packet[0] = id >> 8
  packet[1] = id & 0xff
  return packet
}

/** `q`'s template, or undefined after telling `waiter` the question cannot be encoded. */
export const encodedQuery = (q: Question, waiter: Waiter): Buffer | undefined => {
  try {
    return queryTemplate(q)
  } catch (e) {
    waiter.settle(
      { reason: "network", message: `cannot encode query: ${e instanceof Error ? e.message : e}` },
      undefined
    )
    return undefined
  }
}

/** The decoder's names are lower case without the root dot, as the Resolver asks: usually equal as is. */
const sameName = (a: string, b: string) =>
  a === b || a.replace(/\.$/, "").toLowerCase() === b.replace(/\.$/, "").toLowerCase()

/**
 * The reply in octets `start` to `end` of `buf` decoded, when it answers exactly our question; why
 * it is malformed (a string); or undefined when it must be dropped. In place and without a verdict
 * object: the pipelined connection reads a burst of replies into one buffer (DnsPipe.ts).
 */
export const checkReply = (
  buf: Buffer,
  start: number,
  end: number,
  id: number,
  q: Question
): DecodedReply | string | undefined => {
  if (end - start < 12 || ((buf[start]! << 8) | buf[start + 1]!) !== id) return undefined
  let packet: DecodedReply
  try {
    packet = decodeReply(buf, start, end)
  } catch (e) {
    return e instanceof Error ? e.message : String(e)
  }
  if (!packet.qr || packet.questionCount !== 1 || !packet.question) return undefined
  const question = packet.question
  if (!sameName(question.name, q.name) || question.type !== typeNumber(q.type) || question.class !== 1)
    return undefined
  return packet
}

/** Decodes a reply and checks it answers exactly our question; undefined when it must be dropped. */
export const acceptReply = (
  msg: Buffer,
  id: number,
  q: Question
): { readonly packet: DecodedReply } | { readonly malformed: string } | undefined => {
  const verdict = checkReply(msg, 0, msg.length, id, q)
  if (verdict === undefined) return undefined
  return typeof verdict === "string" ? { malformed: verdict } : { packet: verdict }
}

/** Who waits for a reply: called once, with a failure or the accepted reply. */
export interface Waiter {
  settle(failure: TransportFailure | undefined, reply: DecodedReply | undefined): void
}

/** `address:port`, IPv6 in brackets (RFC 3986 3.2.2). */
export const showAddress = (address: string, port: number): string =>
  address.includes(":") ? `[${address}]:${port}` : `${address}:${port}`

const shown = new WeakMap<Upstream, string>()
/** `address:port` remembered per upstream: every answer names its resolver. */
export const show = (u: Upstream): string => {
  let text = shown.get(u)
  if (text === undefined) {
    text = showAddress(u.address, u.port)
    shown.set(u, text)
  }
  return text
}
