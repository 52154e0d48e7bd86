/**
 * The first flight of a TLS handshake, byte by byte (RFC 8446 4.1.2, 4.1.3, 4.1.4; RFC 5246
 * 7.4.1.2): a TLS 1.3 ClientHello that offers the hybrid post-quantum key exchanges first, a TLS 1.2
 * ClientHello that offers Extended Master Secret (RFC 7627) and OCSP stapling (RFC 6066 8), and the
 * reading of what the server answers (its ServerHello with the extensions it agreed to, a
 * HelloRetryRequest, or an alert). The probes (KeyExchangeProbe.ts, ExtendedMasterSecret.ts) send
 * the one and read the other, and close: what they ask is in the server's first message, so no key
 * is ever computed and the runtime's OpenSSL plays no part. Pure: no I/O, randomness passed in.
 */
import { hybridShare } from "./HybridShare.ts"

/** Named groups (IANA "TLS Supported Groups"; RFC 8446 4.2.7, RFC 7919, draft-ietf-tls-ecdhe-mlkem). */
export const GROUPS: Readonly<Record<number, string>> = {
  0x0017: "secp256r1",
  0x0018: "secp384r1",
  0x0019: "secp521r1",
  0x001d: "x25519",
  0x001e: "x448",
  0x0100: "ffdhe2048",
  0x0101: "ffdhe3072",
  0x0102: "ffdhe4096",
  0x0103: "ffdhe6144",
  0x0104: "ffdhe8192",
  0x11eb: "SecP256r1MLKEM768",
  0x11ec: "X25519MLKEM768",
  0x11ed: "SecP384r1MLKEM1024"
}

export const X25519_MLKEM768 = 0x11ec

/** The hybrid post-quantum groups registered (draft-ietf-tls-ecdhe-mlkem, IANA codepoints). */
export const HYBRID_GROUPS: ReadonlyArray<number> = [0x11ec, 0x11eb, 0x11ed]

/**
 * What the ClientHello lists in supported_groups, in our order of preference: the hybrids first
 * (X25519MLKEM768 as browsers offer it), then the classical curves a TLS 1.3 server most often
 * takes, so that a server without the hybrids still names the group it would use.
 */
export const OFFERED_GROUPS: ReadonlyArray<number> = [...HYBRID_GROUPS, 0x001d, 0x0017, 0x0018]

export const groupName = (group: number): string =>
  GROUPS[group] ?? `0x${group.toString(16).padStart(4, "0")}`

export const isHybrid = (group: number): boolean => HYBRID_GROUPS.includes(group)

/**
 * The random bytes a ClientHello needs: the Random, the legacy session id, and a source of
 * 16-bit values for the ML-KEM key's coefficients. Passed in, so that the building is pure.
 */
export interface HelloEntropy {
  /** 32 bytes (RFC 8446 4.1.2 `random`). */
  readonly random: Uint8Array
  /** 32 bytes: a session id, as a middlebox-compatible client sends (RFC 8446 D.4). */
  readonly sessionId: Uint8Array
  /** At least HYBRID_SHARE_BYTES bytes, turned into a well-formed share. */
  readonly share: Uint8Array
}

const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff]
const u24 = (n: number) => [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]
/** A vector with a 1-, 2- or 3-byte length prefix (RFC 8446 3.4). */
const vec = (lengthBytes: 1 | 2 | 3, body: ReadonlyArray<number>) => [
  ...(lengthBytes === 1 ? [body.length] : lengthBytes === 2 ? u16(body.length) : u24(body.length)),
  ...body
]
const extension = (type: number, body: ReadonlyArray<number>) => [...u16(type), ...vec(2, body)]

/*
 * The ClientHellos are built as bytes: built as arrays of numbers, each level of nesting spread
 * the whole hello again, ~110 KB of garbage for a hello carrying a hybrid key share of 1,216 bytes.
 */
