/**
 * security.txt signatures: the signer's key looked for where the file says (an https Encryption URL,
 * then the WKD of a mailto contact, advanced then direct) over a fake web, the signature verified
 * with openpgp, the key's expiry judged. Keys are made here (curve25519: milliseconds each).
 */
import { beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { createCleartextMessage, generateKey, readPrivateKey, sign } from "openpgp"
import { rules } from "../../../src/checks/security-txt/Rules.ts"
import { SecurityTxt, type SecurityTxtResult } from "../../../src/checks/security-txt/SecurityTxt.ts"
import { webError } from "../../../src/net/WebTypes.ts"
import { verifyCleartext } from "../../../src/records/PgpSignature.ts"
import { wkdUrls } from "../../../src/records/Wkd.ts"
import { runFake } from "../facts.ts"

const DAY = 86_400_000
const URL_ = "https://a.example/.well-known/security.txt"
const KEY_URL = "https://a.example/pgp-key.asc"
const WKD = wkdUrls("security@a.example")!

interface Signer {
  readonly armored: string
  readonly binary: Uint8Array
  readonly sign: (text: string, date?: Date) => Promise<string>
}

const signer = async (options: {
  readonly expiresInSeconds: number
  readonly created?: Date
}): Promise<Signer> => {
  const { privateKey, publicKey } = await generateKey({
    type: "curve25519",
    userIDs: [{ email: "security@a.example" }],
    keyExpirationTime: options.expiresInSeconds,
    ...(options.created ? { date: options.created } : {}),
    format: "armored"
  })
  const key = await readPrivateKey({ armoredKey: privateKey })
  return {
    armored: publicKey,
    binary: key.toPublic().write(),
    sign: async (text, date) =>
      sign({ message: await createCleartextMessage({ text }), signingKeys: key, ...(date ? { date } : {}) })
  }
}

const body = (extra = "") =>
  `Contact: mailto:security@a.example\nExpires: ${new Date(Date.now() + 90 * DAY).toISOString()}\n${extra}Canonical: ${URL_}\n`

const text = (s: string | Uint8Array, type = "text/plain; charset=utf-8") => ({
  status: 200,
  headers: { "Content-Type": type },
  body: typeof s === "string" ? new TextEncoder().encode(s) : s
})

/** The fake web: the security.txt and whatever else `also` serves; every other URL refuses. */
const site =
  (file: string, also: Readonly<Record<string, string | Uint8Array>> = {}) =>
  (url: string) =>
    url === URL_
      ? text(file)
      : Object.hasOwn(also, url)
        ? text(also[url]!, "application/pgp-keys")
        : url.startsWith("https://openpgpkey.")
          ? webError(url, "no-address", "no such name")
          : { status: 404, headers: {}, body: new Uint8Array() }

/** The verdict of the check's rule on a result (a web site assumed). */
const ruling = (r: SecurityTxtResult) =>
  rules.judge({
    checks: {
      "dns-records": { status: "done", reason: null, result: null },
      "security-txt": { status: "done", reason: null, result: r }
    }
  })[0]!.verdict

let current: Signer
let other: Signer
beforeAll(async () => {
  current = await signer({ expiresInSeconds: 365 * 86_400 })
  other = await signer({ expiresInSeconds: 0 })
})

describe("verifyCleartext", () => {
  it("valid with the signer's key, bad once the text changes, no-key with another key", async () => {
    const signed = await current.sign(body())
    const valid = await verifyCleartext(signed, [new TextEncoder().encode(current.armored)])
    expect(valid).toMatchObject({ outcome: "valid", fingerprint: expect.stringMatching(/^[0-9a-f]{40}$/) })
    expect(valid.keyExpires).not.toBeNull()
    expect((await verifyCleartext(signed.replace("security@", "attacker@"), [current.binary])).outcome).toBe(
      "bad"
    )
    expect((await verifyCleartext(signed, [other.binary])).outcome).toBe("no-key")
    expect((await verifyCleartext("Contact: x", [current.binary])).outcome).toBe("unreadable")
  })

  it("WKD URLs follow the draft's example (z-base-32 of SHA-1 of the lower-cased local part)", () => {
    expect(wkdUrls("Joe.Doe@Example.ORG")).toEqual({
      advanced:
        "https://openpgpkey.example.org/.well-known/openpgpkey/example.org/hu/iy9q119eutrkn8s1mk4r39qejnbu3n5q?l=Joe.Doe",
      direct: "https://example.org/.well-known/openpgpkey/hu/iy9q119eutrkn8s1mk4r39qejnbu3n5q?l=Joe.Doe"
    })
    expect(wkdUrls("no-at-sign")).toBeNull()
  })
})

describe("the check verifies a signed security.txt", () => {
  it.live("with the key at its Encryption URL: valid, the key current", () =>
    Effect.gen(function* () {
      const signed = yield* Effect.promise(() => current.sign(body(`Encryption: ${KEY_URL}\n`)))
      const r = yield* runFake(SecurityTxt, "a.example", {
        web: site(signed, { [KEY_URL]: current.armored })
      })
      expect(r.verdict).toBe("valid")
      expect(r.signature).toMatchObject({ verified: "valid", keySource: KEY_URL, keyStatus: "current" })
      expect(r.signature!.keyExpiresInDays).toBeGreaterThan(360)
      expect(r.warnings.join(" ")).not.toMatch(/not verified/)
      expect(SecurityTxt.about.findings?.(r)).toEqual([])
    })
  )

  it.live("with the key in the WKD: the advanced host does not exist, the direct method serves it", () =>
    Effect.gen(function* () {
      const signed = yield* Effect.promise(() => current.sign(body()))
      const r = yield* runFake(SecurityTxt, "a.example", {
        web: site(signed, { [WKD.direct]: current.binary })
      })
      expect(r.signature).toMatchObject({ verified: "valid", keySource: WKD.direct })
      expect(r.signature!.keysTried!.map((t) => [t.url, t.outcome])).toEqual([
        [WKD.advanced, "not-found"],
        [WKD.direct, "found"]
      ])
    })
  )

  it.live("an altered file is bad: the file is invalid, not trusted (RFC 9116 §2.3), and a finding", () =>
    Effect.gen(function* () {
      const signed = yield* Effect.promise(() => current.sign(body(`Encryption: ${KEY_URL}\n`)))
      const altered = signed.replace(
        /security@a\.example\r?\n/,
        "security@a.example\r\nContact: https://evil.example/\r\n"
      )
      const bad = yield* runFake(SecurityTxt, "a.example", {
        web: site(altered, { [KEY_URL]: current.armored })
      })
      expect(bad.signature?.verified).toBe("bad")
      expect(bad.verdict).toBe("invalid")
      expect(bad.errors).toEqual([
        expect.stringMatching(/^the signature does not verify .*should not be trusted/)
      ])
      expect(bad.warnings.join(" ")).not.toMatch(/does not verify/)
      expect(SecurityTxt.about.findings?.(bad)).toEqual(["security_txt_signature_bad"])
      // the rule gives no points and names the signature, not a broken field, as the reason
      expect(ruling(bad)).toMatchObject({ status: "fail", issues: ["security_txt_signature_bad"] })
      // a file both altered and broken otherwise is invalid for both
      const latin1 = yield* runFake(SecurityTxt, "a.example", {
        web: (url) =>
          url === URL_
            ? text(altered, "text/plain; charset=latin1")
            : site(altered, { [KEY_URL]: current.armored })(url)
      })
      expect(latin1.verdict).toBe("invalid")
      expect(ruling(latin1).issues).toEqual(["security_txt_invalid", "security_txt_signature_bad"])
    })
  )

  it.live("a key found nowhere, or another key, leaves the signature unknown and the file valid", () =>
    Effect.gen(function* () {
      const signed = yield* Effect.promise(() => current.sign(body(`Encryption: ${KEY_URL}\n`)))
      const nowhere = yield* runFake(SecurityTxt, "a.example", { web: site(signed) })
      expect(nowhere.signature).toMatchObject({ verified: "unknown", keyStatus: null })
      expect(nowhere.signature!.verification).toMatch(/^no key was found where the file says/)
      expect(nowhere.verdict).toBe("valid")
      expect(nowhere.errors).toEqual([])
      expect(nowhere.warnings.join(" ")).toMatch(/the signature was not verified/)
      expect(SecurityTxt.about.findings?.(nowhere)).toEqual([])
      expect(ruling(nowhere).status).toBe("pass")
      // another key at the URL is no key at all, not a bad signature
      const wrong = yield* runFake(SecurityTxt, "a.example", {
        web: site(signed, { [KEY_URL]: other.armored })
      })
      expect(wrong.signature?.verified).toBe("unknown")
      expect(wrong.verdict).toBe("valid")
    })
  )

  it.live("a key that expired since it signed: the signature holds, the key is reported expired", () =>
    Effect.gen(function* () {
      const created = new Date(Date.now() - 40 * DAY)
      const old = yield* Effect.promise(() => signer({ expiresInSeconds: 20 * 86_400, created }))
      const signed = yield* Effect.promise(() =>
        old.sign(body(`Encryption: ${KEY_URL}\n`), new Date(created.getTime() + DAY))
      )
      const r = yield* runFake(SecurityTxt, "a.example", { web: site(signed, { [KEY_URL]: old.armored }) })
      expect(r.signature).toMatchObject({ verified: "valid", keyStatus: "expired" })
      expect(r.signature!.keyExpiresInDays).toBeLessThan(0)
      expect(SecurityTxt.about.findings?.(r)).toEqual(["security_txt_signing_key_expired"])
      const soon = yield* Effect.promise(() => signer({ expiresInSeconds: 10 * 86_400 }))
      const fresh = yield* Effect.promise(() => soon.sign(body(`Encryption: ${KEY_URL}\n`)))
      const s = yield* runFake(SecurityTxt, "a.example", { web: site(fresh, { [KEY_URL]: soon.armored }) })
      expect(s.signature).toMatchObject({ verified: "valid", keyStatus: "expiring" })
      expect(SecurityTxt.about.findings?.(s)).toEqual(["security_txt_signing_key_expiring"])
    })
  )
})

describe("where the signer's key is looked for", () => {
  it("a mailto contact with a malformed %-escape is asked as written, not thrown on", async () => {
    const { keyLocations } = await import("../../../src/checks/security-txt/SignerKey.ts")
    const { parseSecurityTxt } = await import("../../../src/records/SecurityTxtFile.ts")
    const parsed = parseSecurityTxt("Contact: mailto:sec%zz@a.example\nExpires: 2030-01-01T00:00:00Z\n")
    const wkd = wkdUrls("sec%zz@a.example")
    expect(keyLocations(parsed)).toEqual(wkd ? [[wkd.advanced, wkd.direct]] : [])
  })
})
