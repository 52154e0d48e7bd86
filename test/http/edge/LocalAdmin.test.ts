/**
 * The machine itself: loopback and every name the request carries one this machine answers to.
 * A rebound page (its own name, now resolving to 127.0.0.1) is a remote client.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { type LocalRequest, isLocalAdmin, namesThisMachine } from "../../../src/http/edge/LocalAdmin.ts"
import { parseIp } from "../../../src/records/IpAddress.ts"

const client = (address: string) => ({ key: address, ip: parseIp(address) })
const request = (over: Partial<LocalRequest> = {}): LocalRequest => ({
  client: client("127.0.0.1"),
  host: "127.0.0.1:8080",
  forwardedHost: undefined,
  origin: undefined,
  listener: "127.0.0.1:8080",
  ...over
})
const on = { localAdmin: true, allowedHosts: ["audit.example.net"] }

describe("isLocalAdmin", () => {
  it("is loopback by a name this machine answers to", () => {
    expect(isLocalAdmin(request(), on)).toBe(true)
    expect(isLocalAdmin(request({ host: "localhost:8080", origin: "http://localhost:8080" }), on)).toBe(true)
    expect(isLocalAdmin(request({ host: "audit.example.net" }), on)).toBe(true)
    expect(
      isLocalAdmin(request({ client: client("::1"), host: "[::1]:8080", listener: "[::1]:8080" }), on)
    ).toBe(true)
  })

  it("is never a remote address, a foreign name, a foreign origin, or with LOCAL_ADMIN=false", () => {
    expect(isLocalAdmin(request({ client: client("192.0.2.1") }), on)).toBe(false)
    expect(
      isLocalAdmin(request({ client: { key: "unreadable-forwarded-for@127.0.0.1", ip: undefined } }), on)
    ).toBe(false)
    expect(
      isLocalAdmin(
        request({ host: "rebind.evil.example:18080", origin: "http://rebind.evil.example:18080" }),
        on
      )
    ).toBe(false)
    expect(isLocalAdmin(request({ host: undefined }), on)).toBe(false)
    expect(isLocalAdmin(request({ origin: "http://rebind.evil.example:8080" }), on)).toBe(false)
    expect(isLocalAdmin(request({ origin: "null" }), on)).toBe(false)
    expect(isLocalAdmin(request({ forwardedHost: "rebind.evil.example" }), on)).toBe(false)
    expect(isLocalAdmin(request(), { ...on, localAdmin: false })).toBe(false)
  })

  it("no name but localhost, the listener's and ALLOWED_HOSTS' makes loopback the machine (property)", () => {
    fc.assert(
      fc.property(
        fc.domain(),
        fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
        (name, port) => {
          const host = port === undefined ? name : `${name}:${port}`
          const local = name === "localhost" || name === "audit.example.net"
          expect(isLocalAdmin(request({ host }), on)).toBe(local)
          expect(isLocalAdmin(request({ origin: `https://${host}` }), on)).toBe(local)
        }
      )
    )
  })
})

describe("namesThisMachine", () => {
  it("takes localhost at any port and the listener's exact address", () => {
    expect(namesThisMachine("localhost", [], undefined)).toBe(true)
    expect(namesThisMachine("localhost.:3000", [], undefined)).toBe(true)
    expect(namesThisMachine("127.0.0.1:8080", [], "127.0.0.1:8080")).toBe(true)
    expect(namesThisMachine("127.0.0.1:9090", [], "127.0.0.1:8080")).toBe(false)
    expect(namesThisMachine("localhost.evil.example", [], undefined)).toBe(false)
    expect(namesThisMachine("a b", [], undefined)).toBe(false)
  })
})
