/**
 * The X25519MLKEM768 key share a ClientHello offers (draft-ietf-tls-ecdhe-mlkem 4.1): the ML-KEM-768
 * encapsulation key, then the X25519 key, built from random bytes so that a server accepts it.
 */
/** ML-KEM-768's encapsulation key: 384 bytes per polynomial, k = 3, and the 32-byte seed rho (FIPS 203 8). */
export const MLKEM768_KEY_BYTES = 1184
/** An X25519 public key (RFC 7748 5). */
export const X25519_KEY_BYTES = 32
/** The X25519MLKEM768 key share: the ML-KEM-768 key, then the X25519 key (draft-ietf-tls-ecdhe-mlkem 4.1). */
export const HYBRID_SHARE_BYTES = MLKEM768_KEY_BYTES + X25519_KEY_BYTES

/** The modulus q of ML-KEM (FIPS 203 2.4): a coefficient of an encoded key is below it. */
const MLKEM_Q = 3329

/**
 * An X25519MLKEM768 key share that a server accepts as a key: random, but every 12-bit coefficient
 * of the ML-KEM part below q, since FIPS 203 7.2's input check (which OpenSSL 3.5 applies) refuses
 * an encapsulation key with any coefficient at or above it: purely random bytes would be refused
 * with an alert before the server names its group. Two coefficients take three bytes (ByteEncode12).
 */
export const hybridShare = (bytes: Uint8Array): Uint8Array => {
  const out = new Uint8Array(HYBRID_SHARE_BYTES)
  const polyBytes = MLKEM768_KEY_BYTES - 32
  const coefficient = (i: number) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!) % MLKEM_Q
  for (let i = 0, o = 0; o < polyBytes; i += 2, o += 3) {
    const a = coefficient(i % (bytes.length >> 1))
    const b = coefficient((i + 1) % (bytes.length >> 1))
    out[o] = a & 0xff
    out[o + 1] = (a >> 8) | ((b & 0x0f) << 4)
    out[o + 2] = b >> 4
  }
  // rho and the X25519 key are taken as they come (RFC 7748 5 accepts every 32-byte string).
  out.set(bytes.subarray(0, 32 + X25519_KEY_BYTES), polyBytes)
  return out
}

/** Whether every coefficient of the ML-KEM part of a share is below q (FIPS 203 7.2). */
export const wellFormedShare = (share: Uint8Array): boolean => {
  if (share.length !== HYBRID_SHARE_BYTES) return false
  for (let o = 0; o < MLKEM768_KEY_BYTES - 32; o += 3) {
    const a = share[o]! | ((share[o + 1]! & 0x0f) << 8)
    const b = (share[o + 1]! >> 4) | (share[o + 2]! << 4)
    if (a >= MLKEM_Q || b >= MLKEM_Q) return false
  }
  return true
}