type Part = Uint8Array | ReadonlyArray<number>
/** The parts one after the other, in one allocation. */
const cat = (...parts: ReadonlyArray<Part>): Uint8Array => {
  let length = 0
  for (const part of parts) length += part.length
  const out = new Uint8Array(length)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
/** `vec` as bytes. */
const vecBytes = (lengthBytes: 1 | 2 | 3, body: Part): Uint8Array =>
  cat(lengthBytes === 1 ? [body.length] : lengthBytes === 2 ? u16(body.length) : u24(body.length), body)
/** `extension` as bytes. */
const extensionBytes = (type: number, body: Part): Uint8Array => cat(u16(type), vecBytes(2, body))

/** The TLS 1.3 suites (RFC 8446 B.4): AES-128-GCM, AES-256-GCM, ChaCha20-Poly1305. */
const SUITES = [0x1301, 0x1302, 0x1303]
/** ECDSA, RSA-PSS and PKCS#1 for certificates, EdDSA (RFC 8446 4.2.3). */
const SIGNATURE_SCHEMES = [0x0403, 0x0503, 0x0603, 0x0804, 0x0805, 0x0806, 0x0807, 0x0401, 0x0501, 0x0601]
const TLS13 = 0x0304

/** A host name may go in SNI; an address literal never does (RFC 6066 3). */
const sniOf = (name: string | null): string | null =>
  name === null || name === "" || /^[\d.]+$/.test(name) || name.includes(":") ? null : name.replace(/\.$/, "")

/** server_name with one host_name (RFC 6066 3), or nothing for an address or no name. */
const serverNameExtension = (serverName: string | null): Part => {
  const sni = sniOf(serverName)
  return sni === null
    ? []
    : extensionBytes(0, vecBytes(2, cat([0], vecBytes(2, new TextEncoder().encode(sni.toLowerCase())))))
}

/**
 * A ClientHello record, TLS 1.2's frame that TLS 1.3 keeps (RFC 5246 7.4.1.2, RFC 8446 4.1.2):
 * legacy version 1.2, the random, the session id, the suites, null compression only, the
 * extensions; in a handshake message (type 1) in a handshake record whose legacy version is 0x0301
 * (RFC 8446 5.1).
 */
const helloRecord = (
  random: Uint8Array,
  sessionId: Uint8Array,
  suites: ReadonlyArray<number>,
  extensions: Part
): Uint8Array => {
  const body = cat(
    u16(0x0303),
    random.subarray(0, 32),
    vecBytes(1, sessionId.subarray(0, 32)),
    vecBytes(2, suites.flatMap(u16)),
    vecBytes(1, [0]),
    vecBytes(2, extensions)
  )
  return cat([22], u16(0x0301), vecBytes(2, cat([1], vecBytes(3, body))))
}

/**
 * The ClientHello record (RFC 8446 4.1.2, 5.1): TLS 1.3 only (supported_versions), the three
 * suites every TLS 1.3 server has, `OFFERED_GROUPS` with one key share, X25519MLKEM768's, so a
 * server that takes another group answers with a HelloRetryRequest naming it (RFC 8446 4.1.4).
 */
export const clientHello = (serverName: string | null, entropy: HelloEntropy): Uint8Array => {
  const extensions = cat(
    serverNameExtension(serverName),
    extensionBytes(10, vecBytes(2, OFFERED_GROUPS.flatMap(u16))),
    extensionBytes(13, vecBytes(2, SIGNATURE_SCHEMES.flatMap(u16))),
    extensionBytes(43, vecBytes(1, u16(TLS13))),
    // psk_key_exchange_modes (RFC 8446 4.2.9): psk_dhe_ke; some servers expect it from a 1.3 client.
    extensionBytes(45, vecBytes(1, [1])),
    extensionBytes(51, vecBytes(2, cat(u16(X25519_MLKEM768), vecBytes(2, hybridShare(entropy.share)))))
  )
  return helloRecord(entropy.random, entropy.sessionId, SUITES, extensions)
}

/**
 * The pre-1.3 suites the TLS 1.2 ClientHello offers (IANA codepoints): ECDHE and DHE with AES-GCM,
 * ChaCha20-Poly1305 and AES-CBC, and RSA key exchange, so that any server still speaking TLS 1.2
 * finds one it takes; then TLS_EMPTY_RENEGOTIATION_INFO_SCSV (RFC 5746 3.3).
 */
const TLS12_SUITES = [
  0xc02b, 0xc02f, 0xc02c, 0xc030, 0xcca9, 0xcca8, 0xc023, 0xc027, 0xc009, 0xc013, 0xc024, 0xc028, 0xc00a,
  0xc014, 0x009e, 0x009f, 0xccaa, 0x0067, 0x006b, 0x0033, 0x0039, 0x009c, 0x009d, 0x003c, 0x003d, 0x002f,
  0x0035, 0x00ff
]
/** The groups the TLS 1.2 ClientHello lists: the curves, then the RFC 7919 finite-field groups. */
const TLS12_GROUPS = [0x001d, 0x0017, 0x0018, 0x0019, 0x001e, 0x0100, 0x0101, 0x0102]

/** extended_master_secret (RFC 7627 5.1). */
export const EXTENDED_MASTER_SECRET = 23
/** status_request (RFC 6066 8): an OCSP response asked for, and agreed to in the ServerHello. */
export const STATUS_REQUEST = 5

/**
 * A TLS 1.2 ClientHello record (RFC 5246 7.4.1.2): client_version TLS 1.2 and no supported_versions,
 * so a server picks 1.2 at most; the extensions a current client sends (SNI, groups, point formats,
 * signature algorithms) and the two asked about, extended_master_secret (empty, RFC 7627 5.1) and
 * status_request for OCSP (RFC 6066 8). A server that supports either echoes it in its ServerHello.
 */
export const clientHello12 = (serverName: string | null, random: Uint8Array): Uint8Array => {
  const extensions = cat(
    serverNameExtension(serverName),
    // status_request: OCSP, no responder ids, no request extensions (RFC 6066 8).
    extensionBytes(STATUS_REQUEST, [1, 0, 0, 0, 0]),
    extensionBytes(10, vecBytes(2, TLS12_GROUPS.flatMap(u16))),
    // ec_point_formats: uncompressed (RFC 8422 5.1.2).
    extensionBytes(11, vecBytes(1, [0])),
    extensionBytes(13, vecBytes(2, SIGNATURE_SCHEMES.flatMap(u16))),
    extensionBytes(EXTENDED_MASTER_SECRET, [])
  )
  return helloRecord(random, new Uint8Array(0), TLS12_SUITES, extensions)
}

/**
 * The Random of a HelloRetryRequest: SHA-256 of "HelloRetryRequest" (RFC 8446 4.1.3). A server
 * that wants another key share sends a ServerHello with this Random and the group it selects.
 */
export const HELLO_RETRY_RANDOM = Uint8Array.from([
  0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91, 0xc2, 0xa2,
  0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c
])

/** What the server's first message said. */
export type ServerHelloReading =
  /** A ServerHello: the version it chose (supported_versions, else legacy_version) and its key share's group. */
  | {
      readonly kind: "server-hello"
      readonly version: number
      readonly cipherSuite: number
      /** The key share's group; null without one (TLS 1.2 and below). */
      readonly group: number | null
      readonly shareLength: number | null
      /** The extension types the ServerHello carries, in its order (RFC 8446 4.2, RFC 5246 7.4.1.4). */
      readonly extensions: ReadonlyArray<number>
    }
  /** A HelloRetryRequest: the group the server selects instead of the share offered. */
  | { readonly kind: "hello-retry"; readonly cipherSuite: number; readonly group: number | null }
  /** An alert (RFC 8446 6): the server refuses what was offered. */
  | { readonly kind: "alert"; readonly level: number; readonly description: number }
  /** Not TLS, or TLS we cannot read. */
  | { readonly kind: "malformed"; readonly message: string }

/** Bytes read so far: more are needed, or they say enough. */
export type Reading = { readonly done: false } | { readonly done: true; readonly reading: ServerHelloReading }

const MORE: Reading = { done: false }
const done = (reading: ServerHelloReading): Reading => ({ done: true, reading })
const malformed = (message: string) => done({ kind: "malformed", message })

/** One alert (RFC 8446 6): level and description. */
type Alert = Extract<ServerHelloReading, { readonly kind: "alert" }>

/**
 * The handshake bytes of the records read so far (type 22), up to the first alert (type 21) or
 * the first record not whole yet; a string when the bytes are not TLS records at all.
 */
const records = (
  bytes: Uint8Array
): { readonly handshake: Uint8Array; readonly alert: Alert | null } | string => {
  const parts: Array<Uint8Array> = []
  let at = 0
  while (at < bytes.length) {
    const type = bytes[at]!
    // After the ServerHello come change_cipher_spec (RFC 8446 D.4) and encrypted records: not read.
    if (type !== 21 && type !== 22)
      return parts.length > 0 ? { handshake: concat(parts), alert: null } : `record type ${type} first`
    if (at + 5 > bytes.length) break
    if (bytes[at + 1] !== 3) return `not a TLS record (version byte ${bytes[at + 1]})`
    const length = (bytes[at + 3]! << 8) | bytes[at + 4]!
    if (length > 16_384 + 256) return `a record of ${length} bytes (RFC 8446 5.1: at most 2^14 + 256)`
    if (at + 5 + length > bytes.length) break
    const fragment = bytes.subarray(at + 5, at + 5 + length)
    if (type === 21) {
      if (fragment.length < 2) return "a short alert"
      return {
        handshake: concat(parts),
        alert: { kind: "alert", level: fragment[0]!, description: fragment[1]! }
      }
    }
    parts.push(fragment)
    at += 5 + length
  }
  return { handshake: concat(parts), alert: null }
}

const concat = (parts: ReadonlyArray<Uint8Array>) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) out.set(p, (at += p.length) - p.length)
  return out
}

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i])

