/**
 * Just enough DER (X.690) to list a certificate's extensions (RFC 5280 4.1): node:crypto's
 * X509Certificate exposes SAN, EKU and validity but not arbitrary extensions such as the
 * logotype (RFC 3709). (@peculiar/x509 would, but it needs a reflect-metadata polyfill that is
 * not installed.) Total: malformed input gives null, never an exception.
 */

interface Tlv {
  readonly tag: number
  readonly start: number
  readonly end: number
}

const readTlv = (der: Uint8Array, at: number): Tlv | null => {
  if (at + 2 > der.length) return null
  const tag = der[at]!
  let len = der[at + 1]!
  let start = at + 2
  if (len & 0x80) {
    const n = len & 0x7f
    if (n === 0 || n > 4 || start + n > der.length) return null
    len = 0
    for (let i = 0; i < n; i++) len = len * 256 + der[start + i]!
    start += n
  }
  const end = start + len
  return end > der.length ? null : { tag, start, end }
}

const children = (der: Uint8Array, parent: Tlv): Array<Tlv> | null => {
  const out: Array<Tlv> = []
  for (let at = parent.start; at < parent.end;) {
    const t = readTlv(der, at)
    if (t === null || t.end > parent.end) return null
    out.push(t)
    at = t.end
  }
  return out
}

/** Dotted form of a DER OBJECT IDENTIFIER body (X.690 8.19). */
export const decodeOid = (body: Uint8Array): string => {
  if (body.length === 0) return ""
  const first = body[0]!
  const parts = [Math.min(2, Math.floor(first / 40)), first - Math.min(2, Math.floor(first / 40)) * 40]
  let value = 0
  for (let i = 1; i < body.length; i++) {
    value = value * 128 + (body[i]! & 0x7f)
    if ((body[i]! & 0x80) === 0) {
      parts.push(value)
      value = 0
    }
  }
  return parts.join(".")
}

export interface DerExtension {
  readonly oid: string
  readonly critical: boolean
  /** The extnValue OCTET STRING's contents. */
  readonly value: Uint8Array
}

/** The extensions of a DER certificate, or null when the structure cannot be walked. */
export const certificateExtensions = (der: Uint8Array): ReadonlyArray<DerExtension> | null => {
  const cert = readTlv(der, 0)
  if (cert === null || cert.tag !== 0x30) return null
  const tbs = children(der, cert)?.[0]
  if (tbs === undefined || tbs.tag !== 0x30) return null
  const fields = children(der, tbs)
  const wrapper = fields?.find((f) => f.tag === 0xa3)
  if (fields === null || fields === undefined) return null
  if (wrapper === undefined) return []
  const seq = children(der, wrapper)?.[0]
  if (seq === undefined || seq.tag !== 0x30) return null
  const out: Array<DerExtension> = []
  for (const ext of children(der, seq) ?? []) {
    const parts = children(der, ext)
    if (parts === null || parts.length < 2 || parts[0]!.tag !== 0x06) return null
    const critical = parts.length === 3 && parts[1]!.tag === 0x01 && der[parts[1]!.start] !== 0
    const octets = parts[parts.length - 1]!
    if (octets.tag !== 0x04) return null
    out.push({
      oid: decodeOid(der.subarray(parts[0]!.start, parts[0]!.end)),
      critical,
      value: der.subarray(octets.start, octets.end)
    })
  }
  return out
}

/** The OID of a DER certificate's signatureAlgorithm (RFC 5280 4.1.1.2), or null when unreadable. */
export const certificateSignatureOid = (der: Uint8Array): string | null => {
  const cert = readTlv(der, 0)
  if (cert === null || cert.tag !== 0x30) return null
  const algorithm = children(der, cert)?.[1]
  if (algorithm === undefined || algorithm.tag !== 0x30) return null
  const oid = children(der, algorithm)?.[0]
  return oid === undefined || oid.tag !== 0x06 ? null : decodeOid(der.subarray(oid.start, oid.end))
}
