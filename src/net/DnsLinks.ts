/**
 * Which transport carries a query to an upstream: UDP (RFC 1035 4.2.1) while few are outstanding,
 * and, once an upstream has PIPE_AFTER queries outstanding over UDP, one pipelined TCP connection
 * (DnsPipe.ts) for every query to it until that connection falls idle. A lone question pays no
 * TCP handshake; bulk work pays a system call per burst rather than two per query.
 */
import type { Upstream } from "../Config.ts"
import { DnsPipe } from "./DnsPipe.ts"
import { type Question, show, type Waiter } from "./DnsTransport.ts"
import { UdpPool } from "./DnsUdp.ts"

/** Queries outstanding over UDP to one upstream from which the next goes over a pipelined connection. */
export const PIPE_AFTER = 16

export class DnsLinks {
  private readonly udp = new UdpPool()
  private readonly pipes = new Map<string, DnsPipe>()

  /** `pipelined` false keeps every query on UDP (and TCP only for truncated replies). */
  constructor(private readonly pipelined = true) {}

  send(upstream: Upstream, q: Question, timeoutMs: number, waiter: Waiter): void {
    if (!this.pipelined) return this.udp.send(upstream, q, timeoutMs, waiter)
    const key = show(upstream)
    let pipe = this.pipes.get(key)
    if (pipe?.open) return pipe.send(q, timeoutMs, waiter)
    if (this.udp.outstanding(upstream) < PIPE_AFTER) return this.udp.send(upstream, q, timeoutMs, waiter)
    if (!pipe) {
      pipe = new DnsPipe(upstream, (fq, ft, fw) => this.udp.send(upstream, fq, ft, fw))
      this.pipes.set(key, pipe)
    }
    pipe.send(q, timeoutMs, waiter)
  }

  close() {
    this.udp.close()
    for (const pipe of this.pipes.values()) pipe.close()
    this.pipes.clear()
  }
}
