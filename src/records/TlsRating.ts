/**
 * TLS configuration ratings per the NCSC-NL "IT Security Guidelines for Transport Layer Security
 * (TLS)" of May 2025 (`TLS_GUIDELINE`), as internet.nl applies them: every part of a configuration
 * (protocol version, cipher suite, key exchange group, certificate key and signature, Extended
 * Master Secret on TLS 1.2) is `good`, `sufficient`, `phase-out` or `insufficient`, and a
 * configuration is as good as its worst part. Pure: the probe (net/TlsScan.ts) reports what a
 * server accepts; this module only judges names and sizes.
 *
 * Where the guideline and internet.nl differ from a simpler reading, the guideline wins: TLS 1.2 is
 * `sufficient` (only 1.3 is `good`), and DHE suites are `sufficient` even with AEAD (their
 * finite-field groups are the weak part, judged on their own below). The 2025 edition changed the
 * key exchange groups (finite-field groups one step down, P-521, brainpool and the hybrid ML-KEM
 * groups good), the certificate keys (RSA 2048 phase out) and added Extended Master Secret; the
 * version and cipher suite tables are kept as v2.1 rated them (docs/scoring.md says why).
 */

/** The guideline these ratings follow, named in every web and mail TLS result. */
export const TLS_GUIDELINE = "NCSC-NL TLS 2025-05"

/** Best first: the order `worst` and the property tests rely on. */
export const TLS_RATINGS = ["good", "sufficient", "phase-out", "insufficient"] as const
export type TlsRating = (typeof TLS_RATINGS)[number]

const rank = (r: TlsRating) => TLS_RATINGS.indexOf(r)

/** The worst of the ratings; `good` for none (nothing offered is nothing wrong). */
export const worst = (ratings: Iterable<TlsRating>): TlsRating => {
  let out: TlsRating = "good"
  for (const r of ratings) if (rank(r) > rank(out)) out = r
  return out
}

/** Whether a rating passes the guideline (`good` or `sufficient`). */
export const acceptable = (r: TlsRating): boolean => r === "good" || r === "sufficient"

/** Protocol versions as node names them (`SSLv3`, `TLSv1` ... `TLSv1.3`). NCSC-NL table 1. */
export const VERSION_RATINGS: Readonly<Record<string, TlsRating>> = {
  "TLSv1.3": "good",
  "TLSv1.2": "sufficient",
  "TLSv1.1": "phase-out",
  TLSv1: "phase-out",
  SSLv3: "insufficient",
  SSLv2: "insufficient"
}

export const rateVersion = (version: string): TlsRating =>
  Object.hasOwn(VERSION_RATINGS, version) ? VERSION_RATINGS[version]! : "insufficient"

/** The parts of an IANA cipher suite name (RFC 8446 B.4, RFC 5246 A.5). */
export interface SuiteParts {
  /** `ECDHE`, `DHE`, `RSA`, ... ; `TLS13` for the TLS 1.3 suites (the group is negotiated apart). */
  readonly keyExchange: string
  readonly authentication: string
  readonly bulk: string
  readonly mac: string
}

/** `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256` -> its parts; null when the name is not a suite name. */
export const suiteParts = (name: string): SuiteParts | null => {
  const upper = name.toUpperCase()
  const m = /^(?:TLS|SSL)_(.+)_WITH_(.+)_(SHA\d*|MD5|NULL)$/.exec(upper)
  if (m) {
    const [kx = "", auth = kx] = m[1]!.split("_")
    return { keyExchange: kx, authentication: auth, bulk: m[2]!, mac: m[3]! }
  }
  const t13 = /^TLS_(AES_\d+_GCM|AES_\d+_CCM(?:_8)?|CHACHA20_POLY1305)_(SHA\d+)$/.exec(upper)
  if (t13) return { keyExchange: "TLS13", authentication: "CERT", bulk: t13[1]!, mac: t13[2]! }
  return null
}

const KEY_EXCHANGE: Readonly<Record<string, TlsRating>> = {
  TLS13: "good",
  ECDHE: "good",
  DHE: "sufficient",
  RSA: "phase-out"
}

