/**
 * Signed evidence (report/Jws.ts, SigningKey.ts): a snapshot or an evidence export signed here
 * verifies, with the key it carries and with the published key set; a changed copy fails and says
 * whether the hash or the signature caught it; a copy signed by another key fails against the
 * issuer's keys. The key is kept in DATA_DIR (0600) across starts, or read from SIGNING_KEY_FILE.
 */
import { DOMAIN } from "../../src/kernel/examples/ExampleZone.ts"
import { generateKeyPairSync } from "node:crypto"
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, FastCheck as fc, Layer, Schema } from "effect"
import { AppConfig } from "../../src/Config.ts"
import { verifyDocument } from "../../src/cli/Verify.ts"
import { signEvidence } from "../../src/monitor/SignedEvidence.ts"
import { canonicalJson, contentHashOf } from "../../src/report/Canonical.ts"
import { contentOf, encodeContent, snapshotEvidence } from "../../src/report/Everything.ts"
import { publicJwkOf, signDetached, thumbprintOf, verifyDetached } from "../../src/report/Jws.ts"
import { EverythingReport } from "../../src/report/ReportSchema.ts"
import { GENERATED_KEY_FILE, SigningKey } from "../../src/report/SigningKey.ts"
import { verifySnapshot } from "../../src/report/VerifySnapshot.ts"
import { scanResult } from "../../src/score/Arbitraries.ts"

const BASE = "https://audit.example/api"

/** The signing key the service builds with these settings. */
const keyWith = (env: Record<string, string>) =>
  Effect.runPromise(
    Effect.provide(
      SigningKey,
      SigningKey.Default.pipe(
        Layer.provide(AppConfig.Default),
        Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
      )
    )
  )

const tempDir = () => mkdtempSync(join(tmpdir(), "signing-test-"))

/** A snapshot as the service serves it (parsed JSON), signed by `sign`. */
const signedSnapshot = (sign: (payload: string) => string, seed = 1) => {
  const scan = fc.sample(scanResult({ gradable: true }), { numRuns: 1, seed })[0]!
  const content = contentOf(scan, BASE)
  const encoded = encodeContent(content)
  const evidence = {
    ...snapshotEvidence(content, BASE, {
      id: "snap_1",
      contentHash: contentHashOf(encoded),
      createdAt: "2026-01-01T00:00:00.000Z"
    }),
    signature: sign(canonicalJson(encoded))
  }
  return JSON.parse(Schema.encodeSync(Schema.parseJson(EverythingReport))({ ...content, evidence }))
}

/** Another signer's key, as a JWK Set and a signing function. */
const otherSigner = () => {
  const { privateKey } = generateKeyPairSync("ed25519")
  const jwk = publicJwkOf(privateKey)
  return { keys: [jwk], sign: (payload: string) => signDetached(payload, privateKey, jwk) }
}

