import { describe, expect, it } from "vitest"
import { QueueClock } from "../../src/bounds/QueueClock.ts"

describe("QueueClock", () => {
  it("counts the wall time during which at least one wait was under way, once", () => {
    const clock = new QueueClock()
    clock.enter(0)
    clock.enter(10)
    clock.leave(30)
    expect(clock.ms(35)).toBe(35)
    clock.leave(40)
    clock.enter(100)
    clock.leave(110)
    expect(clock.ms(500)).toBe(50)
  })

  it("forwards its waits to a follower only while it follows, a wait under way included", () => {
    const probe = new QueueClock()
    const scan = new QueueClock()
    probe.enter(0)
    // joins 20 ms into the probe's wait: counts from then
    const stop = probe.forward(scan, 20)
    probe.leave(50)
    expect(scan.ms(60)).toBe(30)
    // the probe works: nothing counts
    probe.enter(100)
    // the scan stops following during the probe's second wait: that wait counts up to now only
    stop()
    const at = scan.ms()
    expect(at).toBeGreaterThan(30)
    probe.leave(performance.now() + 1_000)
    expect(scan.ms(performance.now() + 2_000)).toBe(scan.ms(performance.now() + 3_000))
    // stopping twice changes nothing
    stop()
    expect(scan.ms(performance.now() + 4_000)).toBe(scan.ms(performance.now() + 5_000))
  })

  it("a follower's own waits and the forwarded ones count once when they overlap", () => {
    const probe = new QueueClock()
    const scan = new QueueClock()
    probe.forward(scan, 0)
    scan.enter(0)
    probe.enter(10)
    scan.leave(20)
    probe.leave(40)
    expect(scan.ms(100)).toBe(40)
  })
})