const bulkRating = (bulk: string): TlsRating => {
  if (/EXPORT|_40|_56|^NULL$|^RC4|^RC2|^DES_|^DES40|^IDEA/.test(bulk)) return "insufficient"
  if (/^AES_\d+_GCM$|^CHACHA20_POLY1305$/.test(bulk)) return "good"
  if (/^AES_\d+_CCM_8$/.test(bulk)) return "phase-out"
  if (/^AES_\d+_CCM$|^AES_\d+_CBC$/.test(bulk)) return "sufficient"
  if (/^3DES_EDE_CBC$/.test(bulk)) return "phase-out"
  // Camellia, ARIA, SEED and the rest: not in the guideline's lists, which internet.nl reads as
  // insufficient.
  return "insufficient"
}

/**
 * A cipher suite by its IANA name (NCSC-NL table 2, internet.nl's cipher lists): the worst of its
 * key exchange (ECDHE good, DHE sufficient, RSA phase out, anonymous or static DH insufficient),
 * its bulk cipher (AES-GCM and ChaCha20-Poly1305 good, AES-CBC and AES-CCM sufficient, 3DES and
 * CCM_8 phase out, RC4, DES, NULL and EXPORT insufficient) and its MAC (MD5 or none insufficient).
 * TLS 1.3's five suites are rated by their bulk cipher alone.
 */
export const rateCipher = (name: string): TlsRating => {
  const parts = suiteParts(name)
  if (parts === null) return "insufficient"
  const kx =
    parts.authentication === "ANON" || parts.authentication === "NULL"
      ? "insufficient"
      : Object.hasOwn(KEY_EXCHANGE, parts.keyExchange)
        ? KEY_EXCHANGE[parts.keyExchange]!
        : "insufficient"
  const mac = parts.mac === "MD5" || parts.mac === "NULL" ? "insufficient" : "good"
  return worst([kx, bulkRating(parts.bulk), mac])
}

/** The ephemeral key exchange of a handshake, as node's `getEphemeralKeyInfo` reports it. */
export interface KeyExchange {
  /** `ECDH` (elliptic curve or X25519/X448) or `DH` (finite field). */
  readonly type: "ECDH" | "DH"
  /** The curve (`X25519`, `prime256v1`, ...); null for DH. */
  readonly name: string | null
  readonly size: number
}

/** Curves the 2025 guideline rates good, by the names node, OpenSSL and IANA give them. */
const GOOD_CURVES = new Set([
  "X25519",
  "X448",
  "PRIME256V1",
  "SECP256R1",
  "P-256",
  "SECP384R1",
  "P-384",
  "SECP521R1",
  "P-521",
  "BRAINPOOLP256R1",
  "BRAINPOOLP384R1",
  "BRAINPOOLP512R1"
])

/**
 * The hybrid post-quantum groups (draft-ietf-tls-ecdhe-mlkem): ML-KEM beside a good curve, which
 * the 2025 guideline rates good (the classical half alone already is).
 */
const HYBRID_GROUPS = new Set(["X25519MLKEM768", "SECP256R1MLKEM768", "SECP384R1MLKEM1024"])

/**
 * A key exchange group (NCSC-NL 2025 3.3.3): X25519, X448, secp256r1, secp384r1, secp521r1, the
 * brainpool curves and the hybrid ML-KEM groups good; secp224r1 phase out; other curves
 * insufficient. Finite-field groups went one step down from v2.1: 3072 bits or more (the RFC 7919
 * groups ffdhe3072 to ffdhe8192) phase out, 2048 bits (ffdhe2048 included) and fewer insufficient.
 * A handshake tells only the group's size, not whether its prime is RFC 7919's, so a home-made
 * group of 3072 bits is read as ffdhe3072 would be (internet.nl, which compares primes, rates it
 * insufficient).
 */
export const rateKeyExchange = (kx: KeyExchange): TlsRating => {
  if (kx.type === "ECDH") {
    const curve = (kx.name ?? "").toUpperCase()
    if (GOOD_CURVES.has(curve) || HYBRID_GROUPS.has(curve)) return "good"
    return curve === "SECP224R1" ? "phase-out" : "insufficient"
  }
  return kx.size >= 3072 ? "phase-out" : "insufficient"
}

/**
 * A certificate's public key (NCSC-NL 2025 3.3.2.1, as internet.nl applies it): RSA or DSA of 3072
 * bits or more good, 2048 to 3071 phase out (v2.1: sufficient), fewer insufficient; ECDSA on P-256,
 * P-384, P-521 or a brainpool curve good, on secp224r1 phase out, on another curve insufficient;
 * Ed25519 and Ed448 good.
 */