/** The extensions of a ServerHello by type (RFC 8446 4.2), or why they cannot be read. */
const extensionsOf = (data: Uint8Array): Map<number, Uint8Array> | string => {
  const found = new Map<number, Uint8Array>()
  let at = 0
  while (at < data.length) {
    if (at + 4 > data.length) return "a truncated extension"
    const type = (data[at]! << 8) | data[at + 1]!
    const length = (data[at + 2]! << 8) | data[at + 3]!
    if (at + 4 + length > data.length) return `extension ${type} runs past the message`
    if (found.has(type)) return `extension ${type} twice (RFC 8446 4.2)`
    found.set(type, data.subarray(at + 4, at + 4 + length))
    at += 4 + length
  }
  return found
}

/** A ServerHello's body (RFC 8446 4.1.3), its Random telling a HelloRetryRequest apart. */
const parseServerHello = (body: Uint8Array): ServerHelloReading => {
  const bad = (message: string): ServerHelloReading => ({ kind: "malformed", message })
  if (body.length < 38) return bad("a ServerHello too short")
  const legacyVersion = (body[0]! << 8) | body[1]!
  const random = body.subarray(2, 34)
  const sessionLength = body[34]!
  let at = 35 + sessionLength
  if (sessionLength > 32 || at + 5 > body.length) return bad("a ServerHello too short for its session id")
  const cipherSuite = (body[at]! << 8) | body[at + 1]!
  at += 3 // the suite and legacy_compression_method
  // TLS 1.2 and below may send no extensions at all (RFC 5246 7.4.1.3).
  const extensions = at === body.length ? new Map<number, Uint8Array>() : undefined
  let table = extensions
  if (table === undefined) {
    if (at + 2 > body.length) return bad("a ServerHello too short for its extensions")
    const length = (body[at]! << 8) | body[at + 1]!
    if (at + 2 + length !== body.length) return bad("extensions that do not fill the ServerHello")
    const read = extensionsOf(body.subarray(at + 2))
    if (typeof read === "string") return bad(read)
    table = read
  }
  const keyShare = table.get(51)
  const versions = table.get(43)
  if (equal(random, HELLO_RETRY_RANDOM)) {
    // RFC 8446 4.2.8: a HelloRetryRequest's key_share holds the selected group alone.
    if (keyShare !== undefined && keyShare.length !== 2)
      return bad("a HelloRetryRequest key_share not 2 bytes")
    return { kind: "hello-retry", cipherSuite, group: keyShare ? (keyShare[0]! << 8) | keyShare[1]! : null }
  }
  if (versions !== undefined && versions.length !== 2) return bad("a supported_versions not 2 bytes")
  const version = versions ? (versions[0]! << 8) | versions[1]! : legacyVersion
  const types = [...table.keys()]
  if (keyShare === undefined)
    return { kind: "server-hello", version, cipherSuite, group: null, shareLength: null, extensions: types }
  if (keyShare.length < 4) return bad("a key_share too short")
  const shareLength = (keyShare[2]! << 8) | keyShare[3]!
  if (4 + shareLength !== keyShare.length) return bad("a key_share whose length does not match")
  return {
    kind: "server-hello",
    version,
    cipherSuite,
    group: (keyShare[0]! << 8) | keyShare[1]!,
    shareLength,
    extensions: types
  }
}

