/**
 * A signed security.txt in the world (scenario sectxt-signed.com, signed when the world is built):
 * the signer's key found in the Web Key Directory of its Contact address, the signature verified,
 * the key's expiry read. No app is started: the check runs over the world's resolver and web.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { SecurityTxt } from "../../src/checks/security-txt/SecurityTxt.ts"
import { wkdUrls } from "../../src/records/Wkd.ts"
import { runCheck } from "../../src/scan/Scanner.ts"
import { ScanWorld } from "./scanWorld.ts"
import { domain as toDomain } from "../support/domain.ts"

const check = (domain: string) => runCheck(SecurityTxt, toDomain(domain)).pipe(Effect.provide(ScanWorld))

describe("security.txt signatures in the world", () => {
  it.live("sectxt-signed.com: valid, signed by the key in its WKD (direct method), the key current", () =>
    Effect.gen(function* () {
      const r = yield* check("sectxt-signed.com")
      expect(r.verdict).toBe("valid")
      const wkd = wkdUrls("security@sectxt-signed.com")!
      expect(r.signature).toMatchObject({
        wellFormed: true,
        verified: "valid",
        keySource: wkd.direct,
        keyStatus: "current",
        fingerprint: expect.stringMatching(/^[0-9a-f]{40}$/)
      })
      // the Encryption field is an openpgp4fpr: URI naming the same key
      expect(r.encryption).toEqual([`openpgp4fpr:${r.signature!.fingerprint}`])
      // openpgpkey.sectxt-signed.com does not exist: the advanced method finds nothing
      expect(r.signature!.keysTried!.map((t) => t.url)).toEqual([wkd.advanced, wkd.direct])
      expect(r.signature!.keysTried![0]!.outcome).not.toBe("found")
      expect(r.signature!.keyExpiresInDays).toBeGreaterThan(300)
      expect(SecurityTxt.about.findings?.(r)).toEqual([])
    })
  )

  it.live("perfect.com: an unsigned file has no signature to verify", () =>
    Effect.gen(function* () {
      const r = yield* check("perfect.com")
      expect(r.verdict).toBe("valid")
      expect(r.signature).toBeNull()
    })
  )
})
