/**
 * One DNS exchange settles once (net/DnsTransport.ts settleOnce): whatever arrives first of a reply,
 * a failure or the deadline is what the caller hears, the socket is closed once, and the rest is
 * dropped. Timers are faked: no test waits on the clock.
 */
import fc from "fast-check"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { settleOnce, type TransportFailure } from "../../src/net/DnsTransport.ts"

const failure = (message: string): TransportFailure => ({ reason: "network", message })

describe("settleOnce", () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  it("tells the caller the first settlement only, and closes once", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 6 }), (messages) => {
        const heard: Array<TransportFailure | undefined> = []
        let closed = 0
        const settle = settleOnce(
          (f) => heard.push(f),
          () => closed++,
          1000,
          () => ({ reason: "timeout", message: "late" })
        )
        for (const m of messages) settle(failure(m))
        vi.advanceTimersByTime(2000)
        expect(heard).toEqual([failure(messages[0]!)])
        expect(closed).toBe(1)
      })
    )
  })

  it("at the deadline, says what timedOut says then", () => {
    let malformed: string | undefined
    const heard: Array<TransportFailure | undefined> = []
    settleOnce(
      (f) => heard.push(f),
      () => undefined,
      1000,
      () => (malformed ? { reason: "malformed", message: malformed } : { reason: "timeout", message: "none" })
    )
    malformed = "bad label"
    vi.advanceTimersByTime(999)
    expect(heard).toEqual([])
    vi.advanceTimersByTime(1)
    expect(heard).toEqual([{ reason: "malformed", message: "bad label" }])
  })
})
