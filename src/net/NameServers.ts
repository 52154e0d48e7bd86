/**
 * NameServers: one DNS question sent straight to one name server's address, not through the
 * recursive resolver, over UDP or TCP and with or without RD (RFC 1035 4.1.1). The name-server
 * check asks each server of a zone itself whether it answers authoritatively, what serial and NS
 * set it serves, whether TCP works and whether it recurses for strangers; a resolver answer would
 * hide all of that.
 *
 * Every reply is checked against its question (`acceptReply`, RFC 5452 9.1); TCP goes through the
 * Resolver's own exchange (`tcpExchange`, DnsTcp.ts). The address policy (Targets.ts) applies as
 * for every outbound connection: a name server in a private or loopback range is not contacted
 * unless ALLOW_TARGETS covers it. No cache and no retry: the check wants
 * what this server says now, once; a question that gets no reply in NS_QUERY_TIMEOUT_MS is a
 * `timeout` DnsError (unknown), never a negative answer.
 */
import * as dgram from "node:dgram"
import * as net from "node:net"
import * as DnsPacket from "dns-packet"
import { Effect, Layer } from "effect"
import { AppConfig } from "../Config.ts"
import { parseAllowList } from "../records/IpAddress.ts"
import type { DecodedReply } from "./DnsDecode.ts"
import { tcpExchange } from "./DnsTcp.ts"
import {
  acceptReply,
  ednsOpt,
  type Question,
  randomId,
  settleOnce,
  showAddress,
  type TransportFailure
} from "./DnsTransport.ts"
import { DnsError, type DnsRecord, type RecordType } from "./DnsTypes.ts"
import { vetText } from "./Targets.ts"

export interface DirectQuestion {
  readonly name: string
  readonly type: RecordType
  /** Set RD: ask the server to recurse (the open-recursion probe); an authoritative question has it clear. */
  readonly recursionDesired: boolean
  readonly transport: "udp" | "tcp"
}

/** A server's reply as it came, whatever its rcode: REFUSED or SERVFAIL from a lame server is a finding. */
export interface DirectReply {
  readonly server: string
  readonly rcode: string
  readonly aa: boolean
  readonly ra: boolean
  readonly tc: boolean
  readonly answers: ReadonlyArray<DnsRecord>
  readonly authority: ReadonlyArray<DnsRecord>
  readonly elapsedMs: number
}

/** The query packet: RD as asked, EDNS0 (RFC 6891) without DO: the check reads no signatures. */
const encode = (id: number, q: DirectQuestion): Buffer =>
  DnsPacket.encode({
    type: "query",
    id,
    flags: q.recursionDesired ? DnsPacket.RECURSION_DESIRED : 0,
    questions: [{ type: q.type as DnsPacket.RecordType, name: q.name, class: "IN" }],
    additionals: [ednsOpt(false)]
  })

const shown = (address: string) => showAddress(address, 53)

type Settle = (
  failure: { reason: DnsError["reason"]; message: string } | undefined,
  reply?: DecodedReply
) => void

const overUdp = (
  address: string,
  id: number,
  packet: Buffer,
  q: Question,
  timeoutMs: number,
  done: Settle
) => {
  const socket = dgram.createSocket(net.isIPv6(address) ? "udp6" : "udp4")
  let malformed: string | undefined
  const finish = settleOnce(
    done,
    () => socket.close(),
    timeoutMs,
    (): TransportFailure =>
      malformed
        ? { reason: "malformed", message: `malformed reply from ${shown(address)}: ${malformed}` }
        : { reason: "timeout", message: `no reply from ${shown(address)} within ${timeoutMs} ms` }
  )
  socket.on("error", (err) => finish({ reason: "network", message: `${shown(address)}: ${err.message}` }))
  socket.on("message", (msg, rinfo) => {
    if (rinfo.port !== 53) return
    const verdict = acceptReply(msg, id, q)
    if (!verdict) return
    if ("malformed" in verdict) malformed = verdict.malformed
    else finish(undefined, verdict.packet)
  })
  socket.connect(53, address, (err?: Error) => {
    if (err) return finish({ reason: "network", message: `${shown(address)}: ${err.message}` })
    socket.send(packet)
  })
}

/** The live service: each question once, over the transport asked, within NS_QUERY_TIMEOUT_MS. */
const makeLive = Effect.gen(function* () {
  const config = yield* AppConfig
  const allowed = parseAllowList(config.allowTargets)
  const allow = allowed.ok ? allowed.cidrs : []
  const timeoutMs = Math.max(1, config.nsQueryTimeoutMs)
  const ask = (address: string, q: DirectQuestion): Effect.Effect<DirectReply, DnsError> => {
    const verdict = vetText(address, allow)
    if (!verdict.ok)
      return Effect.fail(
        new DnsError({
          name: q.name,
          type: q.type,
          reason: "other",
          message: `${address} is not contacted (${verdict.refusal} address)`
        })
      )
    return Effect.async<DirectReply, DnsError>((resume) => {
      const began = performance.now()
      const id = randomId()
      const question: Question = { name: q.name, type: q.type, checkingDisabled: false }
      let packet: Buffer
      try {
        packet = encode(id, q)
      } catch (e) {
        return resume(
          Effect.fail(new DnsError({ name: q.name, type: q.type, reason: "other", message: String(e) }))
        )
      }
      const settle: Settle = (failure, reply) =>
        resume(
          failure || !reply
            ? Effect.fail(
                new DnsError({
                  name: q.name,
                  type: q.type,
                  reason: failure?.reason ?? "network",
                  message: failure?.message ?? `no reply from ${shown(address)}`
                })
              )
            : Effect.succeed({
                server: shown(address),
                rcode: reply.rcode,
                aa: reply.aa,
                ra: reply.ra,
                tc: reply.tc,
                answers: reply.answers,
                authority: reply.authority,
                elapsedMs: Math.round(performance.now() - began)
              })
        )
      if (q.transport === "tcp") tcpExchange({ address, port: 53, packet, id, question, timeoutMs }, settle)
      else overUdp(address, id, packet, question, timeoutMs, settle)
    })
  }
  return { ask }
})

export class NameServers extends Effect.Service<NameServers>()("NameServers", {
  effect: makeLive,
  dependencies: [AppConfig.Default]
}) {
  /** A fake answering from `answer(address, question)`; undefined is a timeout. */
  static Test = (answer: (address: string, q: DirectQuestion) => DirectReply | undefined) =>
    Layer.succeed(
      NameServers,
      NameServers.make({
        ask: (address, q) => {
          const reply = answer(address, q)
          return reply
            ? Effect.succeed(reply)
            : Effect.fail(
                new DnsError({
                  name: q.name,
                  type: q.type,
                  reason: "timeout",
                  message: `no reply from ${address}`
                })
              )
        }
      })
    )
}
