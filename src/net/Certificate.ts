/**
 * Certificate facts of a TLS peer (the SMTP probe reports them; the SMTP TLS and DANE checks judge
 * them): what a certificate says, read once from its DER bytes with node:crypto (no network).
 * In net/ because the probe builds them, and net imports nothing of ours but Config.
 */
import { createHash, X509Certificate } from "node:crypto"

export interface CertificateFacts {
  readonly subject: string
  readonly commonName: string | null
  /** DNS names of the subjectAltName extension (RFC 5280 4.2.1.6); IP entries as `IP:<addr>`. */
  readonly subjectAltNames: ReadonlyArray<string>
  readonly issuer: string
  readonly issuerCommonName: string | null
  readonly serialNumber: string
  readonly validFrom: string
  readonly validTo: string
  readonly keyType: string
  /** RSA/DSA modulus bits, EC curve bits, 256 for Ed25519, 456 for Ed448; null when unknown. */
  readonly keySize: number | null
  readonly curve: string | null
  readonly isCa: boolean
  readonly selfIssued: boolean
  /** SHA-256 of the DER certificate (the usual fingerprint; TLSA selector 0 matching type 1). */
  readonly sha256: string
  /** SHA-256 of the DER SubjectPublicKeyInfo (TLSA selector 1 matching type 1). */
  readonly spkiSha256: string
  /** Base64 DER: kept so DANE can compare full certificates and SPKIs (matching type 0 / 2). */
  readonly der: string
  readonly spkiDer: string
}

const CURVE_BITS: Record<string, number> = {
  prime256v1: 256,
  secp384r1: 384,
  secp521r1: 521,
  secp256k1: 256,
  "P-256": 256,
  "P-384": 384,
  "P-521": 521
}

/** `CN=a\nO=b` (node's one-attribute-per-line form) -> the CN value. */
export const commonNameOf = (dn: string): string | null => {
  for (const line of dn.split("\n")) {
    const m = /^CN=(.*)$/.exec(line.trim())
    if (m) return m[1]!
  }
  return null
}

/** node's `DNS:a, DNS:b, IP Address:1.2.3.4` -> `["a", "b", "IP:1.2.3.4"]`. */
export const parseSubjectAltName = (san: string | undefined): ReadonlyArray<string> => {
  if (!san) return []
  const out: Array<string> = []
  for (const part of san.split(/,\s*/)) {
    const dns = /^DNS:(.*)$/.exec(part)
    if (dns) out.push(dns[1]!.replace(/^"|"$/g, ""))
    const ip = /^IP Address:(.*)$/.exec(part)
    if (ip) out.push(`IP:${ip[1]}`)
  }
  return out
}

const hex = (data: Buffer | string) => createHash("sha256").update(data).digest("hex")

interface Read {
  readonly facts: CertificateFacts
  /** Whether its Authority Information Access names an OCSP responder (RFC 5280 4.2.2.1). */
  readonly ocspResponder: boolean
}

/**
 * Certificates read lately, by their base64 DER: a scan reads its web server's certificate more
 * than once (the CAA check's fetch, the TLS scan's ordinary handshake), and the intermediates of
 * one CA come with every site it issued for, where a reading costs node's X.509 parse, the key's
 * export and two hashes (docs/bench.md, the batch). The facts are a function of the bytes alone.
 * Least recently read dropped first past the bound; a failed reading is not kept.
 */
const lately = new Map<string, Read>()
const LATELY = 1024

const read = (der: Buffer): Read => {
  const base64 = der.toString("base64")
  const known = lately.get(base64)
  if (known !== undefined) {
    lately.delete(base64)
    lately.set(base64, known)
    return known
  }
  const fresh = parse(der, base64)
  lately.set(base64, fresh)
  if (lately.size > LATELY) lately.delete(lately.keys().next().value!)
  return fresh
}

const parse = (der: Buffer, base64: string): Read => {
  const cert = new X509Certificate(der)
  const key = cert.publicKey
  const details = key.asymmetricKeyDetails ?? {}
  const type = key.asymmetricKeyType ?? "unknown"
  const curve = details.namedCurve ?? null
  const keySize =
    details.modulusLength ??
    (curve ? (CURVE_BITS[curve] ?? null) : type === "ed25519" ? 256 : type === "ed448" ? 456 : null)
  const spki = key.export({ type: "spki", format: "der" })
  let ocspResponder = false
  try {
    ocspResponder = /^OCSP - URI:/m.test(cert.infoAccess ?? "")
  } catch {
    ocspResponder = false
  }
  return {
    facts: {
      subject: cert.subject.split("\n").join(", "),
      commonName: commonNameOf(cert.subject),
      subjectAltNames: parseSubjectAltName(cert.subjectAltName),
      issuer: cert.issuer.split("\n").join(", "),
      issuerCommonName: commonNameOf(cert.issuer),
      serialNumber: cert.serialNumber,
      validFrom: new Date(cert.validFrom).toISOString(),
      validTo: new Date(cert.validTo).toISOString(),
      keyType: type,
      keySize,
      curve,
      isCa: cert.ca,
      selfIssued: cert.subject === cert.issuer,
      sha256: hex(der),
      spkiSha256: hex(spki),
      der: base64,
      spkiDer: spki.toString("base64")
    },
    ocspResponder
  }
}

/** Facts of one DER certificate. Throws only when the bytes are not a certificate. */
export const certificateFacts = (der: Buffer): CertificateFacts => read(der).facts

/** Whether a certificate's Authority Information Access names an OCSP responder (RFC 5280 4.2.2.1). */
export const namesOcspResponder = (der: Buffer): boolean => {
  try {
    return read(der).ocspResponder
  } catch {
    return false
  }
}

/** Whole days from `now` until `validTo` (negative once expired). */
export const daysUntil = (validTo: string, now: Date): number =>
  Math.floor((Date.parse(validTo) - now.getTime()) / 86_400_000)

/** A certificate's public view: everything but the raw bytes. */
export const publicFacts = ({ der: _der, spkiDer: _spki, ...rest }: CertificateFacts) => rest
