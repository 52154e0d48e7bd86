/**
 * The BIMI evidence document behind `a=`: a PEM chain whose leaf is a Verified Mark Certificate
 * (VMC) or Common Mark Certificate (CMC) (BIMI draft "Evidence Documents"; MCR guidelines).
 * We check what a certificate can show: the chain's links and signatures, the SAN covering the
 * domain, the validity dates, the BIMI EKU and the logotype extension (RFC 3709) with its embedded
 * SVG, with node:crypto and a small DER walker (BimiDer.ts). Trademark ownership and trust in the issuing root are NOT judged (the spec says so too).
 */
import { Schema } from "effect"
import { X509Certificate as NodeCertificate } from "node:crypto"
import { gunzipSync } from "node:zlib"
import { certificateExtensions } from "./BimiDer.ts"
import { Strings } from "./Schemas.ts"

export const OID_LOGOTYPE = "1.3.6.1.5.5.7.1.12"
export const OID_EKU_BIMI = "1.3.6.1.5.5.7.3.31"
/** BIMI Group subject attribute markType (Registered Mark, Government Mark, Prior Use Mark, ...). */
export const OID_MARK_TYPE = "1.3.6.1.4.1.53087.1.13"

export const CertificateSummary = Schema.Struct({
  subject: Schema.String,
  issuer: Schema.String,
  serialNumber: Schema.String,
  notBefore: Schema.String,
  notAfter: Schema.String
})
export type CertificateSummary = typeof CertificateSummary.Type

/** What the evidence document shows (the fields of `BimiAuthority` after its fetch details). */
export const AuthorityCheckFields = {
  parsed: Schema.Boolean,
  certificates: Schema.Array(CertificateSummary),
  type: Schema.Literal("VMC", "CMC", "unknown"),
  markType: Schema.NullOr(Schema.String),
  san: Strings,
  sanCoversDomain: Schema.Boolean,
  validNow: Schema.Boolean,
  notAfter: Schema.NullOr(Schema.String),
  daysUntilExpiry: Schema.NullOr(Schema.Int),
  bimiExtendedKeyUsage: Schema.Boolean,
  logotypePresent: Schema.Boolean,
  /** True/false when both the certificate's embedded SVG and the fetched logo are known. */
  logotypeMatchesLogo: Schema.NullOr(Schema.Boolean),
  /** Each certificate is issued and signed by the next one in the file. */
  chainLinked: Schema.Boolean,
  chainLength: Schema.Int,
  /** Always false: trademark ownership is not judged. */
  trademarkVerified: Schema.Literal(false),
  errors: Strings,
  warnings: Strings
}
export const AuthorityCheck = Schema.Struct(AuthorityCheckFields)
export type AuthorityCheck = typeof AuthorityCheck.Type

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g

/** The DER bodies of the CERTIFICATE blocks of a PEM file. */
export const pemCertificates = (text: string): Array<Uint8Array> =>
  [...text.matchAll(PEM_BLOCK)].map((m) => new Uint8Array(Buffer.from(m[1]!.replace(/\s+/g, ""), "base64")))

