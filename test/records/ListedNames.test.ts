/** The names an owner lists for the takeover check: normalised, bounded, under the domain. */
import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isUnder, MAX_LISTED_NAMES, nameOutside, parseListedNames } from "../../src/records/ListedNames.ts"

// No "--": an xn-- label must be a valid IDN, which random text is not.
const label = fc.stringMatching(/^[a-z0-9]([a-z0-9]-?){0,8}[a-z0-9]$/)

describe("listed names", () => {
  it("normalises as the domain parameter does, drops duplicates and empty items, sorts", () => {
    expect(parseListedNames(" Shop.Example.com., status.example.com,,shop.example.com ,")).toEqual(
      Either.right(["shop.example.com", "status.example.com"])
    )
    expect(parseListedNames(["https://docs.example.com/path", "bücher.example.com"])).toEqual(
      Either.right(["docs.example.com", "xn--bcher-kva.example.com"])
    )
    expect(parseListedNames("")).toEqual(Either.right([]))
  })

  it("refuses what is not a host name, naming it", () => {
    const bad = parseListedNames("shop.example.com,not..valid")
    expect(Either.isLeft(bad) && bad.left).toMatch(
      /^names: 'not\.\.valid' is not a host name \(it has an empty label\)$/
    )
    expect(Either.getLeft(parseListedNames("127.0.0.1"))._tag).toBe("Some")
  })

  it(`refuses more than ${MAX_LISTED_NAMES} distinct names, but counts duplicates once`, () => {
    const names = (n: number) => Array.from({ length: n }, (_, i) => `n${i}.example.com`)
    expect(Either.isRight(parseListedNames(names(MAX_LISTED_NAMES).join(",")))).toBe(true)
    expect(Either.isRight(parseListedNames([...names(MAX_LISTED_NAMES), ...names(MAX_LISTED_NAMES)]))).toBe(
      true
    )
    expect(parseListedNames(names(MAX_LISTED_NAMES + 1))).toEqual(
      Either.left(`names: at most ${MAX_LISTED_NAMES} names may be listed`)
    )
  })

  it("takes the domain itself and names under it, nothing else", () => {
    expect(nameOutside("example.com", ["example.com", "a.b.example.com"])).toBeNull()
    expect(nameOutside("example.com", ["shop.example.com", "badexample.com"])).toMatch(
      /^names: 'badexample\.com' is not example\.com or a name under it/
    )
    expect(isUnder("shop.example.com", "example.com")).toBe(false)
  })

  it("is idempotent, sorted, unique and bounded for any list of names", () => {
    fc.assert(
      fc.property(fc.array(fc.array(label, { minLength: 1, maxLength: 3 }), { maxLength: 30 }), (lists) => {
        const raw = lists.map((labels) => `${labels.join(".")}.example.com`)
        const parsed = parseListedNames(raw)
        if (Either.isLeft(parsed)) {
          expect(new Set(raw).size).toBeGreaterThan(MAX_LISTED_NAMES)
          return
        }
        const names = parsed.right
        expect(names.length).toBe(new Set(raw).size)
        expect([...names].sort()).toEqual(names)
        expect(parseListedNames(names.join(","))).toEqual(Either.right(names))
        expect(nameOutside("example.com", names)).toBeNull()
      })
    )
  })
})
