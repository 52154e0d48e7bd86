/**
 * The BIMI assertion record at `default._bimi.<domain>`
 * (draft-brand-indicators-for-message-identification, "BIMI Assertion Record Definition").
 * `parseBimi` is total: problems are listed, never thrown.
 */

export interface BimiRecord {
  readonly record: string
  readonly tags: ReadonlyArray<{ readonly name: string; readonly value: string }>
  readonly version: string | null
  /** `l=`: the HTTPS URL of the SVG logo; null when absent, "" when empty (declined). */
  readonly location: string | null
  /** `a=`: the HTTPS URL of the VMC/CMC PEM file; null when absent or empty. */
  readonly authority: string | null
  /** `avp=` (avatar preference): brand or personal. */
  readonly avatarPreference: string | null
  /** `lps=` (local-part selectors): the local-parts this record is for; null when absent. */
  readonly localPartSelectors: ReadonlyArray<string> | null
  /**
   * l= empty and no a= (or a= empty): a declination record, valid, by which the domain opts out of
   * showing an indicator.
   */
  readonly declined: boolean
  readonly errors: ReadonlyArray<string>
  readonly warnings: ReadonlyArray<string>
}

export const isBimiRecord = (txt: string): boolean => /^\s*v\s*=\s*BIMI1\s*(;|$)/i.test(txt)

/** RFC 5322 3.2.3 dot-atom-text: atext runs separated by single dots. */
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/

const httpsUrl = (value: string): string | null => {
  try {
    const url = new URL(value)
    return url.protocol === "https:" && url.hostname !== "" ? url.href : null
  } catch {
    return null
  }
}

/** Parses a BIMI assertion record. Never throws. */
export const parseBimi = (record: string): BimiRecord => {
  const errors: Array<string> = []
  const warnings: Array<string> = []
  const tags: Array<{ name: string; value: string }> = []
  for (const part of record.split(";")) {
    if (part.trim() === "") continue
    const eq = part.indexOf("=")
    const name = eq < 0 ? "" : part.slice(0, eq).trim().toLowerCase()
    if (!/^[a-z][a-z0-9_]*$/.test(name)) {
      errors.push(`'${part.trim()}' is not a tag=value pair`)
      continue
    }
    if (tags.some((t) => t.name === name)) {
      errors.push(`duplicate tag '${name}'`)
      continue
    }
    tags.push({ name, value: part.slice(eq + 1).trim() })
  }
  const tag = (name: string) => tags.find((t) => t.name === name)?.value
  const version = tags[0]?.name === "v" ? tags[0].value : null
  if (version === null) errors.push("the record must start with v=BIMI1")
  else if (version !== "BIMI1") errors.push(`v must be BIMI1, found '${version}'`)

  const l = tag("l")
  const a = tag("a")
  let location: string | null = null
  if (l === undefined) errors.push("the l= tag (logo location) is missing")
  else if (l !== "") {
    if (l.includes(","))
      errors.push("l= must hold a single URL (lists of locations were removed from the draft)")
    location = httpsUrl(l.split(",")[0]!.trim())
    if (location === null) errors.push(`l=${l} is not an https: URL`)
  }
  let authority: string | null = null
  if (a !== undefined && a !== "") {
    authority = httpsUrl(a)
    if (authority === null) errors.push(`a=${a} is not an https: URL`)
    else if (!/\.pem$/i.test(new URL(authority).pathname)) warnings.push("a= usually points to a .pem file")
  }
  const declined = l === "" && (a === undefined || a === "")
  // Some receivers take the logo from the certificate's logotype when l= is empty; others need l=.
  if (l === "" && !declined)
    warnings.push("l= is empty while a= is set: only receivers that read the certificate's logo can show it")
  // Checked by their grammar whatever the rest of the record says (a declination included).
  const avp = tag("avp")?.toLowerCase() ?? null
  if (avp !== null && avp !== "brand" && avp !== "personal")
    warnings.push(`avp=${avp} is neither brand nor personal: receivers ignore it`)
  const lpsRaw = tag("lps")
  let lps: Array<string> | null = null
  if (lpsRaw !== undefined) {
    lps = lpsRaw.split(",").map((s) => s.trim().toLowerCase())
    const bad = lps.filter((s) => !LOCAL_PART.test(s) || s.length > 64)
    if (bad.length > 0 || lpsRaw.trim() === "")
      errors.push(`lps= must be a comma-separated list of local-parts (RFC 5322 dot-atom), found '${lpsRaw}'`)
  }
  if (location !== null && authority === null)
    warnings.push("No a= certificate (VMC/CMC): Gmail and Apple Mail show logos only with one")
  return {
    record,
    tags,
    version,
    location,
    authority,
    avatarPreference: avp,
    localPartSelectors: lps,
    declined,
    errors,
    warnings
  }
}
