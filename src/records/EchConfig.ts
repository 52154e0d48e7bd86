/**
 * The ECHConfigList an HTTPS record's `ech` SvcParam carries (RFC 9848 §3, the TLS Encrypted Client
 * Hello of RFC 9849 §4): its wire format read, each configuration judged as a client would take
 * it. Pure; `encodeEchConfigList` writes one back (the property tests round-trip through both).
 *
 * Wire format (RFC 9849 §4, TLS presentation language, big-endian):
 *   ECHConfig ECHConfigList<4..2^16-1>;            a 2-byte length, then the configurations
 *   struct { uint16 version; uint16 length; opaque contents[length] } ECHConfig;
 *   version 0xfe0d contents: HpkeKeyConfig key_config; uint8 maximum_name_length;
 *     opaque public_name<1..255>; ECHConfigExtension extensions<0..2^16-1>;
 *   HpkeKeyConfig: uint8 config_id; uint16 kem_id; opaque public_key<1..2^16-1>;
 *     HpkeSymmetricCipherSuite cipher_suites<4..2^16-4>  (uint16 kdf_id, uint16 aead_id each)
 *   ECHConfigExtension: uint16 type; opaque data<0..2^16-1>
 */

/** The ECHConfig version RFC 9849 defines. */
export const ECH_VERSION = 0xfe0d

/** HPKE KEMs (RFC 9180 §7.1, IANA "HPKE KEM Identifiers") and their public key length (Npk). */
const KEMS: ReadonlyMap<number, { readonly name: string; readonly publicKeyLength: number }> = new Map([
  [0x0010, { name: "DHKEM(P-256, HKDF-SHA256)", publicKeyLength: 65 }],
  [0x0011, { name: "DHKEM(P-384, HKDF-SHA384)", publicKeyLength: 97 }],
  [0x0012, { name: "DHKEM(P-521, HKDF-SHA512)", publicKeyLength: 133 }],
  [0x0020, { name: "DHKEM(X25519, HKDF-SHA256)", publicKeyLength: 32 }],
  [0x0021, { name: "DHKEM(X448, HKDF-SHA512)", publicKeyLength: 56 }]
])
/** HPKE KDFs (RFC 9180 §7.2). */
const KDFS: ReadonlyMap<number, string> = new Map([
  [0x0001, "HKDF-SHA256"],
  [0x0002, "HKDF-SHA384"],
  [0x0003, "HKDF-SHA512"]
])
/** HPKE AEADs (RFC 9180 §7.3); 0xFFFF is export-only and seals nothing, so ECH cannot use it. */
const AEADS: ReadonlyMap<number, string> = new Map([
  [0x0001, "AES-128-GCM"],
  [0x0002, "AES-256-GCM"],
  [0x0003, "ChaCha20Poly1305"],
  [0xffff, "Export-only"]
])

const hex4 = (n: number) => `0x${n.toString(16).padStart(4, "0")}`

export interface EchCipherSuite {
  readonly kdfId: number
  readonly aeadId: number
}

export interface EchExtension {
  readonly type: number
  /** The extension's data as hex. */
  readonly data: string
}

/** One ECHConfig of version 0xfe0d, as written. */
export interface EchConfigContents {
  readonly configId: number
  readonly kemId: number
  /** The HPKE public key as hex. */
  readonly publicKey: string
  readonly cipherSuites: ReadonlyArray<EchCipherSuite>
  readonly maximumNameLength: number
  readonly publicName: string
  readonly extensions: ReadonlyArray<EchExtension>
}

/** An ECHConfig as a list holds it: a known version with its contents, or another one kept whole. */
export type EchConfigEntry =
  | { readonly version: typeof ECH_VERSION; readonly contents: EchConfigContents }
  | { readonly version: number; readonly contents: null; readonly raw: string }

/** One configuration as the result shows it. */
export interface EchConfigView {
  readonly version: string
  readonly configId: number | null
  readonly kem: string | null
  readonly publicKeyLength: number | null
  /** Each suite as `KDF/AEAD`. */
  readonly cipherSuites: ReadonlyArray<string>
  readonly maximumNameLength: number | null
  readonly publicName: string | null
  readonly extensions: ReadonlyArray<string>
  /** A client can use it: a version it knows, nothing below wrong. */
  readonly usable: boolean
  readonly problems: ReadonlyArray<string>
}

