/**
 * TLSA record generator (RFC 6698 2, RFC 7671, RFC 7672 for SMTP): from a PEM certificate, a chain
 * or a public key, the certificate association data for a usage / selector / matching type, and the
 * record. With a chain, usages 1 and 3 use the leaf, 0 and 2 the trust anchor (RFC 7671 5).
 * Pure (node:crypto only); private keys are refused without being parsed.
 */
import { createPublicKey, X509Certificate } from "node:crypto"
import { Either, Schema } from "effect"
import { Strings } from "../records/Schemas.ts"
import {
  USAGES,
  usageDescription,
  selectorDescription,
  matchingTypeDescription,
  associationData,
  selectFromCertificate
} from "../records/TlsaRecord.ts"
import { GenerateError } from "../records/GenerateError.ts"

export interface TlsaRequest {
  readonly pem: string
  readonly usage: number
  readonly selector: number
  readonly matching: number
  readonly host: string
  readonly port: number
  /**
   * For usages 0 and 2 with a chain: the trust anchor, by subject ("CN=Example CA", "Example CA" or
   * the full subject). Default: the last CA certificate of the chain.
   */
  readonly anchor?: string | undefined
}

/** The certificate of the chain a record was made from. */
export const UsedCertificate = Schema.Struct({
  /** Position in the PEM input, 0 = first block. */
  index: Schema.Int,
  subject: Schema.String,
  issuer: Schema.String,
  isCa: Schema.Boolean
})
export type UsedCertificate = typeof UsedCertificate.Type

/** What POST /dns/tlsa/generate answers. */
export const TlsaGenerated = Schema.Struct({
  /** Owner name `_<port>._tcp.<host>` (RFC 6698 3). */
  name: Schema.String,
  /** Presentation rdata, e.g. `3 1 1 <hex>`. */
  value: Schema.String,
  record: Schema.String,
  zoneFileLine: Schema.String,
  usage: Schema.Int,
  selector: Schema.Int,
  matching: Schema.Int,
  usageDescription: Schema.String,
  selectorDescription: Schema.String,
  matchingTypeDescription: Schema.String,
  certificateAssociationData: Schema.String,
  input: Schema.Literal("CERTIFICATE", "PUBLIC KEY"),
  /** The certificate of the input the record matches; null for a PUBLIC KEY. */
  certificate: Schema.NullOr(UsedCertificate),
  /** How many certificates the input held. */
  chainLength: Schema.Int,
  warnings: Strings,
  recommendation: Schema.NullOr(Schema.String)
})
export type TlsaGenerated = typeof TlsaGenerated.Type

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g
const HOST =
  /^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/

/** PEM blocks (RFC 7468): label and DER. */
export const pemBlocks = (pem: string): Array<{ readonly label: string; readonly der: Buffer }> =>
  [...pem.matchAll(BLOCK)].map((m) => ({
    label: m[1]!,
    der: Buffer.from(m[2]!.replace(/^[A-Za-z-]+:.*$/gm, "").replace(/\s+/g, ""), "base64")
  }))

const fail = (message: string) => Either.left(new GenerateError({ message }))

/** "CN=a\nO=b" as node prints a distinguished name, on one line. */
const oneLine = (dn: string) => dn.split("\n").join(", ")

/**
 * The certificate a record is made from (RFC 7671 5): for usages 1 and 3 the server's own, the
 * first of the chain (TLS sends it first, RFC 8446 4.4.2); for 0 and 2 the trust anchor, the one
 * named by `anchor`, else the last CA certificate, else the last certificate.
 */
const pick = <C extends { readonly x509: X509Certificate }>(
  chain: ReadonlyArray<C>,
  req: TlsaRequest
): Either.Either<C, GenerateError> => {
  if (req.usage === 1 || req.usage === 3) return Either.right(chain[0]!)
  const anchor = req.anchor?.trim()
  if (anchor) {
    const want = anchor.toLowerCase()
    const found = chain.find((c) => {
      const lines = c.x509.subject.toLowerCase().split("\n")
      return (
        lines.includes(want) || lines.includes(`cn=${want}`) || oneLine(c.x509.subject).toLowerCase() === want
      )
    })
    return found
      ? Either.right(found)
      : Either.left(
          new GenerateError({
            message: `no certificate of the chain has the subject '${anchor}'`,
            field: "anchor"
          })
        )
  }
  return Either.right([...chain].reverse().find((c) => c.x509.ca) ?? chain[chain.length - 1]!)
}

