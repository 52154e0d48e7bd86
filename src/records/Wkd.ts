/**
 * The OpenPGP Web Key Directory (draft-koch-openpgp-webkey-service §3.1): where a mail address's
 * public key is published. Pure: the two URLs a client asks, the advanced method's first.
 */
import { createHash } from "node:crypto"

/** z-base-32 (the draft's §3.1 encoding, after RFC 6189 §5.1.6): 5 bits a character, no padding. */
const ZBASE32 = "ybndrfg8ejkmcpqxot1uwisza345h769"

export const zbase32 = (bytes: Uint8Array): string => {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ZBASE32[(buffer >> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += ZBASE32[(buffer << (5 - bits)) & 31]
  return out
}

/**
 * The advanced and direct WKD URLs of `address` (§3.1): the local part, lower-cased (ASCII only, as
 * the draft maps it), hashed with SHA-1 and z-base-32 encoded; the unchanged local part rides in
 * `?l=`. Null when `address` is not local@domain.
 */
export const wkdUrls = (address: string): { readonly advanced: string; readonly direct: string } | null => {
  const at = address.lastIndexOf("@")
  const local = address.slice(0, at)
  const domain = address
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, "")
  if (at <= 0 || domain === "" || !/^[a-z0-9.-]+$/.test(domain)) return null
  const hash = zbase32(
    createHash("sha1")
      .update(local.replace(/[A-Z]/g, (c) => c.toLowerCase()))
      .digest()
  )
  const l = `?l=${encodeURIComponent(local)}`
  return {
    advanced: `https://openpgpkey.${domain}/.well-known/openpgpkey/${domain}/hu/${hash}${l}`,
    direct: `https://${domain}/.well-known/openpgpkey/hu/${hash}${l}`
  }
}
