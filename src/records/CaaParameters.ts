/**
 * The parameters of a CAA `issue`, `issuewild` (RFC 8659 §4.2) or `issuemail` (RFC 9495 §3)
 * property, read to show what a domain asks of its CAs and to find the syntax errors a CA would
 * stumble on. Pure. `accounturi` and `validationmethods` are RFC 8657's: the first binds issuance
 * to one ACME account, the second to the validation methods listed. `renderIssueValue` writes a
 * value back (the property tests round-trip through both).
 */

/** A parameter of an issuer's value, in the order written. */
export interface CaaParameter {
  readonly key: string
  readonly value: string
}

/** One `issue`/`issuewild`/`issuemail` value read against RFC 8659 §4.2's grammar. */
export interface IssuerProperty {
  /** The issuer domain name, lower case; null when the value names none (`;` forbids all) or a malformed one. */
  readonly issuer: string | null
  readonly parameters: ReadonlyArray<CaaParameter>
  /** RFC 8657 §3: the ACME account URIs the domain binds issuance to (none listed: every account). */
  readonly accountUris: ReadonlyArray<string>
  /** RFC 8657 §4: the validation methods the CA may use (none listed: every method). */
  readonly validationMethods: ReadonlyArray<string>
  /** The value follows RFC 8659 §4.2's grammar; a CA treats one that does not as naming no issuer. */
  readonly grammatical: boolean
  /** What breaks the grammar or RFC 8657, each with its section. */
  readonly problems: ReadonlyArray<string>
}

/** RFC 8659 §4.2 `label` and parameter `tag`: letters and digits, hyphens only inside. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i
/** RFC 8659 §4.2 parameter `value`: printable ASCII without `;` or space. */
const VALUE = /^[\x21-\x3a\x3c-\x7e]*$/
/** RFC 8659 §4.2 `parameter = tag *WSP "=" *WSP value`. */
const PARAMETER = /^([^=\s]*)[ \t]*=[ \t]*(.*)$/

/**
 * The ACME validation methods of the IANA "ACME Validation Methods" registry (RFC 8555 §9.7.8 and
 * the documents that added to it); RFC 8657 §4 also admits CA-specific methods prefixed `ca-`.
 */
export const ACME_METHODS: ReadonlyArray<string> = [
  "http-01",
  "dns-01",
  "tls-alpn-01",
  "tls-sni-01",
  "tls-sni-02",
  "email-reply-00",
  "tkauth-01",
  "onion-csr-01"
]

const methodProblem = (label: string): string | null =>
  !LABEL.test(label)
    ? `validationmethods: "${label}" is not a method label (RFC 8657 §4)`
    : ACME_METHODS.includes(label.toLowerCase()) || /^ca-/i.test(label)
      ? null
      : `validationmethods: "${label}" is neither a registered ACME method nor a CA-specific "ca-" one (RFC 8657 §4)`

/** RFC 8657 §3: the account URI is a URI (RFC 3986) naming the ACME account, absolute. */
const accountUriProblem = (value: string): string | null =>
  URL.canParse(value) ? null : `accounturi: "${value}" is not an absolute URI (RFC 8657 §3)`

/**
 * Reads `[issuer-domain-name] [; parameters]` (RFC 8659 §4.2, also `issuemail`'s grammar, RFC 9495
 * §3), reporting every departure rather than stopping at the first: the domain owner wants the
 * whole list. A value with a problem of grammar names no issuer for a CA (§4.2 makes it
 * malformed), which `parseIssueValue` (CaaRecord.ts) applies.
 */
export const readIssuerProperty = (value: string): IssuerProperty => {
  const grammar: Array<string> = []
  const semi = value.indexOf(";")
  const head = (semi < 0 ? value : value.slice(0, semi)).trim()
  const tail = semi < 0 ? "" : value.slice(semi + 1).trim()
  const named = head !== "" && head.split(".").every((l) => LABEL.test(l))
  if (head !== "" && !named) grammar.push(`"${head}" is not an issuer domain name (RFC 8659 §4.2)`)
  const parameters: Array<CaaParameter> = []
  const parts = tail === "" ? [] : tail.split(";").map((p) => p.trim())
  parts.forEach((part, i) => {
    const m = PARAMETER.exec(part)
    if (part === "")
      grammar.push(
        i === parts.length - 1
          ? "a parameter list ends in ';' (RFC 8659 §4.2)"
          : "an empty parameter between ';' (RFC 8659 §4.2)"
      )
    else if (!m) grammar.push(`parameter "${part}" is not key=value (RFC 8659 §4.2)`)
    else {
      const key = m[1] ?? ""
      const v = m[2] ?? ""
      if (!LABEL.test(key))
        grammar.push(`parameter key "${key}" is not letters, digits and inner hyphens (RFC 8659 §4.2)`)
      else if (!VALUE.test(v))
        grammar.push(
          `parameter ${key}: "${v}" holds a space or a character outside printable ASCII (RFC 8659 §4.2)`
        )
      else parameters.push({ key: key.toLowerCase(), value: v })
    }
  })
  const of = (key: string) => parameters.filter((p) => p.key === key).map((p) => p.value)
  const accountUris = of("accounturi")
  const methodLists = of("validationmethods")
  const validationMethods = methodLists.flatMap((l) => l.split(","))
  const problems = [...grammar]
  for (const key of ["accounturi", "validationmethods"])
    if (of(key).length > 1)
      problems.push(`${key} is given ${of(key).length} times; a CA reads one (RFC 8657)`)
  for (const uri of accountUris) {
    const p = accountUriProblem(uri)
    if (p) problems.push(p)
  }
  for (const label of validationMethods) {
    const p = methodProblem(label)
    if (p) problems.push(p)
  }
  return {
    issuer: named ? head.toLowerCase() : null,
    parameters,
    accountUris,
    validationMethods: validationMethods.map((m) => m.toLowerCase()),
    grammatical: grammar.length === 0,
    problems
  }
}

/** An issuer property as a value (RFC 8659 §4.2): `issuer; key=value; ...`, or `;` when it names none. */
export const renderIssueValue = (issuer: string | null, parameters: ReadonlyArray<CaaParameter>): string =>
  parameters.length === 0
    ? (issuer ?? ";")
    : `${issuer ?? ""}; ${parameters.map((p) => `${p.key}=${p.value}`).join("; ")}`
