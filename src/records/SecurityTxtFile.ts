/**
 * security.txt (RFC 9116): the grammar of the file, pure. `parseSecurityTxt` reads the fields of
 * §2.5 (names case-insensitive, comments after "#", CRLF or LF), the OpenPGP cleartext-signed form
 * of §2.3 (RFC 4880 §7), and says what the RFC requires of each field; `renderSecurityTxt` writes
 * fields back as a file (the property tests round-trip through both). Judging the file against the
 * clock, its address and its media type is the check's business (`checks/security-txt/`).
 */
import { dearmor } from "./PgpArmor.ts"

/** The fields RFC 9116 §2.5 defines, spelled as the RFC spells them. */
export const FIELDS = [
  "Acknowledgments",
  "Canonical",
  "Contact",
  "CSAF",
  "Encryption",
  "Expires",
  "Hiring",
  "Policy",
  "Preferred-Languages"
] as const
export type FieldName = (typeof FIELDS)[number]

const BY_LOWER = new Map<string, FieldName>(FIELDS.map((f) => [f.toLowerCase(), f]))

/** Fields that may appear at most once (RFC 9116 §2.5.5 Expires, §2.5.8 Preferred-Languages). */
const ONCE: ReadonlySet<FieldName> = new Set(["Expires", "Preferred-Languages"])

/** Fields whose value is a URI (all but Expires and Preferred-Languages). */
const URI_FIELDS: ReadonlySet<FieldName> = new Set([
  "Acknowledgments",
  "Canonical",
  "Contact",
  "CSAF",
  "Encryption",
  "Hiring",
  "Policy"
])

export interface Field {
  /** As the file spells it (field names are case-insensitive, RFC 9116 §2.4). */
  readonly name: string
  readonly value: string
}

export interface Signature {
  /** The armored signature block decodes, its checksum matches and it holds a signature packet. */
  readonly wellFormed: boolean
  /** The `Hash:` armor header of the signed message, if any (RFC 4880 §7). */
  readonly hash: string | null
  readonly problems: ReadonlyArray<string>
}

export interface ParsedSecurityTxt {
  /** Every field line in order (unknown fields included: RFC 9116 §2.4 lets files extend). */
  readonly fields: ReadonlyArray<Field>
  readonly contact: ReadonlyArray<string>
  /** The Expires value as written, or null when absent. */
  readonly expires: string | null
  /** Expires as an instant (ms since the epoch), or null when absent or not RFC 3339. */
  readonly expiresAt: number | null
  readonly encryption: ReadonlyArray<string>
  readonly acknowledgments: ReadonlyArray<string>
  readonly preferredLanguages: ReadonlyArray<string> | null
  readonly canonical: ReadonlyArray<string>
  readonly policy: ReadonlyArray<string>
  readonly hiring: ReadonlyArray<string>
  readonly csaf: ReadonlyArray<string>
  /** Null when the file is not signed (§2.3). */
  readonly signature: Signature | null
  /** What makes the file invalid (a MUST of RFC 9116 broken). */
  readonly errors: ReadonlyArray<string>
  /** What the RFC recommends against, or lines that are not fields. */
  readonly warnings: ReadonlyArray<string>
}

