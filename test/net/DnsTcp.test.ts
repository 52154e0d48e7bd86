/**
 * One DNS exchange over TCP (RFC 7766, RFC 1035 4.2.2 framing) against a scripted loopback server:
 * the reply may come in any pieces, replies to other questions are skipped (RFC 5452 9.1), and a
 * silent, closing or garbling server ends in a failure, never an answer.
 */
import * as net from "node:net"
import * as DnsPacket from "dns-packet"
import fc from "fast-check"
import { afterEach, describe, expect, it } from "vitest"
import type { DecodedReply } from "../../src/net/DnsDecode.ts"
import { tcpExchange } from "../../src/net/DnsTcp.ts"
import { queryPacket, type Question, type TransportFailure } from "../../src/net/DnsTransport.ts"
import { runs } from "../support/runs.ts"

const question: Question = { name: "example.com", type: "A", checkingDisabled: false }
const ID = 0x4242

/** The reply to our query with one A record, or with another id or question (a stray). */
const answer = (overrides: { id?: number; name?: string; data?: string } = {}) => {
  const name = overrides.name ?? "example.com"
  return DnsPacket.encode({
    type: "response",
    id: overrides.id ?? ID,
    flags: DnsPacket.RECURSION_AVAILABLE | DnsPacket.RECURSION_DESIRED,
    questions: [{ type: "A", name, class: "IN" }],
    answers: [{ type: "A", name, ttl: 60, data: overrides.data ?? "192.0.2.1" }]
  })
}

const framed = (msgs: ReadonlyArray<Buffer>) =>
  Buffer.concat(msgs.flatMap((m) => [Buffer.from([m.length >> 8, m.length & 0xff]), m]))

const servers: Array<net.Server> = []
afterEach(() => {
  for (const s of servers.splice(0)) s.close()
})

/** A TCP server that, once the query has arrived, does `act` with the socket. */
const serve = (act: (socket: net.Socket) => void) =>
  new Promise<number>((resolve) => {
    const server = net.createServer((socket) => {
      socket.on("error", () => {})
      socket.once("data", () => act(socket))
    })
    servers.push(server)
    server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port))
  })

const exchange = (port: number, timeoutMs = 2000) =>
  new Promise<{ failure: TransportFailure | undefined; reply: DecodedReply | undefined }>((resolve) =>
    tcpExchange(
      { address: "127.0.0.1", port, packet: queryPacket(ID, question), id: ID, question, timeoutMs },
      (failure, reply) => resolve({ failure, reply })
    )
  )

/** Writes `bytes` cut at `cuts`, one piece per turn of the event loop. */
const writeInPieces = (socket: net.Socket, bytes: Buffer, cuts: ReadonlyArray<number>) => {
  const at = [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b)
  const pieces = [0, ...at, bytes.length].flatMap((start, i, all) =>
    i + 1 < all.length && all[i + 1]! > start ? [bytes.subarray(start, all[i + 1])] : []
  )
  const next = () => {
    const piece = pieces.shift()
    if (piece) socket.write(piece, () => setTimeout(next, 1))
  }
  next()
}

describe("tcpExchange", () => {
  it("takes the genuine reply however the stream is cut, after replies to other questions", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(400), { maxLength: 6 }), fc.boolean(), async (cuts, strays) => {
        const stream = framed([
          ...(strays ? [answer({ id: ID + 1, data: "6.6.6.6" }), answer({ name: "evil.com" })] : []),
          answer()
        ])
        const port = await serve((socket) => writeInPieces(socket, stream, cuts))
        const { failure, reply } = await exchange(port)
        expect(failure).toBeUndefined()
        expect(reply?.answers.map((r) => r.data)).toEqual(["192.0.2.1"])
      }),
      { numRuns: runs(15) }
    )
  })

  it("sends the query with its two-octet length", async () => {
    let received: Buffer | undefined
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer((socket) =>
        socket.once("data", (chunk) => {
          received = chunk
          socket.end(framed([answer()]))
        })
      )
      servers.push(server)
      server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port))
    })
    await exchange(port)
    const packet = queryPacket(ID, question)
    expect(received).toEqual(framed([packet]))
  })

  it("reports a garbled reply with our id as malformed", async () => {
    const garbage = Buffer.concat([answer().subarray(0, 12), Buffer.from([0xff, 0xff, 0xff])])
    const port = await serve((socket) => socket.write(framed([garbage])))
    const { failure, reply } = await exchange(port)
    expect(reply).toBeUndefined()
    expect(failure?.reason).toBe("malformed")
    expect(failure?.message).toContain(`127.0.0.1:${port}`)
  })

  it("a silent server is a timeout", async () => {
    const port = await serve(() => {})
    const { failure } = await exchange(port, 150)
    expect(failure).toEqual({
      reason: "timeout",
      message: `no TCP reply from 127.0.0.1:${port} within 150 ms`
    })
  })

  it("a server closing after a stray reply is a network failure, never an answer", async () => {
    const port = await serve((socket) => socket.end(framed([answer({ id: ID ^ 0xffff })])))
    const { failure, reply } = await exchange(port)
    expect(reply).toBeUndefined()
    expect(failure?.reason).toBe("network")
  })

  it("a refused connection is a network failure", async () => {
    const port = await serve(() => {})
    servers.splice(0).forEach((s) => s.close())
    const { failure } = await exchange(port)
    expect(failure?.reason).toBe("network")
  })
})
