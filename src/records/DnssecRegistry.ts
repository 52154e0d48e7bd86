/**
 * The two IANA DNSSEC registries, every number 0-255, with their recommendation columns and our
 * verdict, shipped as data: the registries as of 2025-11 (RFC 9904 and RFC 9905 published, the
 * columns populated from them; no change to the columns since):
 * https://www.iana.org/assignments/dns-sec-alg-numbers/dns-sec-alg-numbers.xhtml (algorithms) and
 * https://www.iana.org/assignments/ds-rr-types/ds-rr-types.xhtml (DS digest types).
 * Sources, per row (`source`):
 * - the names and the reserved / unassigned / private ranges: the IANA registries "DNS Security
 *   Algorithm Numbers" and "DS RR Type Digest Algorithms" (as reproduced by Zonemaster's DNSSEC05
 *   and DNSSEC01 specifications; RFC 4034 A.1, RFC 6014, RFC 9157);
 * - the four columns ("Use for DNSSEC Signing/Delegation", "Use for DNSSEC Validation", "Implement
 *   for DNSSEC Signing/Delegation", "Implement for DNSSEC Validation"): RFC 9904 Tables 2 and 3
 *   (which carry RFC 8624 3.1 and 3.3 over), as updated by RFC 9905 5 (RSASHA1 and
 *   RSASHA1-NSEC3-SHA1: MUST NOT for signing; validators are to treat them as unsupported, RFC 9905
 *   2, so what they sign is insecure to them).
 * Numbers RFC 9904 gives no columns to (not for zone signing, reserved, unassigned) carry "n/a".
 *
 * Our verdict (the contract's `AlgorithmSecurity`) follows the "Use for DNSSEC Signing" (DNSKEY)
 * or "Use for DNSSEC Delegation" (DS) column: RECOMMENDED -> modern, MAY -> acceptable,
 * NOT RECOMMENDED -> deprecated, MUST NOT -> insecure. A number that cannot sign a zone at all
 * (not for zone signing, reserved, unassigned) is insecure too: validators ignore such keys
 * (RFC 4035 5.2), so they protect nothing. Private numbers (RFC 4034 A.1.1) are "unknown": the
 * registry says MAY, but what they stand for is known only to those who agreed on it.
 */
import { Schema } from "effect"

export const AlgorithmSecurity = Schema.Literal("modern", "acceptable", "deprecated", "insecure", "unknown")
export type AlgorithmSecurity = typeof AlgorithmSecurity.Type

/** The columns' values (RFC 9904 2.2: "MUST" only in the "Implement for" columns). */
export type Recommendation = "MUST NOT" | "NOT RECOMMENDED" | "MAY" | "RECOMMENDED" | "MUST" | "n/a"
export type NumberClass = "assigned" | "not-for-zone-signing" | "reserved" | "unassigned" | "private"

export interface RegistryRow {
  readonly number: number
  readonly name: string
  readonly kind: NumberClass
  /** "Use for DNSSEC Signing" (DNSKEY) or "Use for DNSSEC Delegation" (DS). */
  readonly use: Recommendation
  /** "Use for DNSSEC Validation". */
  readonly validation: Recommendation
  /** "Implement for DNSSEC Signing" (DNSKEY) or "Implement for DNSSEC Delegation" (DS). */
  readonly implementUse: Recommendation
  /** "Implement for DNSSEC Validation": MUST means every validator can check it. */
  readonly implementValidation: Recommendation
  readonly verdict: AlgorithmSecurity
  readonly source: string
}

const verdictOf = (kind: NumberClass, use: Recommendation): AlgorithmSecurity =>
  kind === "private"
    ? "unknown"
    : kind !== "assigned"
      ? "insecure"
      : use === "RECOMMENDED"
        ? "modern"
        : use === "MAY"
          ? "acceptable"
          : use === "NOT RECOMMENDED"
            ? "deprecated"
            : "insecure"

/** The four columns in the registry's order: use (signing/delegation), use (validation), implement (both). */
type Columns = readonly [Recommendation, Recommendation, Recommendation, Recommendation]
const NONE: Columns = ["n/a", "n/a", "n/a", "n/a"]

const row = (
  number: number,
  name: string,
  kind: NumberClass,
  columns: Columns,
  source: string
): RegistryRow => {
  const [use, validation, implementUse, implementValidation] = columns
  return {
    number,
    name,
    kind,
    use,
    validation,
    implementUse,
    implementValidation,
    verdict: verdictOf(kind, use),
    source
  }
}

