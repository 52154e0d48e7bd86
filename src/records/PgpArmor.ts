/**
 * OpenPGP ASCII armor of a signature (RFC 4880 §6.2, §6.1 CRC-24), pure: enough to say whether a
 * cleartext-signed file's signature block is well formed. Verifying it needs the signer's public
 * key, which a scanner does not have, so nothing here claims a signature is valid.
 */

const BEGIN = "-----BEGIN PGP SIGNATURE-----"
const END = "-----END PGP SIGNATURE-----"

/** CRC-24 of RFC 4880 §6.1 (init 0xB704CE, generator 0x1864CFB). */
export const crc24 = (bytes: Uint8Array): number => {
  let crc = 0xb704ce
  for (const byte of bytes) {
    crc ^= byte << 16
    for (let i = 0; i < 8; i++) {
      crc <<= 1
      if (crc & 0x1000000) crc ^= 0x1864cfb
    }
  }
  return crc & 0xffffff
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** The packet tag of the first packet (RFC 4880 §4.2: old and new formats), or null. */
const firstTag = (bytes: Uint8Array): number | null => {
  const b = bytes[0]
  if (b === undefined || (b & 0x80) === 0) return null
  return b & 0x40 ? b & 0x3f : (b >> 2) & 0x0f
}

/**
 * Reads the armored signature starting at its BEGIN line: armor headers, a blank line, base64,
 * an optional `=` checksum line, the END line. Returns the decoded bytes and what is wrong.
 */
export const dearmor = (
  lines: ReadonlyArray<string>
): { readonly bytes: Uint8Array; readonly problems: ReadonlyArray<string> } => {
  const problems: Array<string> = []
  const trimmed = lines.map((l) => l.trim())
  if (trimmed[0] !== BEGIN) return { bytes: new Uint8Array(), problems: ["no signature block"] }
  const end = trimmed.indexOf(END)
  if (end < 0) problems.push("the signature block has no -----END PGP SIGNATURE----- line")
  if (end >= 0 && trimmed.slice(end + 1).some((l) => l !== ""))
    problems.push("text after the signature block is not covered by the signature")
  const body = trimmed.slice(1, end < 0 ? trimmed.length : end)
  // Armor headers ("Version: ...") end at the first blank line (RFC 4880 §6.2).
  const blank = body.indexOf("")
  const data =
    blank >= 0 && body.slice(0, blank).every((l) => /^[^:\s]+: ?/.test(l)) ? body.slice(blank + 1) : body
  const checksumLine = data.find((l) => l.startsWith("="))
  const base64 = data.filter((l) => l !== "" && !l.startsWith("="))
  if (!base64.every((l) => BASE64.test(l))) {
    problems.push("the signature is not base64")
    return { bytes: new Uint8Array(), problems }
  }
  const bytes = new Uint8Array(Buffer.from(base64.join(""), "base64"))
  if (bytes.length === 0) problems.push("the signature block is empty")
  else if (firstTag(bytes) !== 2)
    problems.push("the signature block holds no signature packet (RFC 4880 §5.2)")
  if (checksumLine !== undefined) {
    const sum = Buffer.from(checksumLine.slice(1), "base64")
    const expected = sum.length === 3 ? (sum[0]! << 16) | (sum[1]! << 8) | sum[2]! : -1
    if (expected !== crc24(bytes))
      problems.push("the signature's armor checksum does not match (RFC 4880 §6.1)")
  }
  return { bytes, problems }
}

/** Bytes as an armored signature block (RFC 4880 §6.2), lines of 64 characters, with its checksum. */
export const armorSignature = (bytes: Uint8Array): string => {
  const b64 = Buffer.from(bytes).toString("base64")
  const lines = b64.match(/.{1,64}/g) ?? []
  const crc = crc24(bytes)
  const sum = Buffer.from([crc >> 16, (crc >> 8) & 0xff, crc & 0xff]).toString("base64")
  return [BEGIN, "", ...lines, `=${sum}`, END].join("\n") + "\n"
}
