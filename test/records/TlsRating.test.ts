/**
 * The NCSC-NL TLS ratings (records/TlsRating.ts): the guideline's own examples per table, and the
 * properties the check relies on: a configuration is as good as its worst part (adding a part never
 * makes it better), and every name or size gets a rating (total).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  acceptable,
  rateCertificateKey,
  rateCipher,
  rateExtendedMasterSecret,
  rateKeyExchange,
  rateSignature,
  rateVersion,
  suiteParts,
  TLS_RATINGS,
  type TlsRating,
  worst
} from "../../src/records/TlsRating.ts"
import { CLIENT_SUITES, TLS13_SUITES } from "../../src/net/TlsHandshake.ts"

const rating = fc.constantFrom(...TLS_RATINGS)
const rank = (r: TlsRating) => TLS_RATINGS.indexOf(r)

describe("NCSC-NL tables", () => {
  it("rates versions: 1.3 good, 1.2 sufficient, 1.0/1.1 phase out, SSL insufficient", () => {
    expect(["TLSv1.3", "TLSv1.2", "TLSv1.1", "TLSv1", "SSLv3"].map(rateVersion)).toEqual([
      "good",
      "sufficient",
      "phase-out",
      "phase-out",
      "insufficient"
    ])
  })

  it.each([
    ["TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "good"],
    ["TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "good"],
    ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "good"],
    ["TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384", "sufficient"],
    ["TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "sufficient"],
    ["TLS_DHE_RSA_WITH_AES_256_GCM_SHA384", "sufficient"],
    ["TLS_DHE_RSA_WITH_AES_128_CBC_SHA256", "sufficient"],
    ["TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA", "phase-out"],
    ["TLS_RSA_WITH_AES_256_GCM_SHA384", "phase-out"],
    ["TLS_RSA_WITH_AES_128_CBC_SHA", "phase-out"],
    ["TLS_RSA_WITH_3DES_EDE_CBC_SHA", "phase-out"],
    ["TLS_RSA_WITH_RC4_128_SHA", "insufficient"],
    ["TLS_RSA_WITH_NULL_SHA256", "insufficient"],
    ["TLS_ECDHE_ECDSA_WITH_NULL_SHA", "insufficient"],
    ["TLS_RSA_EXPORT_WITH_DES40_CBC_SHA", "insufficient"],
    ["TLS_DH_anon_WITH_AES_128_GCM_SHA256", "insufficient"],
    ["TLS_RSA_WITH_RC4_128_MD5", "insufficient"],
    ["TLS_AES_256_GCM_SHA384", "good"],
    ["TLS_CHACHA20_POLY1305_SHA256", "good"],
    ["TLS_AES_128_GCM_SHA256", "good"],
    ["TLS_AES_128_CCM_SHA256", "sufficient"],
    ["TLS_AES_128_CCM_8_SHA256", "phase-out"]
  ] as const)("rates %s %s", (name, expected) => {
    expect(rateCipher(name)).toBe(expected)
  })

  it("rates key exchange groups", () => {
    expect(rateKeyExchange({ type: "ECDH", name: "X25519", size: 253 })).toBe("good")
    expect(rateKeyExchange({ type: "ECDH", name: "prime256v1", size: 256 })).toBe("good")
    expect(rateKeyExchange({ type: "ECDH", name: "secp384r1", size: 384 })).toBe("good")
    expect(rateKeyExchange({ type: "ECDH", name: "secp224r1", size: 224 })).toBe("phase-out")
    // NCSC-NL 2025: P-521, the brainpool curves and the hybrid ML-KEM groups are good too.
    expect(rateKeyExchange({ type: "ECDH", name: "secp521r1", size: 521 })).toBe("good")
    expect(rateKeyExchange({ type: "ECDH", name: "brainpoolP256r1", size: 256 })).toBe("good")
    expect(rateKeyExchange({ type: "ECDH", name: "X25519MLKEM768", size: 253 })).toBe("good")
    expect(rateKeyExchange({ type: "ECDH", name: "SecP384r1MLKEM1024", size: 384 })).toBe("good")
    expect(rateKeyExchange({ type: "ECDH", name: "secp192r1", size: 192 })).toBe("insufficient")
    // Finite-field groups one step down from v2.1: ffdhe3072 and up phase out, ffdhe2048 insufficient.
    expect(rateKeyExchange({ type: "DH", name: null, size: 4096 })).toBe("phase-out")
    expect(rateKeyExchange({ type: "DH", name: null, size: 3072 })).toBe("phase-out")
    expect(rateKeyExchange({ type: "DH", name: null, size: 2048 })).toBe("insufficient")
    expect(rateKeyExchange({ type: "DH", name: null, size: 1024 })).toBe("insufficient")
  })

  it("rates Extended Master Secret on TLS 1.2 (RFC 7627)", () => {
    expect(rateExtendedMasterSecret(true)).toBe("good")
    expect(rateExtendedMasterSecret(false)).toBe("insufficient")
    expect(rateExtendedMasterSecret(null)).toBeNull()
  })

  it("rates certificate keys and signatures", () => {
    expect(rateCertificateKey("ec", 256, "prime256v1")).toBe("good")
    expect(rateCertificateKey("rsa", 4096, null)).toBe("good")
    expect(rateCertificateKey("rsa", 3072, null)).toBe("good")
    // NCSC-NL 2025: RSA 2048 phase out (v2.1: sufficient).
    expect(rateCertificateKey("rsa", 2048, null)).toBe("phase-out")
    expect(rateCertificateKey("ec", 521, "secp521r1")).toBe("good")
    expect(rateCertificateKey("ec", 224, "secp224r1")).toBe("phase-out")
    expect(rateCertificateKey("ec", 192, "prime192v1")).toBe("insufficient")
    expect(rateCertificateKey("rsa", 1024, null)).toBe("insufficient")
    expect(rateCertificateKey("ed25519", 256, null)).toBe("good")
    expect(rateSignature("sha256WithRSAEncryption")).toBe("good")
    expect(rateSignature("ecdsa-with-SHA384")).toBe("good")
    expect(rateSignature("sha1WithRSAEncryption")).toBe("insufficient")
    expect(rateSignature("ecdsa-with-SHA1")).toBe("insufficient")
    expect(rateSignature("md5WithRSAEncryption")).toBe("insufficient")
  })

  it("reads every suite this client offers as a suite name", () => {
    // The probe reports IANA names; each TLS 1.3 suite, and the parts of a pre-1.3 one, parse.
    for (const s of TLS13_SUITES) expect(suiteParts(s)).not.toBeNull()
    expect(CLIENT_SUITES.length).toBeGreaterThan(20)
  })
})

describe("properties", () => {
  it("the worst of ratings is one of them, no better than any", () => {
    fc.assert(
      fc.property(fc.array(rating, { minLength: 1 }), (rs) => {
        const w = worst(rs)
        expect(rs).toContain(w)
        for (const r of rs) expect(rank(w)).toBeGreaterThanOrEqual(rank(r))
      })
    )
  })

  it("is monotone: adding a part never makes a configuration better", () => {
    fc.assert(
      fc.property(fc.array(rating), rating, (rs, extra) => {
        expect(rank(worst([...rs, extra]))).toBeGreaterThanOrEqual(rank(worst(rs)))
      })
    )
  })

  it("passes exactly good and sufficient", () => {
    fc.assert(
      fc.property(rating, (r) => {
        expect(acceptable(r)).toBe(rank(r) <= 1)
      })
    )
  })

  it("rates any name or size without throwing", () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 16384 }), (name, size) => {
        expect(TLS_RATINGS).toContain(rateCipher(name))
        expect(TLS_RATINGS).toContain(rateVersion(name))
        expect(TLS_RATINGS).toContain(rateSignature(name))
        expect(TLS_RATINGS).toContain(rateCertificateKey(name, size, name))
        expect(TLS_RATINGS).toContain(rateKeyExchange({ type: "DH", name: null, size }))
        expect(TLS_RATINGS).toContain(rateKeyExchange({ type: "ECDH", name, size }))
        // A larger finite-field group is never rated worse than a smaller one.
        expect(rank(rateKeyExchange({ type: "DH", name: null, size: size + 1 }))).toBeLessThanOrEqual(
          rank(rateKeyExchange({ type: "DH", name: null, size }))
        )
        expect(rank(rateCertificateKey("rsa", size + 1, null))).toBeLessThanOrEqual(
          rank(rateCertificateKey("rsa", size, null))
        )
      })
    )
  })

  it("a larger finite-field group is never rated worse", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8192 }), fc.integer({ min: 0, max: 8192 }), (a, b) => {
        const [small, large] = a <= b ? [a, b] : [b, a]
        expect(rank(rateKeyExchange({ type: "DH", name: null, size: large }))).toBeLessThanOrEqual(
          rank(rateKeyExchange({ type: "DH", name: null, size: small }))
        )
      })
    )
  })
})
