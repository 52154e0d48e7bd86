/**
 * A scriptable DNS server on loopback (UDP and TCP on the same port) for Resolver unit tests.
 * `handler` sees each query and the transport, and returns the reply packet (or undefined to stay
 * silent, simulating a timeout); `raw` may return bytes to send as they are (spoofing tests).
 */
import * as dgram from "node:dgram"
import * as net from "node:net"
import * as DnsPacket from "dns-packet"
import { Effect } from "effect"

export type Reply = DnsPacket.Packet | { readonly raw: ReadonlyArray<Buffer> } | undefined

export interface FakeServer {
  readonly port: number
  readonly queries: Array<{ readonly transport: "udp" | "tcp"; readonly packet: DnsPacket.DecodedPacket }>
}

export const reply = (
  query: DnsPacket.DecodedPacket,
  answers: ReadonlyArray<DnsPacket.Answer>,
  extra: Partial<DnsPacket.Packet> & { rcode?: string } = {}
): DnsPacket.Packet =>
  ({
    type: "response",
    id: query.id,
    flags: DnsPacket.RECURSION_AVAILABLE | DnsPacket.RECURSION_DESIRED,
    questions: query.questions,
    answers: [...answers],
    ...extra
  }) as DnsPacket.Packet

const encodeReply = (r: DnsPacket.Packet & { rcode?: string }) => {
  const buf = DnsPacket.encode(r)
  if (r.rcode) {
    const codes: Record<string, number> = {
      NOERROR: 0,
      FORMERR: 1,
      SERVFAIL: 2,
      NXDOMAIN: 3,
      NOTIMP: 4,
      REFUSED: 5
    }
    buf.writeUInt16BE((buf.readUInt16BE(2) & 0xfff0) | (codes[r.rcode] ?? 0), 2)
  }
  return buf
}

/** Starts the server in the test's scope; it stops when the scope closes. */
export const fakeDnsServer = (handler: (query: DnsPacket.DecodedPacket, transport: "udp" | "tcp") => Reply) =>
  Effect.acquireRelease(
    Effect.async<{ server: FakeServer; close: () => void }>((resume) => {
      const queries: FakeServer["queries"] = []
      const answerTcp = (socket: net.Socket) => {
        let buffered = Buffer.alloc(0)
        socket.on("data", (chunk) => {
          buffered = Buffer.concat([buffered, chunk])
          // Every whole query that has arrived: a client may pipeline them (RFC 7766 6.2.1.1).
          while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
            const query = DnsPacket.decode(buffered.subarray(2, 2 + buffered.readUInt16BE(0)))
            buffered = buffered.subarray(2 + buffered.readUInt16BE(0))
            queries.push({ transport: "tcp", packet: query })
            const r = handler(query, "tcp")
            if (!r) continue
            for (const msg of "raw" in r ? r.raw : [encodeReply(r)]) {
              const framed = Buffer.alloc(2)
              framed.writeUInt16BE(msg.length)
              socket.write(Buffer.concat([framed, msg]))
            }
          }
        })
        socket.on("error", () => {})
      }
      // UDP and TCP must share a port: when the TCP side of a random UDP port is taken, try another.
      const attempt = (triesLeft: number) => {
        const udp = dgram.createSocket("udp4")
        const tcp = net.createServer(answerTcp)
        udp.on("message", (msg, rinfo) => {
          const query = DnsPacket.decode(msg)
          queries.push({ transport: "udp", packet: query })
          const r = handler(query, "udp")
          if (!r) return
          for (const m of "raw" in r ? r.raw : [encodeReply(r)]) udp.send(m, rinfo.port, rinfo.address)
        })
        udp.bind(0, "127.0.0.1", () => {
          const port = udp.address().port
          tcp.once("error", (err) => {
            udp.close()
            if (triesLeft > 0) attempt(triesLeft - 1)
            else throw err
          })
          tcp.listen(port, "127.0.0.1", () =>
            resume(
              Effect.succeed({
                server: { port, queries },
                close: () => {
                  udp.close()
                  tcp.close()
                }
              })
            )
          )
        })
      }
      attempt(20)
    }),
    ({ close }) => Effect.sync(close)
  ).pipe(Effect.map(({ server }) => server))