/** The SVG inside a logotype extension: a `data:image/svg+xml;base64,` URI, often gzip-compressed. */
export const embeddedLogo = (extensionValue: Uint8Array): Uint8Array | null => {
  const text = Buffer.from(extensionValue).toString("latin1")
  const m = /data:image\/svg\+xml(?:-compressed)?;base64,([A-Za-z0-9+/=]+)/.exec(text)
  if (!m) return null
  const raw = Buffer.from(m[1]!, "base64")
  try {
    return new Uint8Array(raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw)
  } catch {
    return null
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => {
  const norm = (x: Uint8Array) => Buffer.from(x).toString("utf8").trim().replace(/\r\n/g, "\n")
  return norm(a) === norm(b)
}

const dnsNamesOf = (subjectAltName: string | undefined): Array<string> =>
  (subjectAltName ?? "")
    .split(/,\s*/)
    .filter((s) => s.startsWith("DNS:"))
    .map((s) => s.slice(4).toLowerCase())

/**
 * Judges a VMC/CMC PEM file for `domain` (or its organisational domain `orgDomain`) at `now`.
 * Pure and total.
 */
export const checkAuthority = (
  pem: Uint8Array,
  domain: string,
  orgDomain: string,
  now: Date,
  logo: Uint8Array | null
): AuthorityCheck => {
  const errors: Array<string> = []
  const warnings: Array<string> = []
  const ders = pemCertificates(Buffer.from(pem).toString("utf8"))
  const certs: Array<{ node: NodeCertificate; der: Uint8Array }> = []
  for (const [i, der] of ders.entries()) {
    try {
      certs.push({ node: new NodeCertificate(der), der })
    } catch (e) {
      errors.push(`certificate ${i + 1} does not parse (${e instanceof Error ? e.message : String(e)})`)
    }
  }
  const empty: AuthorityCheck = {
    parsed: false,
    certificates: [],
    type: "unknown",
    markType: null,
    san: [],
    sanCoversDomain: false,
    validNow: false,
    notAfter: null,
    daysUntilExpiry: null,
    bimiExtendedKeyUsage: false,
    logotypePresent: false,
    logotypeMatchesLogo: null,
    chainLinked: false,
    chainLength: 0,
    trademarkVerified: false,
    errors,
    warnings
  }
  const leaf = certs[0]
  if (leaf === undefined || errors.length > 0) {
    if (ders.length === 0) errors.push("the file holds no PEM CERTIFICATE block")
    return { ...empty, errors }
  }

  let chainLinked = true
  for (let i = 0; i + 1 < certs.length; i++) {
    const child = certs[i]!.node
    const parent = certs[i + 1]!.node
    let ok = false
    try {
      ok = child.checkIssued(parent) && child.verify(parent.publicKey)
    } catch {
      ok = false
    }
    if (!ok) {
      chainLinked = false
      errors.push(`certificate ${i + 1} is not issued and signed by certificate ${i + 2}`)
    }
  }
  if (certs.length === 1) {
    chainLinked = false
    warnings.push("the file holds only the leaf certificate; the issuing chain should be included")
  }

  const san = dnsNamesOf(leaf.node.subjectAltName)
  const sanCoversDomain = san.includes(domain) || san.includes(orgDomain)
  if (!sanCoversDomain)
    errors.push(
      `the certificate's SAN (${san.join(", ") || "none"}) does not cover ${domain}${orgDomain !== domain ? ` or ${orgDomain}` : ""}`
    )

  const notBefore = new Date(leaf.node.validFrom)
  const notAfter = new Date(leaf.node.validTo)
  const validNow = now >= notBefore && now <= notAfter
  if (now < notBefore) errors.push(`the certificate is not valid before ${notBefore.toISOString()}`)
  if (now > notAfter) errors.push(`the certificate expired on ${notAfter.toISOString()}`)
  const daysUntilExpiry = Math.floor((notAfter.getTime() - now.getTime()) / 86_400_000)
  if (validNow && daysUntilExpiry < 30) warnings.push(`the certificate expires in ${daysUntilExpiry} days`)

  const eku = leaf.node.keyUsage ?? []
  const bimiExtendedKeyUsage = eku.includes(OID_EKU_BIMI)
  if (!bimiExtendedKeyUsage)
    errors.push("the certificate lacks the BIMI extended key usage (1.3.6.1.5.5.7.3.31)")

  const extensions = certificateExtensions(leaf.der)
  if (extensions === null) warnings.push("the certificate's extensions could not be walked")
  const logotype = extensions?.find((e) => e.oid === OID_LOGOTYPE) ?? null
  const logotypePresent = logotype !== null
  if (!logotypePresent) errors.push("the certificate has no logotype extension (1.3.6.1.5.5.7.1.12)")
  const embedded = logotype ? embeddedLogo(logotype.value) : null
  if (logotype && embedded === null) warnings.push("the logotype extension holds no readable embedded SVG")
  const logotypeMatchesLogo = embedded && logo ? sameBytes(embedded, logo) : null
  if (logotypeMatchesLogo === false)
    errors.push("the logo at l= differs from the logo embedded in the certificate")

  const markType = /1\.3\.6\.1\.4\.1\.53087\.1\.13=([^,\n]+)/.exec(leaf.node.subject)?.[1]?.trim() ?? null
  const type = markType === null ? "unknown" : /prior use|modified/i.test(markType) ? "CMC" : "VMC"

  return {
    parsed: true,
    certificates: certs.map(({ node }) => ({
      subject: node.subject.replace(/\n/g, ", "),
      issuer: node.issuer.replace(/\n/g, ", "),
      serialNumber: node.serialNumber,
      notBefore: new Date(node.validFrom).toISOString(),
      notAfter: new Date(node.validTo).toISOString()
    })),
    type,
    markType,
    san,
    sanCoversDomain,
    validNow,
    notAfter: notAfter.toISOString(),
    daysUntilExpiry,
    bimiExtendedKeyUsage,
    logotypePresent,
    logotypeMatchesLogo,
    chainLinked,
    chainLength: certs.length,
    trademarkVerified: false,
    errors,
    warnings
  }
}
