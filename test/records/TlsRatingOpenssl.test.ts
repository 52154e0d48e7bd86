/**
 * `acceptableOpensslSuite` (records/TlsRating.ts) agrees with `rateCipher` on every suite OpenSSL
 * knows: the pairs of OpenSSL and IANA names come from `openssl ciphers -stdname`, so a suite the
 * regular expression misreads shows up here, not as a weak suite the SMTP scan never offers.
 */
import { execFileSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { acceptable, acceptableOpensslSuite, rateCipher } from "../../src/records/TlsRating.ts"
import { CLIENT_SUITES } from "../../src/net/TlsHandshake.ts"
import { WEAK_CLIENT_SUITES } from "../../src/net/SmtpTlsScan.ts"

/** `[iana, openssl]` for every pre-1.3 suite of this OpenSSL, at security level 0 (all of them). */
const pairs = (): Array<readonly [string, string]> =>
  execFileSync("openssl", ["ciphers", "-stdname", "ALL:COMPLEMENTOFALL:@SECLEVEL=0"], { encoding: "utf8" })
    .split("\n")
    .flatMap((line) => {
      const m = /^(\S+)\s+-\s+(\S+)\s+(TLSv1\.2|TLSv1|SSLv3)\s/.exec(line)
      return m && m[1] !== "(NONE)" ? [[m[1]!, m[2]!] as const] : []
    })

describe("acceptableOpensslSuite", () => {
  it("agrees with rateCipher over OpenSSL's own name table", () => {
    const table = pairs()
    expect(table.length).toBeGreaterThan(60)
    // PSK and SRP suites need shared keys: no probe offers them (TlsHandshake.ts CLIENT_SUITES).
    const disagree = table
      .filter(([, name]) => !/PSK|SRP/.test(name))
      .filter(([iana, name]) => acceptableOpensslSuite(name) !== acceptable(rateCipher(iana)))
    expect(disagree).toEqual([])
  })

  it("splits this client's suites into acceptable and weak, both non-empty", () => {
    expect(WEAK_CLIENT_SUITES).toContain("AES128-SHA")
    expect(WEAK_CLIENT_SUITES).toContain("ECDHE-ECDSA-NULL-SHA")
    expect(WEAK_CLIENT_SUITES).not.toContain("ECDHE-RSA-AES128-GCM-SHA256")
    expect(CLIENT_SUITES.length - WEAK_CLIENT_SUITES.length).toBeGreaterThan(10)
  })
})
