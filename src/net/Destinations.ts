/**
 * Politeness towards the servers we probe. Most domains share a few mail and web providers, so a
 * batch of many domains would otherwise open many sessions at once to the same few addresses,
 * which is slow and rude (providers throttle and blocklist such clients). One `Destinations` per
 * kind of traffic (SMTP sessions, HTTPS exchanges), for the whole process:
 *
 * - permits per destination address and per network prefix (an IPv4 /24, an IPv6 /48: the
 *   smallest blocks routed on the internet, so usually one operator's), taken narrowest first so a
 *   prefix permit is never held while waiting on a busy address;
 * - a backoff list: an address whose port did not answer (timeout, refusal) is not contacted again
 *   for `backoffMs`; later probes are answered at once with that first failure, never "missing".
 *
 * Maps hold only addresses in use (permits) or backed off (bounded, oldest dropped first), so
 * memory does not grow with the number of addresses a batch meets.
 */
import { isIPv6 } from "node:net"
import { Effect } from "effect"
import { Permits } from "../bounds/Permits.ts"
import * as M from "../observe/Metrics.ts"

export type DestinationKind = "smtp" | "https"

export interface DestinationLimits {
  readonly kind: DestinationKind
  /** Open sessions or exchanges per destination address. */
  readonly perAddress: number
  /** The same per /24 (IPv4) or /48 (IPv6). */
  readonly perPrefix: number
  /** How long a silent destination is left alone; 0 turns backoff off. */
  readonly backoffMs: number
}

/** At most this many backed-off destinations are remembered (a few MB at most). */
const BACKOFF_ENTRIES = 65_536

/** Expand an IPv6 text (`::` shorthand, embedded IPv4) into its eight 16-bit groups. */
const ipv6Groups = (text: string): Array<number> => {
  let address = text.toLowerCase().split("%")[0]!
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address)
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number]
    address = address.slice(0, v4.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = "", tail] = address.split("::")
  const part = (s: string) => (s === "" ? [] : s.split(":").map((g) => parseInt(g, 16)))
  const front = part(head)
  const back = tail === undefined ? [] : part(tail)
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back]
}

/**
 * The prefix an address is counted under: `192.0.2.0/24`, `2001:db8:1::/48`. Anything else (not
 * an address) is its own prefix, so a bound is never shared by accident.
 */
export const prefixOf = (address: string): string => {
  if (isIPv6(address)) {
    const [a, b, c] = ipv6Groups(address)
    return `${a!.toString(16)}:${b!.toString(16)}:${c!.toString(16)}::/48`
  }
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/.exec(address)
  return v4 ? `${v4[1]}.${v4[2]}.${v4[3]}.0/24` : address
}

/** Permits per key that exist only while someone holds or waits for one. */
class Gates {
  private readonly open = new Map<string, { readonly permits: Permits; users: number }>()
  constructor(private readonly size: number) {}

  around<A, E, R, E2>(
    key: string,
    effect: Effect.Effect<A, E, R>,
    deadlineAt: number,
    onTimeout: () => E2
  ): Effect.Effect<A, E | E2, R> {
    return Effect.acquireUseRelease(
      Effect.sync(() => {
        let gate = this.open.get(key)
        if (!gate) this.open.set(key, (gate = { permits: new Permits(Math.max(1, this.size)), users: 0 }))
        gate.users++
        return gate
      }),
      (gate) => gate.permits.around(effect, deadlineAt, onTimeout),
      (gate) =>
        Effect.sync(() => {
          if (--gate.users === 0) this.open.delete(key)
        })
    )
  }

  /** Keys with a holder or a waiter (tests; memory). */
  get keys(): number {
    return this.open.size
  }
}

/** Why a destination is left alone: the failure it answered with first, and until when. */
export interface Backoff<F> {
  readonly failure: F
  readonly untilMs: number
}

export class Destinations<F = unknown> {
  private readonly addresses: Gates
  private readonly prefixes: Gates
  /** Insertion order is age order: the oldest is dropped first when full. */
  private readonly silent = new Map<string, Backoff<F>>()
  private readonly labels: ReturnType<typeof M.labels>

  constructor(
    readonly limits: DestinationLimits,
    private readonly now: () => number = Date.now
  ) {
    this.addresses = new Gates(limits.perAddress)
    this.prefixes = new Gates(limits.perPrefix)
    this.labels = M.labels({ kind: limits.kind })
  }

  /**
   * Runs `effect` holding a permit for `address` and one for its prefix. A waiter gives up with
   * `onTimeout()` at `deadlineAt` (`performance.now()` ms; `Infinity` waits).
   */
  around<A, E, R, E2 = never>(
    address: string,
    effect: Effect.Effect<A, E, R>,
    deadlineAt = Infinity,
    onTimeout: () => E2 = () => undefined as never
  ): Effect.Effect<A, E | E2, R> {
    return this.addresses.around(
      address,
      this.prefixes.around(prefixOf(address), effect, deadlineAt, onTimeout),
      deadlineAt,
      onTimeout
    )
  }

  /** The failure `address:port` is backed off with, if it is; counts the refusal. */
  backedOff(address: string, port: number): F | undefined {
    const key = `${address}|${port}`
    const entry = this.silent.get(key)
    if (entry === undefined) return undefined
    if (entry.untilMs <= this.now()) {
      this.silent.delete(key)
      return undefined
    }
    M.destinationBackoffs.unsafeUpdate(1, this.labels)
    return entry.failure
  }

  /** `address:port` did not answer with `failure`: leave it alone for the backoff time. */
  backOff(address: string, port: number, failure: F): void {
    if (this.limits.backoffMs <= 0) return
    const key = `${address}|${port}`
    this.silent.delete(key)
    this.silent.set(key, { failure, untilMs: this.now() + this.limits.backoffMs })
    while (this.silent.size > BACKOFF_ENTRIES) this.silent.delete(this.silent.keys().next().value!)
  }

  /** Addresses and prefixes with a holder or a waiter, and destinations backed off (tests; memory). */
  get sizes() {
    return { addresses: this.addresses.keys, prefixes: this.prefixes.keys, backedOff: this.silent.size }
  }
}