/**
 * Reads what a server sent so far after our ClientHello: `done: false` until its first handshake
 * message (a ServerHello or HelloRetryRequest, possibly over several records) or an alert is whole.
 */
export const readServerHello = (bytes: Uint8Array): Reading => {
  const read = records(bytes)
  if (typeof read === "string") return malformed(read)
  const hs = read.handshake
  const length = hs.length < 4 ? Infinity : (hs[1]! << 16) | (hs[2]! << 8) | hs[3]!
  if (hs.length >= 1 && hs[0] !== 2) return malformed(`handshake message ${hs[0]} first, not a ServerHello`)
  if (hs.length >= 4 + length) return done(parseServerHello(hs.subarray(4, 4 + length)))
  // An alert before the ServerHello is whole ends the handshake (RFC 8446 6.2).
  return read.alert === null ? MORE : done(read.alert)
}

/** What a server's ServerHello carries, for `serverHelloRecord`. */
export interface ServerHelloFields {
  readonly helloRetry: boolean
  readonly random: Uint8Array
  readonly sessionId: Uint8Array
  readonly cipherSuite: number
  /** supported_versions' selected version; null leaves the extension out. */
  readonly version: number | null
  /** The key share's group (HelloRetryRequest: the selected group); null leaves key_share out. */
  readonly group: number | null
  readonly share: Uint8Array
  /** More extensions, each empty (extended_master_secret, status_request), after those above. */
  readonly more?: ReadonlyArray<number>
}

/**
 * A ServerHello or HelloRetryRequest record as a server sends it (RFC 8446 4.1.3): what a test
 * server answers, and what `readServerHello` is proved against.
 */
export const serverHelloRecord = (f: ServerHelloFields): Uint8Array => {
  const keyShare =
    f.group === null
      ? []
      : extension(51, f.helloRetry ? u16(f.group) : [...u16(f.group), ...vec(2, [...f.share])])
  const extensions = [
    ...(f.version === null ? [] : extension(43, u16(f.version))),
    ...keyShare,
    ...(f.more ?? []).flatMap((type) => extension(type, []))
  ]
  const body = [
    ...u16(0x0303),
    ...(f.helloRetry ? HELLO_RETRY_RANDOM : f.random.subarray(0, 32)),
    ...vec(1, [...f.sessionId.subarray(0, 32)]),
    ...u16(f.cipherSuite),
    0,
    ...vec(2, extensions)
  ]
  return Uint8Array.from([22, ...u16(0x0303), ...vec(2, [2, ...vec(3, body)])])
}
