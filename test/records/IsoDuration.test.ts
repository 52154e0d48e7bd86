/** ISO 8601 durations for monitor intervals: fixed-length units only, round trip through the shortest spelling. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { formatEvery, parseEvery } from "../../src/records/IsoDuration.ts"

describe("parseEvery", () => {
  it.each([
    ["PT15M", 900_000],
    ["PT1H", 3_600_000],
    ["P1D", 86_400_000],
    ["P1W", 604_800_000],
    ["PT90S", 90_000],
    ["P1DT2H30M", 95_400_000],
    ["pt10s", 10_000],
    ["PT1.5S", 1_500]
  ])("%s is %i ms", (text, ms) => expect(parseEvery(text)).toEqual({ ms }))

  it.each(["", "P", "PT", "P1DT", "P1M", "P1Y", "PT-5M", "PT0S", "15m", "PT1H junk", "P1W2D"])(
    "refuses %j",
    (text) => expect(parseEvery(text)).toHaveProperty("error")
  )

  it("formatEvery gives back a spelling that parses to the same length", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (seconds) => {
        const text = formatEvery(seconds * 1000)
        expect(parseEvery(text)).toEqual({ ms: seconds * 1000 })
      })
    )
  })

  it("formats the usual intervals as people write them", () => {
    expect(formatEvery(900_000)).toBe("PT15M")
    expect(formatEvery(86_400_000 + 7_200_000)).toBe("P1DT2H")
    expect(formatEvery(10_000)).toBe("PT10S")
  })
})