/** RFC 3339 §5.6 date-time (RFC 9116 §2.5.5 requires it for Expires). */
const RFC3339 =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[Tt]([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/

/** The instant of an RFC 3339 date-time, or null. */
export const parseRfc3339 = (text: string): number | null => {
  if (!RFC3339.test(text)) return null
  const ms = Date.parse(text.toUpperCase().replace(/:60(?=[.Z+-])/, ":59"))
  return Number.isFinite(ms) ? ms : null
}

/** A field line (RFC 9116 §4: `field-name ":" [WSP] unstructured`; names are RFC 5322 ftext). */
const FIELD_LINE = /^([\x21-\x39\x3b-\x7e]+):[ \t]*(.*?)[ \t]*$/

const BEGIN_SIGNED = "-----BEGIN PGP SIGNED MESSAGE-----"
const BEGIN_SIGNATURE = "-----BEGIN PGP SIGNATURE-----"

/** Why a field's URI breaks RFC 9116, or null (web URIs MUST be https, §2.5.1-§2.5.10). */
const uriProblem = (name: FieldName, value: string): string | null => {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return `${name}: "${value}" is not a URI`
  }
  if (url.protocol === "http:") return `${name}: "${value}" is a web URI that does not use https`
  if (name === "CSAF" && url.protocol !== "https:") return `CSAF: "${value}" must be an https URI (§2.5.6)`
  return null
}

/**
 * The signed message's text and its signature (RFC 4880 §7: armor headers, a blank line, the
 * dash-escaped text, then the armored signature), or the reason it cannot be read.
 */
const cleartext = (lines: ReadonlyArray<string>): { text: Array<string>; signature: Signature } => {
  const problems: Array<string> = []
  let i = lines.findIndex((l) => l.trimEnd() === BEGIN_SIGNED)
  if (lines.slice(0, i).some((l) => l.trim() !== ""))
    problems.push("text before the signed message is not covered by the signature")
  i++
  let hash: string | null = null
  for (; i < lines.length && lines[i]!.trim() !== ""; i++) {
    const m = /^Hash:\s*(.+)$/i.exec(lines[i]!)
    if (m) hash = m[1]!.trim()
    else problems.push(`unexpected armor header "${lines[i]}"`)
  }
  i++
  const text: Array<string> = []
  for (; i < lines.length && lines[i]!.trimEnd() !== BEGIN_SIGNATURE; i++)
    // Dash-escaped lines (RFC 4880 §7.1) lose their "- ".
    text.push(lines[i]!.startsWith("- ") ? lines[i]!.slice(2) : lines[i]!)
  if (i >= lines.length) {
    problems.push("no -----BEGIN PGP SIGNATURE----- block")
    return { text, signature: { wellFormed: false, hash, problems } }
  }
  const armor = dearmor(lines.slice(i))
  problems.push(...armor.problems)
  return { text, signature: { wellFormed: problems.length === 0, hash, problems } }
}

/** Read a security.txt file (RFC 9116 §2, §4). Total: every text gives a result. */
export const parseSecurityTxt = (input: string): ParsedSecurityTxt => {
  const all = input.replace(/^\uFEFF/, "").split(/\r?\n/)
  const signed = all.some((l) => l.trimEnd() === BEGIN_SIGNED)
  const { text, signature } = signed ? cleartext(all) : { text: all, signature: null }
  const fields: Array<Field> = []
  const warnings: Array<string> = []
  const errors: Array<string> = []
  for (const [n, raw] of text.entries()) {
    const line = raw.trim()
    if (line === "" || line.startsWith("#")) continue
    const m = FIELD_LINE.exec(line)
    if (!m) {
      warnings.push(`line ${n + 1} is neither a field nor a comment: "${line.slice(0, 80)}"`)
      continue
    }
    fields.push({ name: m[1]!, value: m[2]! })
  }
  const values = (name: FieldName) =>
    fields.filter((f) => BY_LOWER.get(f.name.toLowerCase()) === name).map((f) => f.value)
  for (const name of FIELDS) {
    const found = values(name)
    if (ONCE.has(name) && found.length > 1)
      errors.push(`${name} appears ${found.length} times; it must appear at most once`)
    if (URI_FIELDS.has(name))
      for (const v of found) {
        const problem = uriProblem(name, v)
        if (problem !== null) errors.push(problem)
      }
  }
  const contact = values("Contact")
  if (contact.length === 0) errors.push("no Contact field; at least one is required (§2.5.3)")
  const expiresValues = values("Expires")
  const expires = expiresValues[0] ?? null
  const expiresAt = expires === null ? null : parseRfc3339(expires)
  if (expires === null) errors.push("no Expires field; it is required (§2.5.5)")
  else if (expiresAt === null)
    errors.push(`Expires "${expires}" is not an RFC 3339 date-time such as 2027-01-31T12:00:00Z (§2.5.5)`)
  const languages = values("Preferred-Languages")
  return {
    fields,
    contact,
    expires,
    expiresAt,
    encryption: values("Encryption"),
    acknowledgments: values("Acknowledgments"),
    preferredLanguages:
      languages.length === 0
        ? null
        : languages[0]!
            .split(",")
            .map((t) => t.trim())
            .filter((t) => t !== ""),
    canonical: values("Canonical"),
    policy: values("Policy"),
    hiring: values("Hiring"),
    csaf: values("CSAF"),
    signature,
    errors,
    warnings
  }
}

/** Fields as a security.txt file, one per line, CRLF or LF (RFC 9116 §4), with optional comments. */
export const renderSecurityTxt = (
  fields: ReadonlyArray<Field>,
  options: { readonly eol?: "\r\n" | "\n"; readonly comments?: ReadonlyArray<string> } = {}
): string => {
  const eol = options.eol ?? "\n"
  const comments = (options.comments ?? []).map((c) => `# ${c}`)
  return [...comments, ...fields.map((f) => `${f.name}: ${f.value}`)].map((l) => l + eol).join("")
}