describe("signed snapshots", () => {
  it("verify with the key they carry and with the published key set", async () => {
    const key = await keyWith({ DATA_DIR: tempDir() })
    const json = signedSnapshot(key.sign)
    const embedded = verifySnapshot(json)
    expect(embedded).toMatchObject({
      valid: true,
      failed: null,
      signature: { status: "verified", kid: key.jwk.kid, keySource: "embedded" }
    })
    const given = verifySnapshot(json, { keys: key.keySet.keys })
    expect(given).toMatchObject({ valid: true, signature: { status: "verified", keySource: "given" } })
    // the command says what each proves: the embedded key integrity only, the given key the issuer
    expect(verifyDocument(json).lines[1]).toMatch(/key the copy carries .* does not say who signed it/)
    expect(verifyDocument(json, undefined, key.keySet.keys).lines[1]).toBe(
      `signature verified: signed by key ${key.jwk.kid}, one of the keys given`
    )
    // the kid is the RFC 7638 thumbprint of the published key
    expect(key.jwk).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" })
    expect(key.jwk.kid).toBe(thumbprintOf(key.jwk))
  })

  it("a changed copy fails, naming the hash, or the signature when the forger rewrote the hash", async () => {
    const key = await keyWith({ DATA_DIR: tempDir() })
    const json = signedSnapshot(key.sign, 2)
    const tampered = structuredClone(json)
    tampered.summary.headline = `${tampered.summary.headline} `
    expect(verifySnapshot(tampered)).toMatchObject({ valid: false, failed: "hash" })
    const forged = {
      ...tampered,
      evidence: { ...tampered.evidence, contentHash: contentHashOf({ ...tampered, evidence: undefined }) }
    }
    const v = verifySnapshot(forged, { keys: key.keySet.keys })
    expect(v).toMatchObject({ valid: false, failed: "signature", signature: { status: "invalid" } })
    expect(v.problem).toMatch(/^the signature does not hold: it does not verify under key .*changed after/)
    expect(verifyDocument(forged).lines[0]).toMatch(/^NOT VERIFIED: the signature does not hold/)
  })

  it("a copy signed by another key fails against the issuer's keys, and an unsigned one too", async () => {
    const key = await keyWith({ DATA_DIR: tempDir() })
    const other = otherSigner()
    const json = signedSnapshot(other.sign, 3)
    // on its own, the copy is intact under the key it carries: integrity, not the issuer
    expect(verifySnapshot(json).valid).toBe(true)
    const v = verifySnapshot(json, { keys: key.keySet.keys })
    expect(v).toMatchObject({ valid: false, failed: "signature" })
    expect(v.problem).toMatch(/not among the keys given: another signer's copy/)
    // the other signer cannot borrow the issuer's kid either
    const borrowed = signDetached(canonicalJson({ a: 1 }), generateKeyPairSync("ed25519").privateKey, {
      ...other.keys[0]!,
      kid: key.jwk.kid
    })
    expect(verifyDetached(borrowed, canonicalJson({ a: 1 }), key.keySet.keys).valid).toBe(false)
    expect(verifyDetached(borrowed, canonicalJson({ a: 1 })).valid).toBe(false)
    // with keys given, stripping the signature does not pass
    const unsigned = structuredClone(json)
    delete unsigned.evidence.signature
    expect(verifySnapshot(unsigned, { keys: key.keySet.keys })).toMatchObject({
      valid: false,
      failed: "signature"
    })
  })
})

describe("the signing key", () => {
  it("is generated once in DATA_DIR with mode 0600 and reused by the next start", async () => {
    const dir = tempDir()
    const first = await keyWith({ DATA_DIR: dir })
    const file = join(dir, GENERATED_KEY_FILE)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const second = await keyWith({ DATA_DIR: dir })
    expect(second.jwk).toEqual(first.jwk)
    // a snapshot signed before the restart verifies under the key set served after it
    expect(verifySnapshot(signedSnapshot(first.sign), { keys: second.keySet.keys }).valid).toBe(true)
    expect((await keyWith({ DATA_DIR: tempDir() })).jwk.kid).not.toBe(first.jwk.kid)
  })

  it("is the one SIGNING_KEY_FILE names, and a key of another type is refused", async () => {
    const dir = tempDir()
    const { privateKey } = generateKeyPairSync("ed25519")
    const file = join(dir, "operator-key.pem")
    writeFileSync(file, privateKey.export({ type: "pkcs8", format: "pem" }))
    const key = await keyWith({ DATA_DIR: dir, SIGNING_KEY_FILE: file })
    expect(key.jwk).toEqual(publicJwkOf(privateKey))
    expect(() => statSync(join(dir, GENERATED_KEY_FILE))).toThrow()
    const rsa = join(dir, "rsa.pem")
    writeFileSync(
      rsa,
      generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs8", format: "pem" })
    )
    await expect(keyWith({ DATA_DIR: dir, SIGNING_KEY_FILE: rsa })).rejects.toThrow(/not an Ed25519 one/)
    expect(readFileSync(file, "utf8")).toContain("BEGIN PRIVATE KEY")
  })
})

describe("a signed history evidence export", () => {
  it("verifies, and fails when a share was changed", async () => {
    const key = await keyWith({ DATA_DIR: tempDir() })
    const evidence = signEvidence(
      {
        domain: DOMAIN,
        period: { from: "2026-01-01T00:00:00.000Z", to: "2026-01-02T00:00:00.000Z" },
        chainValid: true,
        invalidSeq: null,
        entries: [],
        observedSeconds: 86_400,
        checks: [
          { id: "dmarc", label: "DMARC", passShare: 0.5, passSeconds: 43_200, appliedSeconds: 86_400 }
        ],
        measures: [],
        changes: []
      },
      key.sign
    )
    const json = JSON.parse(JSON.stringify(evidence))
    expect(verifyDocument(json, undefined, key.keySet.keys)).toEqual({
      valid: true,
      lines: [
        "verified: 0 history entries of example.com form an unbroken chain",
        `signature verified: signed by key ${key.jwk.kid}, one of the keys given`
      ]
    })
    json.checks[0].passShare = 1
    expect(verifyDocument(json).lines[0]).toMatch(/^NOT VERIFIED: the signature does not hold/)
    expect(verifyDocument(json, undefined, otherSigner().keys).valid).toBe(false)
  })
})

describe("sign then verify, for any JSON", () => {
  const { privateKey } = generateKeyPairSync("ed25519")
  const jwk = publicJwkOf(privateKey)

  it("holds, and any one byte changed in the canonical payload breaks it", () =>
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.integer({ min: 1, max: 255 }), (value, at, delta) => {
        const payload = canonicalJson(value)
        const jws = signDetached(payload, privateKey, jwk)
        expect(verifyDetached(jws, payload)).toMatchObject({ valid: true, kid: jwk.kid })
        expect(verifyDetached(jws, payload, [jwk]).valid).toBe(true)
        const bytes = Buffer.from(payload, "utf8")
        const i = at % bytes.length
        bytes[i] = (bytes[i]! + delta) % 256
        // the changed bytes as the verifier reads them (a string): a change that is not valid UTF-8
        // becomes U+FFFD, still a different payload
        const changed = bytes.toString("utf8")
        expect(changed).not.toBe(payload)
        expect(verifyDetached(jws, changed).valid).toBe(false)
        expect(verifyDetached(jws, changed, [jwk]).valid).toBe(false)
      }),
      { numRuns: 200 }
    ))
})