export interface EchConfigListView {
  readonly configs: ReadonlyArray<EchConfigView>
  /** The list as a whole cannot be read (then `configs` holds those read before the fault). */
  readonly problems: ReadonlyArray<string>
  /** At least one configuration a client can use. */
  readonly usable: boolean
}

class Short extends Error {}

/** A reader over bytes that throws `Short` when a length runs past the end. */
const reader = (b: Uint8Array) => {
  let o = 0
  const need = (n: number) => {
    if (o + n > b.length) throw new Short()
  }
  const u8 = () => {
    need(1)
    return b[o++]!
  }
  const u16 = () => {
    need(2)
    const v = (b[o]! << 8) | b[o + 1]!
    o += 2
    return v
  }
  const bytes = (n: number) => {
    need(n)
    const v = b.subarray(o, o + n)
    o += n
    return v
  }
  return { u8, u16, bytes, left: () => b.length - o }
}

const toHex = (b: Uint8Array) => Buffer.from(b).toString("hex")

/** RFC 9849 §4 `public_name`: LDH labels, not an IPv4 address (§6.1.7 has clients ignore such a config). */
const publicNameProblem = (name: string): string | null => {
  const labels = name.replace(/\.$/, "").split(".")
  if (name.length === 0 || !labels.every((l) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(l)))
    return `public_name "${name}" is not a DNS name of LDH labels (RFC 9849 §4)`
  if (/^\d+$/.test(labels.at(-1)!) || /^0x[0-9a-f]+$/i.test(labels.at(-1)!))
    return `public_name "${name}" reads as an IPv4 address (RFC 9849 §4)`
  return null
}

/** Reads one 0xfe0d ECHConfig's contents; `Short` when a length overruns them. */
const readContents = (body: Uint8Array): { contents: EchConfigContents; trailing: number } => {
  const r = reader(body)
  const configId = r.u8()
  const kemId = r.u16()
  const publicKey = toHex(r.bytes(r.u16()))
  const suites = reader(r.bytes(r.u16()))
  const cipherSuites: Array<EchCipherSuite> = []
  while (suites.left() > 0) cipherSuites.push({ kdfId: suites.u16(), aeadId: suites.u16() })
  const maximumNameLength = r.u8()
  const publicName = Buffer.from(r.bytes(r.u8())).toString("latin1")
  const ext = reader(r.bytes(r.u16()))
  const extensions: Array<EchExtension> = []
  while (ext.left() > 0) {
    const type = ext.u16()
    extensions.push({ type, data: toHex(ext.bytes(ext.u16())) })
  }
  return {
    contents: { configId, kemId, publicKey, cipherSuites, maximumNameLength, publicName, extensions },
    trailing: r.left()
  }
}

/** What a client would hold against a 0xfe0d configuration (RFC 9849 §4, §4.2, §6.1; RFC 9180). */
const judgeContents = (c: EchConfigContents): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const kem = KEMS.get(c.kemId)
  const keyLength = c.publicKey.length / 2
  if (kem === undefined) problems.push(`KEM ${hex4(c.kemId)} is not an HPKE KEM clients know (RFC 9180 §7.1)`)
  else if (keyLength !== kem.publicKeyLength)
    problems.push(
      `the ${kem.name} public key is ${keyLength} bytes, not ${kem.publicKeyLength} (RFC 9180 §7.1)`
    )
  if (keyLength === 0) problems.push("the public key is empty (RFC 9849 §4)")
  if (c.cipherSuites.length === 0) problems.push("no cipher suite is listed (RFC 9849 §4)")
  const usableSuites = c.cipherSuites.filter(
    (s) => KDFS.has(s.kdfId) && AEADS.has(s.aeadId) && s.aeadId !== 0xffff
  )
  if (c.cipherSuites.length > 0 && usableSuites.length === 0)
    problems.push("no cipher suite pairs a known HPKE KDF with an AEAD that seals (RFC 9180 §7.2, §7.3)")
  const name = publicNameProblem(c.publicName)
  if (name) problems.push(name)
  // §4.2: an extension with the high bit set is mandatory; a client that does not know it skips the config.
  for (const e of c.extensions)
    if ((e.type & 0x8000) !== 0)
      problems.push(
        `mandatory extension ${hex4(e.type)} is one clients do not know, so they skip this config (RFC 9849 §4.2)`
      )
  const types = c.extensions.map((e) => e.type)
  if (new Set(types).size !== types.length) problems.push("an extension type appears twice (RFC 9849 §4.2)")
  return problems
}

