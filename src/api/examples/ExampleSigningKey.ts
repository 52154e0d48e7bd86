/**
 * The examples' signing key: a fixed Ed25519 key (seed 32 bytes of 0x42), so the documented key
 * set, snapshot signature and evidence signature are what the service's code makes with that key
 * and stay the same from build to build. Ed25519 signatures are deterministic (RFC 8032 §5.1.6).
 */
import { createPrivateKey } from "node:crypto"
import { type JwkSet, publicJwkOf, signDetached } from "../../report/Jws.ts"
import { once } from "../../kernel/examples/Once.ts"

/** RFC 8410 §7: the PKCS#8 DER of an Ed25519 private key is this prefix and the 32-byte seed. */
const PKCS8_ED25519_PREFIX = "302e020100300506032b657004220420"

const key = once(() => {
  const privateKey = createPrivateKey({
    key: Buffer.from(PKCS8_ED25519_PREFIX + "42".repeat(32), "hex"),
    format: "der",
    type: "pkcs8"
  })
  return { privateKey, jwk: publicJwkOf(privateKey) }
})

/** The example key set (GET /.well-known/domain-audit-keys.json). */
export const exampleKeySet = (): JwkSet => ({ keys: [key().jwk] })

/** A detached JWS over `payload` with the example key, as SigningKey.sign makes it. */
export const exampleSign = (payload: string): string => signDetached(payload, key().privateKey, key().jwk)