/** Builds the TLSA record; refuses private keys, other PEM labels and impossible parameters. */
export const generate = (req: TlsaRequest): Either.Either<TlsaGenerated, GenerateError> => {
  if (/PRIVATE KEY/i.test(req.pem))
    return fail("the PEM holds a private key: never share it; send the CERTIFICATE or PUBLIC KEY instead")
  const blocks = pemBlocks(req.pem)
  if (blocks.length === 0)
    return fail("no PEM block found: send a -----BEGIN CERTIFICATE----- or PUBLIC KEY block")
  const bad = blocks.find((b) => b.label !== "CERTIFICATE" && b.label !== "PUBLIC KEY")
  if (bad) return fail(`unsupported PEM label '${bad.label}': only CERTIFICATE and PUBLIC KEY are accepted`)
  const certs = blocks.filter((b) => b.label === "CERTIFICATE")
  if (certs.length > 0 && certs.length !== blocks.length)
    return fail("send either certificates (a chain) or one PUBLIC KEY, not both")
  if (certs.length === 0 && blocks.length > 1) return fail("send one PUBLIC KEY block")
  if (![0, 1, 2, 3].includes(req.usage)) return fail("usage must be 0, 1, 2 or 3")
  if (![0, 1].includes(req.selector))
    return fail("selector must be 0 (full certificate) or 1 (SubjectPublicKeyInfo)")
  if (![0, 1, 2].includes(req.matching)) return fail("matching must be 0 (full), 1 (SHA-256) or 2 (SHA-512)")
  if (!Number.isInteger(req.port) || req.port < 1 || req.port > 65535) return fail("port must be 1-65535")
  const host = req.host.trim().toLowerCase().replace(/\.$/, "")
  if (!HOST.test(host)) return fail(`'${req.host}' is not a valid host name`)

  let content: Buffer | undefined
  let used: UsedCertificate | null = null
  const notes: Array<string> = []
  if (certs.length > 0) {
    const parsed: Array<{ readonly index: number; readonly der: Buffer; readonly x509: X509Certificate }> = []
    for (const [index, c] of certs.entries()) {
      try {
        parsed.push({ index, der: c.der, x509: new X509Certificate(c.der) })
      } catch {
        return fail(`CERTIFICATE block ${index + 1} is not a valid X.509 certificate`)
      }
    }
    const picked = pick(parsed, req)
    if (Either.isLeft(picked)) return Either.left(picked.left)
    const { index, der, x509 } = picked.right
    used = { index, subject: oneLine(x509.subject), issuer: oneLine(x509.issuer), isCa: x509.ca }
    content = selectFromCertificate(der, req.selector)
    if (!content) return fail(`CERTIFICATE block ${index + 1} is not a valid X.509 certificate`)
    const which = `certificate ${index + 1} of ${parsed.length} (${used.subject})`
    if (parsed.length > 1) notes.push(`made from ${which}`)
    // RFC 7671 5.2 (DANE-TA anchors at a CA) and 5.1 (DANE-EE is the server's own certificate).
    if (req.usage === 2 && !x509.ca)
      notes.push(`usage 2 (DANE-TA) names a trust anchor, but ${which} is not a CA certificate (CA:FALSE)`)
    if (req.usage === 0 && !x509.ca)
      notes.push(`usage 0 (PKIX-TA) names a CA, but ${which} is not a CA certificate (CA:FALSE)`)
    if ((req.usage === 3 || req.usage === 1) && x509.ca)
      notes.push(
        `usage ${req.usage} (${USAGES[req.usage]!.name}) matches the server's own certificate, but ${which} is a CA certificate`
      )
  } else {
    if (req.selector === 0)
      return fail("selector 0 needs the full certificate; with a PUBLIC KEY use selector 1 (SPKI)")
    try {
      content = createPublicKey({ key: blocks[0]!.der, format: "der", type: "spki" }).export({
        type: "spki",
        format: "der"
      })
    } catch {
      return fail("the PUBLIC KEY block is not a valid SubjectPublicKeyInfo")
    }
  }
  const data = associationData(content, req.matching)!
  const name = `_${req.port}._tcp.${host}`
  const value = `${req.usage} ${req.selector} ${req.matching} ${data}`
  const warnings = [
    ...notes,
    "DANE only works in a DNSSEC-signed zone: publish this record in a signed zone with a DS at the parent (RFC 7672 2.2)",
    ...(req.matching === 0
      ? ["matching type 0 publishes the whole content; a SHA-256 digest (1) is smaller and standard"]
      : []),
    ...(req.usage <= 1 && req.port === 25
      ? [
          "usages 0 and 1 (PKIX) are not used for SMTP; RFC 7672 3.1.3 says to publish DANE-TA(2) or DANE-EE(3)"
        ]
      : []),
    ...(req.selector === 0 && req.usage === 3
      ? [
          "selector 0 must change with every certificate renewal; selector 1 (SPKI) survives renewals with the same key"
        ]
      : [])
  ]
  const recommended = req.usage === 3 && req.selector === 1 && req.matching === 1
  return Either.right({
    name,
    value,
    record: `${name}. IN TLSA ${value}`,
    zoneFileLine: `${name}. 3600 IN TLSA ${value}`,
    usage: req.usage,
    selector: req.selector,
    matching: req.matching,
    usageDescription: usageDescription(req.usage),
    selectorDescription: selectorDescription(req.selector),
    matchingTypeDescription: matchingTypeDescription(req.matching),
    certificateAssociationData: data,
    input: certs.length > 0 ? "CERTIFICATE" : "PUBLIC KEY",
    certificate: used,
    chainLength: certs.length,
    warnings,
    recommendation: recommended
      ? null
      : "3 1 1 (DANE-EE, SPKI, SHA-256) is the recommended profile (RFC 7671 5.1, RFC 7672 3.1): it needs no CA and survives certificate renewals that keep the key"
  })
}
