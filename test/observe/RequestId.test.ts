/** Request ids: a safe one sent by the client is kept; anything else is replaced by a fresh UUID. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { isSafeRequestId, requestIdOf } from "../../src/observe/RequestId.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe("requestIdOf", () => {
  it("keeps a UUID, a ULID or a trace id as sent", () => {
    for (const id of ["0b7e0a3c-5d1f-4f43-9a3b-7a1f9e4b2c11", "01HZY8Q3V2J7KXG5W9T4M6N8PR", "req:42.a_b-c"])
      expect(requestIdOf(id)).toBe(id)
  })

  it("replaces what is absent, repeated, too long or unsafe", () => {
    for (const sent of [undefined, ["a", "b"], "", "x".repeat(129), 'a"b', "a b", "a\nb", "a\u0000", "é"])
      expect(requestIdOf(sent)).toMatch(UUID)
  })

  it("always answers an id that is safe to log and echo", () => {
    fc.assert(
      fc.property(fc.option(fc.string({ maxLength: 200 }), { nil: undefined }), (sent) => {
        const id = requestIdOf(sent)
        expect(isSafeRequestId(id)).toBe(true)
        expect(id === sent || UUID.test(id)).toBe(true)
      })
    )
  })
})
