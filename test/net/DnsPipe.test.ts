/**
 * The pipelined TCP connection (RFC 7766 6.2.1.1) against a scripted loopback server: the queries
 * of one turn go out in one write on one connection, replies are matched by id in any order and in
 * any pieces, a reply to another question is skipped (RFC 5452 9.1), and when the connection is
 * refused or closed under its queries they go to the fallback with the time they have left.
 */
import * as net from "node:net"
import * as DnsPacket from "dns-packet"
import fc from "fast-check"
import { afterEach, describe, expect, it } from "vitest"
import type { DecodedReply } from "../../src/net/DnsDecode.ts"
import { DnsPipe } from "../../src/net/DnsPipe.ts"
import type { Question, TransportFailure, Waiter } from "../../src/net/DnsTransport.ts"
import { runs } from "../support/runs.ts"

const q = (i: number): Question => ({ name: `h${i}.example.com`, type: "A", checkingDisabled: false })

/** The reply to `query`, its A record's last octet `i`; `name` for a reply to another question. */
const answer = (query: DnsPacket.DecodedPacket, i: number, name = query.questions![0]!.name) =>
  DnsPacket.encode({
    type: "response",
    id: query.id,
    flags: DnsPacket.RECURSION_AVAILABLE | DnsPacket.RECURSION_DESIRED,
    questions: [{ type: "A", name, class: "IN" }],
    answers: [{ type: "A", name, ttl: 60, data: `192.0.2.${i}` }]
  })

const framed = (msgs: ReadonlyArray<Buffer>) =>
  Buffer.concat(msgs.flatMap((m) => [Buffer.from([m.length >> 8, m.length & 0xff]), m]))

const servers: Array<net.Server> = []
afterEach(() => {
  for (const s of servers.splice(0)) s.close()
})

/**
 * A TCP server that collects framed queries; once `count` have arrived on a connection it calls
 * `act` with them. It counts connections and the reads it took.
 */
const serve = (count: number, act: (socket: net.Socket, queries: Array<DnsPacket.DecodedPacket>) => void) =>
  new Promise<{ port: number; connections: () => number; reads: () => number }>((resolve) => {
    let connections = 0
    let reads = 0
    const server = net.createServer((socket) => {
      connections++
      socket.on("error", () => {})
      let buffered = Buffer.alloc(0)
      const queries: Array<DnsPacket.DecodedPacket> = []
      socket.on("data", (chunk) => {
        reads++
        buffered = Buffer.concat([buffered, chunk])
        while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
          queries.push(DnsPacket.decode(buffered.subarray(2, 2 + buffered.readUInt16BE(0))))
          buffered = buffered.subarray(2 + buffered.readUInt16BE(0))
        }
        if (queries.length === count) act(socket, queries.splice(0))
      })
    })
    servers.push(server)
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        connections: () => connections,
        reads: () => reads
      })
    )
  })

type Outcome = { failure: TransportFailure | undefined; reply: DecodedReply | undefined }

/** Asks `n` questions over a pipe to `port` in one turn; what each heard, and what went to the fallback. */
const ask = (port: number, n: number, timeoutMs = 2000) => {
  const fallen: Array<Question> = []
  const pipe = new DnsPipe({ address: "127.0.0.1", port }, (fq, _t, w) => {
    fallen.push(fq)
    w.settle({ reason: "network", message: "fell back" }, undefined)
  })
  const outcomes = Array.from(
    { length: n },
    (_, i) =>
      new Promise<Outcome>((resolve) => {
        const waiter: Waiter = { settle: (failure, reply) => resolve({ failure, reply }) }
        pipe.send(q(i), timeoutMs, waiter)
      })
  )
  return { pipe, fallen, outcomes: Promise.all(outcomes) }
}

describe("DnsPipe", () => {
  it("sends a turn's queries in one write on one connection, and matches replies in any order and pieces", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: 30 })
          .chain((n) =>
            fc.tuple(
              fc.constant(n),
              fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
              fc.array(fc.integer({ min: 1, max: 4000 }), { maxLength: 6 })
            )
          ),
        async ([n, order, cuts]) => {
          const server = await serve(n, (socket, queries) => {
            const bytes = framed(order.map((i) => answer(queries[i]!, i)))
            const at = [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b)
            const pieces = [0, ...at, bytes.length].flatMap((start, k, all) =>
              k < all.length - 1 && all[k + 1]! > start ? [bytes.subarray(start, all[k + 1])] : []
            )
            const next = () => {
              const piece = pieces.shift()
              if (piece) socket.write(piece, () => setTimeout(next, 1))
            }
            next()
          })
          const { pipe, fallen, outcomes } = ask(server.port, n)
          const heard = await outcomes
          pipe.close()
          expect(fallen).toEqual([])
          expect(server.connections()).toBe(1)
          expect(server.reads()).toBe(1)
          heard.forEach((h, i) => {
            expect(h.failure).toBeUndefined()
            expect(h.reply!.answers.map((r) => r.data)).toEqual([`192.0.2.${i}`])
          })
        }
      ),
      { numRuns: runs(15) }
    )
  })

  it("skips a reply to another question and keeps waiting for the right one", async () => {
    const server = await serve(1, (socket, [query]) => {
      socket.write(framed([answer(query!, 9, "other.example.com"), answer(query!, 1)]))
    })
    const { pipe, outcomes } = ask(server.port, 1)
    const [heard] = await outcomes
    pipe.close()
    expect(heard!.reply!.answers.map((r) => r.data)).toEqual(["192.0.2.1"])
  })

  it("hands the queries of a connection closed under them to the fallback, and then stays off TCP", async () => {
    const server = await serve(3, (socket, queries) => {
      socket.write(framed([answer(queries[0]!, 0)]))
      socket.end()
    })
    const { pipe, fallen, outcomes } = ask(server.port, 3)
    const heard = await outcomes
    expect(heard[0]!.reply!.answers.map((r) => r.data)).toEqual(["192.0.2.0"])
    expect(fallen).toEqual([q(1), q(2)])
    // a server that closes mid-pipeline: UDP only for a while
    expect(pipe.usable).toBe(false)
    pipe.close()
  })

  it("sends everything to the fallback when the upstream refuses TCP", async () => {
    const port = await serve(1, () => {}).then((s) => {
      servers.pop()!.close()
      return s.port
    })
    const { pipe, fallen, outcomes } = ask(port, 2)
    await outcomes
    expect(fallen).toEqual([q(0), q(1)])
    expect(pipe.usable).toBe(false)
    pipe.close()
  })

  it("a silent upstream's queries time out; a connection that delivered nothing for a second is given up", async () => {
    const server = await serve(1, () => {})
    const { pipe, outcomes } = ask(server.port, 1, 100)
    const [heard] = await outcomes
    expect(heard!.failure).toMatchObject({ reason: "timeout" })
    expect(heard!.failure!.message).toContain("TCP 127.0.0.1")
    // 100 ms of silence is not yet a stall
    expect(pipe.usable).toBe(true)
    const late = ask(server.port, 1, 1_100)
    expect((await late.outcomes)[0]!.failure).toMatchObject({ reason: "timeout" })
    expect(late.pipe.usable).toBe(false)
    late.pipe.close()
    pipe.close()
  })
})
