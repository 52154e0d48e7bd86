import * as fc from "fast-check"
import * as zlib from "node:zlib"
import { describe, expect, it } from "vitest"
import { decodeContentEncoding } from "../../src/net/WebContentEncoding.ts"

const encoders: Record<string, (b: Buffer) => Buffer> = {
  gzip: (b) => zlib.gzipSync(b),
  deflate: (b) => zlib.deflateSync(b),
  br: (b) => zlib.brotliCompressSync(b)
}
const encoding = fc.constantFrom("gzip", "deflate", "br")

describe("decodeContentEncoding (RFC 9110 8.4.1)", () => {
  it("undoes gzip, deflate and br exactly when the result fits the cap (property)", () =>
    fc.assert(
      fc.property(encoding, fc.uint8Array({ maxLength: 4096 }), (enc, bytes) => {
        const out = decodeContentEncoding(
          encoders[enc]!(Buffer.from(bytes)),
          ` ${enc.toUpperCase()} `,
          4096,
          false
        )
        expect(out).toEqual({ body: new Uint8Array(bytes), truncated: false })
      })
    ))

  it("never inflates past the cap: too-large, or cut at the cap when lenient and within 4x (property)", () =>
    fc.assert(
      fc.property(
        encoding,
        fc.integer({ min: 1, max: 2048 }),
        fc.constantFrom(2, 4, 64),
        fc.boolean(),
        (enc, cap, factor, lenient) => {
          const bomb = encoders[enc]!(Buffer.alloc(cap * factor, 0x61))
          const out = decodeContentEncoding(bomb, enc, cap, lenient)
          if (lenient && factor <= 4)
            expect(out).toEqual({ body: new Uint8Array(cap).fill(0x61), truncated: true })
          else expect(out).toBe("too-large")
        }
      )
    ))

  it("answers bad, never throws, for arbitrary bytes and encodings (property)", () =>
    fc.assert(
      fc.property(
        fc.oneof(encoding, fc.string()),
        fc.uint8Array({ maxLength: 512 }),
        fc.boolean(),
        (enc, bytes, lenient) => {
          const out = decodeContentEncoding(Buffer.from(bytes), enc, 1024, lenient)
          if (typeof out === "object")
            expect(out.body.length).toBeLessThanOrEqual(Math.max(1024, bytes.length))
          else expect(["bad", "too-large"]).toContain(out)
        }
      )
    ))

  it("passes identity and an absent encoding through", () => {
    expect(decodeContentEncoding(Buffer.from("hi"), "", 10, false)).toEqual({
      body: new Uint8Array(Buffer.from("hi")),
      truncated: false
    })
    expect(decodeContentEncoding(Buffer.from("hi"), "Identity", 10, false)).toMatchObject({
      truncated: false
    })
    expect(decodeContentEncoding(Buffer.from("hi"), "compress", 10, false)).toBe("bad")
  })
})