const viewOf = (c: EchConfigContents): EchConfigView => {
  const problems = judgeContents(c)
  return {
    version: hex4(ECH_VERSION),
    configId: c.configId,
    kem: KEMS.get(c.kemId)?.name ?? hex4(c.kemId),
    publicKeyLength: c.publicKey.length / 2,
    cipherSuites: c.cipherSuites.map(
      (s) => `${KDFS.get(s.kdfId) ?? hex4(s.kdfId)}/${AEADS.get(s.aeadId) ?? hex4(s.aeadId)}`
    ),
    maximumNameLength: c.maximumNameLength,
    publicName: c.publicName,
    extensions: c.extensions.map((e) => hex4(e.type)),
    usable: problems.length === 0,
    problems
  }
}

/** The configurations of an ECHConfigList, decoded without judging them, and why the list itself does not parse. */
export const decodeEchConfigList = (
  bytes: Uint8Array
): { readonly entries: ReadonlyArray<EchConfigEntry>; readonly problems: ReadonlyArray<string> } => {
  const entries: Array<EchConfigEntry> = []
  const problems: Array<string> = []
  try {
    const outer = reader(bytes)
    const length = outer.u16()
    if (length !== outer.left())
      problems.push(`the list's length says ${length} bytes, ${outer.left()} follow (RFC 9849 §4)`)
    const list = reader(outer.bytes(Math.min(length, outer.left())))
    if (length < 4) problems.push("the list is shorter than one configuration (RFC 9849 §4)")
    while (list.left() > 0) {
      const version = list.u16()
      const body = list.bytes(list.u16())
      if (version !== ECH_VERSION) {
        // §4: a client ignores a configuration of a version it does not support; the list stays usable.
        entries.push({ version, contents: null, raw: toHex(body) })
        continue
      }
      const { contents, trailing } = readContents(body)
      if (trailing > 0)
        problems.push(`configuration ${contents.configId} has ${trailing} bytes after its extensions`)
      entries.push({ version: ECH_VERSION, contents })
    }
  } catch (e) {
    if (!(e instanceof Short)) throw e
    problems.push("a length runs past the end of the ECHConfigList (RFC 9849 §4)")
  }
  return { entries, problems }
}

/** The `ech` SvcParam's value (RFC 9848 §3) judged: every configuration, what is wrong, and whether any is usable. */
export const readEchConfigList = (bytes: Uint8Array): EchConfigListView => {
  const decoded = decodeEchConfigList(bytes)
  const configs = decoded.entries.map((e): EchConfigView =>
    e.contents === null
      ? {
          version: hex4(e.version),
          configId: null,
          kem: null,
          publicKeyLength: null,
          cipherSuites: [],
          maximumNameLength: null,
          publicName: null,
          extensions: [],
          usable: false,
          problems: [`version ${hex4(e.version)} is not one clients support: they skip it (RFC 9849 §4)`]
        }
      : viewOf(e.contents)
  )
  const problems = [...decoded.problems]
  if (decoded.problems.length === 0 && configs.length > 0 && !configs.some((c) => c.usable))
    problems.push("no configuration in the list is one a client can use, so ECH is not offered")
  return { configs, problems, usable: decoded.problems.length === 0 && configs.some((c) => c.usable) }
}

const u16 = (n: number) => [n >> 8, n & 0xff]
const withLength16 = (b: ReadonlyArray<number>) => [...u16(b.length), ...b]
const fromHex = (h: string) => [...Buffer.from(h, "hex")]

/** An ECHConfigList's bytes (RFC 9849 §4): the inverse of `decodeEchConfigList` on what it returns. */
export const encodeEchConfigList = (entries: ReadonlyArray<EchConfigEntry>): Uint8Array => {
  const configs = entries.flatMap((e) => {
    if (e.contents === null) return [...u16(e.version), ...withLength16(fromHex(e.raw))]
    const c = e.contents
    const name = [...Buffer.from(c.publicName, "latin1")]
    const contents = [
      c.configId,
      ...u16(c.kemId),
      ...withLength16(fromHex(c.publicKey)),
      ...withLength16(c.cipherSuites.flatMap((s) => [...u16(s.kdfId), ...u16(s.aeadId)])),
      c.maximumNameLength,
      name.length,
      ...name,
      ...withLength16(c.extensions.flatMap((x) => [...u16(x.type), ...withLength16(fromHex(x.data))]))
    ]
    return [...u16(ECH_VERSION), ...withLength16(contents)]
  })
  return Uint8Array.from(withLength16(configs))
}
