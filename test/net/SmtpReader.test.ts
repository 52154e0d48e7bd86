import { describe, expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import fc from "fast-check"
import { EventEmitter } from "node:events"
import { ReplyReader } from "../../src/net/SmtpReader.ts"

/** Feeds `text` to a reader in the given chunk sizes and reads one reply. */
const readOne = (text: string, cuts: ReadonlyArray<number>, end = false) =>
  Effect.gen(function* () {
    const socket = new EventEmitter()
    const reader = new ReplyReader("banner")
    reader.attach(socket as any)
    const bytes = Buffer.from(text, "latin1")
    let at = 0
    for (const cut of cuts) {
      if (at >= bytes.length) break
      socket.emit("data", bytes.subarray(at, at + cut))
      at += cut
    }
    if (at < bytes.length) socket.emit("data", bytes.subarray(at))
    if (end) socket.emit("end")
    return yield* Effect.either(reader.next("ehlo"))
  })

const line = fc.stringMatching(/^[ -~]{0,40}$/)

describe("ReplyReader (RFC 5321 4.2)", () => {
  it.effect("reads a multi-line reply however the bytes are chunked (property)", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 200, max: 599 }),
          fc.array(line, { minLength: 1, maxLength: 6 }),
          fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 60 }),
          async (code, lines, cuts) => {
            const text = lines.map((l, i) => `${code}${i === lines.length - 1 ? " " : "-"}${l}\r\n`).join("")
            const got = await Effect.runPromise(readOne(text, cuts))
            expect(Either.isRight(got)).toBe(true)
            if (Either.isRight(got)) {
              expect(got.right.code).toBe(code)
              expect(got.right.lines).toEqual(lines)
            }
          }
        )
      )
    )
  )

  it.effect("never throws on garbage: a non-reply line is a protocol failure at the stage", () =>
    Effect.promise(() =>
      fc.assert(
        fc.asyncProperty(fc.string({ maxLength: 200 }), async (garbage) => {
          const got = await Effect.runPromise(readOne(`${garbage}\n`, [], true))
          if (Either.isLeft(got)) {
            expect(got.left.stage).toBe("ehlo")
            expect(["protocol", "closed"]).toContain(got.left.reason)
          } else expect(got.right.code).toBeGreaterThanOrEqual(0)
        })
      )
    )
  )

  it.effect("a connection closed mid-reply is `closed`, and a bare LF ends a line", () =>
    Effect.gen(function* () {
      const closed = yield* readOne("250-first\r\n", [], true)
      expect(Either.isLeft(closed) && closed.left.reason).toBe("closed")
      const lf = yield* readOne("220 hi\n", [])
      expect(Either.isRight(lf) && lf.right.lines).toEqual(["hi"])
    })
  )
})
