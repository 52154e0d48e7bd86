/** API keys as values, and the `keys` command line: shapes, scopes, states, usage errors. */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import fc from "fast-check"
import { parseCommand } from "../../../src/cli/Commands.ts"
import {
  grants,
  keyHash,
  keyState,
  looksLikeKey,
  newKey,
  parseScopes,
  parseTenant,
  sameHash,
  SCOPES
} from "../../../src/monitor/access/ApiKey.ts"

describe("a key", () => {
  it("is da_ and 32 random bytes, stored as its SHA-256 only", () => {
    const a = newKey()
    const b = newKey()
    expect(a.key).toMatch(/^da_[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(a.key.slice(3), "base64url")).toHaveLength(32)
    expect(looksLikeKey(a.key)).toBe(true)
    expect(a.key).not.toBe(b.key)
    expect(a.hash).toBe(keyHash(a.key))
    expect(a.hash).not.toContain(a.key.slice(3))
    expect(sameHash(a.hash, keyHash(a.key))).toBe(true)
    expect(sameHash(a.hash, b.hash)).toBe(false)
    expect(sameHash(a.hash, "")).toBe(false)
  })

  it("is told from anything else by its shape (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        if (looksLikeKey(text)) expect(text).toMatch(/^da_[A-Za-z0-9_-]{43,}$/)
      })
    )
    for (const bad of [
      "",
      "da_",
      "da_short",
      `Da_${"A".repeat(43)}`,
      `da_${"A".repeat(42)}`,
      `da_${"A".repeat(42)}=`
    ])
      expect(looksLikeKey(bad), bad).toBe(false)
  })

  it("is revoked, expired or valid, revoked first", () => {
    const key = {
      id: "k",
      tenant: "t",
      scopes: ["monitors"] as const,
      createdAt: 0,
      expiresAt: 100,
      revokedAt: null
    }
    expect(keyState(key, 99)).toBe("valid")
    expect(keyState(key, 100)).toBe("expired")
    expect(keyState({ ...key, revokedAt: 50 }, 200)).toBe("revoked")
    expect(keyState({ ...key, expiresAt: null }, 1e15)).toBe("valid")
  })

  it("grants its scopes, and admin grants every scope", () => {
    for (const scope of SCOPES) {
      expect(grants({ scopes: ["admin"] }, scope)).toBe(true)
      expect(grants({ scopes: [scope] }, scope)).toBe(true)
    }
    expect(grants({ scopes: ["reports:read"] }, "reports:write")).toBe(false)
  })
})

describe("scopes and tenants", () => {
  it("take the known scopes, each once, in a fixed order", () => {
    expect(parseScopes("reports:read, monitors,monitors")).toEqual(Either.right(["monitors", "reports:read"]))
    expect(Either.getLeft(parseScopes("monitors,root"))._tag).toBe("Some")
    expect(Either.getLeft(parseScopes(" , "))._tag).toBe("Some")
    expect(parseTenant("Acme-Corp")).toEqual(Either.right("acme-corp"))
    for (const bad of ["", "-acme", "a b", "x".repeat(65), "acme/../b"])
      expect(Either.isLeft(parseTenant(bad)), bad).toBe(true)
  })
})

describe("domain-audit keys", () => {
  const parse = (...argv: Array<string>) => parseCommand(["keys", ...argv])
  it("parses create, list and revoke", () => {
    expect(parse("create", "--tenant", "acme", "--scopes", "monitors", "--expires", "P90D")).toEqual(
      Either.right({
        _tag: "Keys",
        command: { action: "create", tenant: "acme", scopes: ["monitors"], validForMs: 90 * 86_400_000 }
      })
    )
    expect(parse("create", "--tenant", "acme")).toEqual(
      Either.right({
        _tag: "Keys",
        command: {
          action: "create",
          tenant: "acme",
          scopes: ["monitors", "reports:read", "reports:write", "history"],
          validForMs: null
        }
      })
    )
    expect(parse("list")).toEqual(Either.right({ _tag: "Keys", command: { action: "list" } }))
    expect(parse("revoke", "key_0123")).toEqual(
      Either.right({ _tag: "Keys", command: { action: "revoke", id: "key_0123" } })
    )
    expect(Either.isRight(parse("--help"))).toBe(true)
  })

  it("parses rotate, with its grace or without (the old key revoked at once)", () => {
    expect(parse("rotate", "key_0123", "--grace", "PT1H")).toEqual(
      Either.right({ _tag: "Keys", command: { action: "rotate", id: "key_0123", graceMs: 3_600_000 } })
    )
    expect(parse("rotate", "key_0123")).toEqual(
      Either.right({ _tag: "Keys", command: { action: "rotate", id: "key_0123", graceMs: 0 } })
    )
  })

  it("says what is wrong", () => {
    const message = (...argv: Array<string>) =>
      Either.getLeft(parse(...argv)).pipe((o) => (o._tag === "Some" ? o.value.message : ""))
    expect(message("create")).toMatch(/--tenant/)
    expect(message("create", "--tenant", "acme", "--scopes", "root")).toMatch(/unknown scope 'root'/)
    expect(message("create", "--tenant", "acme", "--expires", "soon")).toMatch(/--expires/)
    expect(message("revoke")).toMatch(/one key id/)
    expect(message("list", "--tenant", "x")).toMatch(/no --tenant/)
    expect(message("rotate")).toMatch(/one key id/)
    expect(message("rotate", "key_0123", "--grace", "soon")).toMatch(/--grace/)
    expect(message("rotate", "key_0123", "--grace", "PT0S")).toMatch(/--grace/)
    expect(message("rotate", "key_0123", "--tenant", "acme")).toMatch(/no --tenant/)
    expect(message("create", "--tenant", "acme", "--grace", "PT1H")).toMatch(/no --grace/)
    expect(message("renew")).toMatch(/unknown keys action/)
    expect(message()).toMatch(/create, list, revoke or rotate/)
  })
})
