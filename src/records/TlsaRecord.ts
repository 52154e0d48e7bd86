/**
 * The TLSA record's registries and matching (RFC 6698 2.1, IANA "TLSA Certificate Usages",
 * "Selectors", "Matching Types"): what each number means, and whether a record's data matches a
 * certificate. Pure (node:crypto hashing only); the TLSA check and the generator read it.
 */
import { createHash, X509Certificate } from "node:crypto"

export const USAGES: Record<number, { readonly name: string; readonly description: string }> = {
  0: {
    name: "PKIX-TA",
    description: "CA constraint: the chain must include this CA and pass PKIX validation"
  },
  1: {
    name: "PKIX-EE",
    description: "Service certificate constraint: this end-entity certificate, PKIX-validated"
  },
  2: {
    name: "DANE-TA",
    description: "Trust anchor assertion: this CA anchors the chain, no public CA needed"
  },
  3: {
    name: "DANE-EE",
    description: "Domain-issued certificate: the server's own certificate or key, no CA needed"
  }
}
export const SELECTORS: Record<number, { readonly name: string; readonly description: string }> = {
  0: { name: "Cert", description: "Full certificate: matches the whole DER certificate" },
  1: {
    name: "SPKI",
    description: "SubjectPublicKeyInfo: matches only the public key (survives renewals with the same key)"
  }
}
export const MATCHING_TYPES: Record<number, { readonly name: string; readonly description: string }> = {
  0: { name: "Full", description: "Exact match: the data itself, not a hash" },
  1: { name: "SHA2-256", description: "SHA-256 hash of the selected content" },
  2: { name: "SHA2-512", description: "SHA-512 hash of the selected content" }
}

const describe = (
  table: Record<number, { readonly name: string; readonly description: string }>,
  n: number
) => (table[n] ? `${table[n].name}: ${table[n].description}` : `unassigned value ${n}`)
export const usageDescription = (n: number) => describe(USAGES, n)
export const selectorDescription = (n: number) => describe(SELECTORS, n)
export const matchingTypeDescription = (n: number) => describe(MATCHING_TYPES, n)

/** The certificate association data (RFC 6698 2.1.2-2.1.3) of DER content, lower-case hex. */
export const associationData = (content: Uint8Array, matching: number): string | undefined =>
  matching === 0
    ? Buffer.from(content).toString("hex")
    : matching === 1
      ? createHash("sha256").update(content).digest("hex")
      : matching === 2
        ? createHash("sha512").update(content).digest("hex")
        : undefined

/** Content selected from a certificate (RFC 6698 2.1.2): the DER certificate or its SPKI. */
export const selectFromCertificate = (der: Uint8Array, selector: number): Buffer | undefined => {
  if (selector === 0) return Buffer.from(der)
  if (selector !== 1) return undefined
  try {
    return new X509Certificate(Buffer.from(der)).publicKey.export({ type: "spki", format: "der" })
  } catch {
    return undefined
  }
}

/** Whether a TLSA record's data matches a DER certificate (for checks that hold the server's certificate). */
export const matchesCertificate = (
  tlsa: { readonly selector: number; readonly matchingType: number; readonly certificate: string },
  der: Uint8Array
): boolean => {
  const content = selectFromCertificate(der, tlsa.selector)
  return (
    content !== undefined && associationData(content, tlsa.matchingType) === tlsa.certificate.toLowerCase()
  )
}
