/**
 * Which server a probe asked, where and when: what an SMTP session's result (Smtp.ts) and a TLS
 * scan's (TlsScan.ts) both open with, and that head as it stands before the probe learns anything.
 */
import * as net from "node:net"

/** Which server was probed, where and when: what an SMTP session's and a TLS scan's results open with. */
export interface ProbedServer {
  readonly host: string
  readonly address: string
  readonly family: 4 | 6
  readonly port: number
  readonly checkedAt: string
  readonly elapsedMs: number
}

/** The head of a probe of `address` that has learnt nothing yet, started at `checkedAt`. */
export const probedServer = (host: string, address: string, port: number, checkedAt: Date): ProbedServer => ({
  host,
  address,
  family: net.isIPv6(address) ? 6 : 4,
  port,
  checkedAt: checkedAt.toISOString(),
  elapsedMs: 0
})
