import { HttpServerError } from "@effect/platform"
import { describe, expect, it } from "vitest"
import { describeFailure } from "../../src/cli/Run.ts"

describe("what the command line says of a failure", () => {
  it("is the failure's message, or its cause's when its own is empty (a port in use)", () => {
    const inUse = Object.assign(new Error("listen EADDRINUSE: address already in use 127.0.0.1:8080"), {
      code: "EADDRINUSE"
    })
    expect(describeFailure(new HttpServerError.ServeError({ cause: inUse }))).toBe(
      "listen EADDRINUSE: address already in use 127.0.0.1:8080"
    )
    expect(describeFailure(new Error("the batch file cannot be read"))).toBe("the batch file cannot be read")
    expect(describeFailure("plain")).toBe("plain")
  })
})