export const rateCertificateKey = (
  keyType: string,
  keySize: number | null,
  curve: string | null
): TlsRating => {
  if (keyType === "ed25519" || keyType === "ed448") return "good"
  if (keyType === "ec") {
    const c = (curve ?? "").toUpperCase()
    return GOOD_CURVES.has(c) ? "good" : c === "SECP224R1" ? "phase-out" : "insufficient"
  }
  if (keyType === "rsa" || keyType === "rsa-pss" || keyType === "dsa") {
    if (keySize === null) return "insufficient"
    return keySize >= 3072 ? "good" : keySize >= 2048 ? "phase-out" : "insufficient"
  }
  return "insufficient"
}

/**
 * Extended Master Secret on TLS 1.2 (RFC 7627; NCSC-NL 2025 chapter 4, a precondition of a secure
 * TLS 1.2 configuration, which internet.nl 1.11 scores): negotiated good; not negotiated
 * insufficient, since without it a TLS 1.2 session is open to the triple handshake attack (RFC 7627
 * 1) whatever its suites. Null (not applicable) when TLS 1.2 is refused or was not asked about:
 * TLS 1.3 binds its secrets to the transcript on its own (RFC 8446 7.1).
 */
export const rateExtendedMasterSecret = (negotiated: boolean | null): TlsRating | null =>
  negotiated === null ? null : negotiated ? "good" : "insufficient"

/**
 * A certificate's signature algorithm (NCSC-NL table 10): a hash of the SHA-2 family (or an EdDSA
 * signature) good; SHA-1 and MD5 insufficient (RFC 9155 deprecates them in TLS 1.2 signatures).
 */
export const rateSignature = (algorithm: string): TlsRating => {
  const a = algorithm.toLowerCase()
  if (/md5|md2|sha1(?!\d)|sha-1(?!\d)/.test(a)) return "insufficient"
  // RSASSA-PSS names its hash in parameters; certificates use it only with SHA-256 or better.
  if (a === "rsassa-pss") return "good"
  if (/sha-?(224|256|384|512)|ed25519|ed448/.test(a)) return "good"
  return "insufficient"
}

/** Signature algorithm OIDs (RFC 4055, RFC 5758, RFC 8410, RFC 3279) by the names reports show. */
export const SIGNATURE_ALGORITHMS: Readonly<Record<string, string>> = {
  "1.2.840.113549.1.1.4": "md5WithRSAEncryption",
  "1.2.840.113549.1.1.5": "sha1WithRSAEncryption",
  "1.2.840.113549.1.1.10": "rsassa-pss",
  "1.2.840.113549.1.1.11": "sha256WithRSAEncryption",
  "1.2.840.113549.1.1.12": "sha384WithRSAEncryption",
  "1.2.840.113549.1.1.13": "sha512WithRSAEncryption",
  "1.2.840.10045.4.1": "ecdsa-with-SHA1",
  "1.2.840.10045.4.3.2": "ecdsa-with-SHA256",
  "1.2.840.10045.4.3.3": "ecdsa-with-SHA384",
  "1.2.840.10045.4.3.4": "ecdsa-with-SHA512",
  "1.3.101.112": "ed25519",
  "1.3.101.113": "ed448"
}

/** A signature algorithm's name by its OID; the dotted OID when it has none here. */
export const signatureName = (oid: string): string =>
  Object.hasOwn(SIGNATURE_ALGORITHMS, oid) ? SIGNATURE_ALGORITHMS[oid]! : oid

/**
 * Whether a pre-1.3 suite, by its OpenSSL name (`ECDHE-RSA-AES128-GCM-SHA256`), is one `rateCipher`
 * rates good or sufficient: ECDHE or DHE key exchange with RSA, ECDSA or DSS authentication, and
 * AES-GCM, AES-CBC or ChaCha20-Poly1305 (no AES-CCM: `rateCipher` reads those names as unknown, and
 * this client does not offer them). What a probe offers apart to find the weak suites a server still
 * accepts (net/SmtpTlsScan.ts) without naming every suite it accepts.
 */
export const acceptableOpensslSuite = (name: string): boolean =>
  /^(ECDHE-(RSA|ECDSA)|DHE-(RSA|DSS))-(AES(128|256)(-GCM-SHA(256|384)|-SHA(256|384)?)|CHACHA20-POLY1305)$/.test(
    name.toUpperCase()
  )