const T2 = "RFC 9904 Table 2"
const T3 = "RFC 9904 Table 3"
const ALGORITHM_ROWS: ReadonlyArray<RegistryRow> = [
  row(0, "DELETE", "not-for-zone-signing", NONE, "IANA; RFC 8078 4 (CDS/CDNSKEY delete only)"),
  row(1, "RSAMD5", "assigned", ["MUST NOT", "MUST NOT", "MUST NOT", "MUST NOT"], T2),
  row(2, "DH", "not-for-zone-signing", NONE, "IANA; RFC 2539 (zone signing: N)"),
  row(3, "DSA", "assigned", ["MUST NOT", "MUST NOT", "MUST NOT", "MUST NOT"], T2),
  row(4, "RESERVED-4", "reserved", NONE, "IANA (reserved)"),
  row(5, "RSASHA1", "assigned", ["MUST NOT", "RECOMMENDED", "NOT RECOMMENDED", "MUST"], `${T2}; RFC 9905 5`),
  row(6, "DSA-NSEC3-SHA1", "assigned", ["MUST NOT", "MUST NOT", "MUST NOT", "MUST NOT"], T2),
  row(
    7,
    "RSASHA1-NSEC3-SHA1",
    "assigned",
    ["MUST NOT", "RECOMMENDED", "NOT RECOMMENDED", "MUST"],
    `${T2}; RFC 9905 5`
  ),
  row(8, "RSASHA256", "assigned", ["RECOMMENDED", "RECOMMENDED", "MUST", "MUST"], T2),
  row(9, "RESERVED-9", "reserved", NONE, "IANA (reserved)"),
  row(10, "RSASHA512", "assigned", ["NOT RECOMMENDED", "RECOMMENDED", "NOT RECOMMENDED", "MUST"], T2),
  row(11, "RESERVED-11", "reserved", NONE, "IANA (reserved)"),
  row(12, "ECC-GOST", "assigned", ["MUST NOT", "MAY", "MUST NOT", "MAY"], T2),
  row(13, "ECDSAP256SHA256", "assigned", ["RECOMMENDED", "RECOMMENDED", "MUST", "MUST"], T2),
  row(14, "ECDSAP384SHA384", "assigned", ["MAY", "RECOMMENDED", "MAY", "RECOMMENDED"], T2),
  row(15, "ED25519", "assigned", ["RECOMMENDED", "RECOMMENDED", "RECOMMENDED", "RECOMMENDED"], T2),
  row(16, "ED448", "assigned", ["MAY", "RECOMMENDED", "MAY", "RECOMMENDED"], T2),
  row(17, "SM2SM3", "assigned", ["MAY", "MAY", "MAY", "MAY"], `${T2}; RFC 9563`),
  row(23, "ECC-GOST12", "assigned", ["MAY", "MAY", "MAY", "MAY"], `${T2}; RFC 9558`),
  row(252, "INDIRECT", "not-for-zone-signing", NONE, "IANA; RFC 4034 A.1 (zone signing: N)"),
  row(253, "PRIVATEDNS", "private", ["MAY", "MAY", "MAY", "MAY"], `${T2}; RFC 4034 A.1.1`),
  row(254, "PRIVATEOID", "private", ["MAY", "MAY", "MAY", "MAY"], `${T2}; RFC 4034 A.1.1`)
]

const DIGEST_ROWS: ReadonlyArray<RegistryRow> = [
  row(
    0,
    "NULL (CDS only)",
    "not-for-zone-signing",
    ["MUST NOT", "MUST NOT", "MUST NOT", "MUST NOT"],
    `${T3}; RFC 8078 4`
  ),
  row(1, "SHA-1", "assigned", ["MUST NOT", "RECOMMENDED", "MUST NOT", "MUST"], `${T3}; RFC 3658`),
  row(2, "SHA-256", "assigned", ["RECOMMENDED", "RECOMMENDED", "MUST", "MUST"], `${T3}; RFC 4509`),
  row(3, "GOST R 34.11-94", "assigned", ["MUST NOT", "MAY", "MUST NOT", "MAY"], `${T3}; RFC 5933`),
  row(4, "SHA-384", "assigned", ["MAY", "RECOMMENDED", "MAY", "RECOMMENDED"], `${T3}; RFC 6605`),
  row(5, "GOST R 34.11-2012", "assigned", ["MAY", "MAY", "MAY", "MAY"], `${T3}; RFC 9558`),
  row(6, "SM3", "assigned", ["MAY", "MAY", "MAY", "MAY"], `${T3}; RFC 9563`)
]

/** Every DNSKEY algorithm number 0-255: assigned rows, else its IANA range. */
export const ALGORITHM_REGISTRY: ReadonlyArray<RegistryRow> = Array.from({ length: 256 }, (_, n) => {
  const known = ALGORITHM_ROWS.find((r) => r.number === n)
  if (known) return known
  // IANA: 18-22 and 24-122 unassigned; 123-251 and 255 reserved.
  const kind: NumberClass = n >= 123 ? "reserved" : "unassigned"
  return row(n, `${kind.toUpperCase()}-${n}`, kind, NONE, `IANA (${kind})`)
})

/** Every DS digest type 0-255: assigned rows, else its IANA range. */
export const DIGEST_REGISTRY: ReadonlyArray<RegistryRow> = Array.from({ length: 256 }, (_, n) => {
  const known = DIGEST_ROWS.find((r) => r.number === n)
  if (known) return known
  // IANA: 7-127 and 255 unassigned, 128-252 reserved, 253-254 private use.
  const kind: NumberClass =
    n >= 253 && n <= 254 ? "private" : n >= 128 && n <= 252 ? "reserved" : "unassigned"
  return row(n, `${kind.toUpperCase()}-${n}`, kind, NONE, `IANA (${kind})`)
})

const clamp = (n: number) => (Number.isInteger(n) && n >= 0 && n <= 255 ? n : 255)
export const algorithmRow = (alg: number): RegistryRow => ALGORITHM_REGISTRY[clamp(alg)]!
export const digestRow = (digest: number): RegistryRow => DIGEST_REGISTRY[clamp(digest)]!

/** Why a number of each class cannot serve, in words, for the findings (none for an assigned one). */
const UNUSABLE: { readonly [K in NumberClass]: string | undefined } = {
  assigned: undefined,
  "not-for-zone-signing": "is not a zone-signing number",
  reserved: "is reserved",
  unassigned: "is unassigned",
  private: "is for private use (RFC 4034 A.1.1): public validators cannot validate it"
}

/** Why a number cannot serve, in words, for the findings (undefined for an assigned number). */
export const unusableReason = (r: RegistryRow): string | undefined => UNUSABLE[r.kind]
