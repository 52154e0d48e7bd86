/**
 * Verifying an OpenPGP cleartext-signed text (RFC 4880 §7, RFC 9580 §7) against candidate public
 * keys, with `openpgp`: computation only, no I/O (the keys are fetched by the caller). The
 * signature is verified as of its own creation time, so a key that has expired since still proves
 * who signed; the key's expiry is reported beside it, for the caller to judge against its clock.
 */
import { readCleartextMessage, readKey, readSignature, verify, type Key } from "openpgp"

export interface PgpVerification {
  /**
   * valid: the signature verifies with a key that issued it; bad: it does not (altered text, or a
   * key not valid when it signed); no-key: none of the keys given is the signer's; unreadable: the
   * signed text or its signature cannot be parsed.
   */
  readonly outcome: "valid" | "bad" | "no-key" | "unreadable"
  /** The key ids (hex) the signature names as its issuer. */
  readonly signerKeyIds: ReadonlyArray<string>
  /** The signing key's primary fingerprint (hex), when one of the keys is the signer's. */
  readonly fingerprint: string | null
  /** When the signing key expires (ISO 8601); null when it never does or no key matched. */
  readonly keyExpires: string | null
  /** When the signature was made (its creation time subpacket), ISO 8601. */
  readonly signedAt: string | null
  readonly reason: string
}

const SIGNED = /-----BEGIN PGP SIGNED MESSAGE-----[\s\S]*?-----END PGP SIGNATURE-----/
const SIGNATURE = /-----BEGIN PGP SIGNATURE-----[\s\S]*?-----END PGP SIGNATURE-----/

/** A key as published: ASCII-armored (an `Encryption:` URL's usual form) or binary (WKD, §3.1). */
export const readPublicKey = async (bytes: Uint8Array): Promise<Key | null> => {
  const text = new TextDecoder().decode(bytes)
  try {
    return text.includes("-----BEGIN PGP PUBLIC KEY BLOCK-----")
      ? await readKey({ armoredKey: text })
      : await readKey({ binaryKey: bytes })
  } catch {
    return null
  }
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** Verify the cleartext-signed part of `file` with whichever of `keys` issued its signature. Never rejects. */
export const verifyCleartext = async (
  file: string,
  keys: ReadonlyArray<Uint8Array>
): Promise<PgpVerification> => {
  const none = { signerKeyIds: [], fingerprint: null, keyExpires: null, signedAt: null }
  const signed = SIGNED.exec(file.replace(/\r\n/g, "\n"))?.[0]
  if (signed === undefined) return { ...none, outcome: "unreadable", reason: "no cleartext-signed message" }
  let parsed
  let signedAt: Date | null
  try {
    parsed = await readCleartextMessage({ cleartextMessage: signed })
    const signature = await readSignature({ armoredSignature: SIGNATURE.exec(signed)![0] })
    signedAt = signature.packets[0]?.created ?? null
  } catch (e) {
    return { ...none, outcome: "unreadable", reason: `the signed message cannot be read: ${message(e)}` }
  }
  const signerKeyIds = parsed.getSigningKeyIDs().map((k) => k.toHex())
  const base = { ...none, signerKeyIds, signedAt: signedAt?.toISOString() ?? null }
  const candidates = (await Promise.all(keys.map(readPublicKey))).filter((k): k is Key => k !== null)
  const key = candidates.find((k) => k.getKeyIDs().some((id) => signerKeyIds.includes(id.toHex())))
  if (key === undefined)
    return {
      ...base,
      outcome: "no-key",
      reason:
        candidates.length === 0
          ? "no public key was found"
          : `none of the keys found (${candidates.map((k) => k.getFingerprint()).join(", ")}) issued the signature (key id ${signerKeyIds.join(", ")})`
    }
  const expiry = await key.getExpirationTime().catch(() => null)
  const known = {
    ...base,
    fingerprint: key.getFingerprint(),
    keyExpires: expiry instanceof Date ? expiry.toISOString() : null
  }
  try {
    const result = await verify({
      message: parsed,
      verificationKeys: key,
      ...(signedAt ? { date: signedAt } : {})
    })
    const ids = key.getKeyIDs().map((id) => id.toHex())
    await Promise.all(result.signatures.filter((s) => ids.includes(s.keyID.toHex())).map((s) => s.verified))
    return { ...known, outcome: "valid", reason: `signed by ${key.getFingerprint()}` }
  } catch (e) {
    return { ...known, outcome: "bad", reason: message(e) }
  }
}
