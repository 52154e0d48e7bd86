/**
 * Domain names as people type them and as DNS asks them, normalised one way for the whole service:
 * `normaliseDomain` turns user input (URLs, upper case, trailing dots, IDNs) into the
 * registrable-or-deeper host name in A-labels, or says why it cannot be scanned (the contract's
 * `Domain`, the batch's lines, the operator scripts); `normaliseName` is the cheap form every query
 * name and memo key takes (the resolver, the scan, the checks).
 */
import { domainToASCII } from "node:url"
import { type Brand, Either, ParseResult, Schema } from "effect"
import { parse as parseHost } from "tldts"

/**
 * A host name that `normaliseDomain` accepted: lower-case A-labels, no trailing dot, under a public
 * suffix. The engine's entry points (the scan, a single check, the composites) take a `Domain`, so
 * that a string reaches them only through the one decoding at the edge (API, CLI, library, batch).
 */
export type Domain = string & Brand.Brand<"Domain">

/**
 * A name as DNS compares it (RFC 4343: case-insensitive), without the root's trailing dot; the
 * root itself is ".".
 */
export const normaliseName = (name: string): string => {
  const n = name.trim().toLowerCase().replace(/\.$/, "")
  return n === "" ? "." : n
}

const hint = (input: string, why: string) =>
  `domain must be a hostname such as example.com; got '${input.length > 80 ? input.slice(0, 80) + "…" : input}' (${why})`

// A host whose last label is a number (decimal, or hex with 0x) is an IPv4 address to a URL parser
// (WHATWG URL "ends in a number"); 0xa.com is a name, 1.2.3.4 and 0x7f.1 are not.
const IPV4_LIKE = /(^|\.)(0x[0-9a-f]*|[0-9]+)$/i
const IPV6_LIKE = /^[0-9a-f]*:[0-9a-f:.]*$/i
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/

/** Pull the host out of a pasted URL or `host/path`, `host:port` text. */
const hostPart = (text: string): Either.Either<string, string> => {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      const url = new URL(text)
      if (url.username || url.password) return Either.left("a URL with credentials is not a domain")
      return Either.right(url.hostname)
    } catch {
      return Either.left("it is not a valid URL")
    }
  }
  const host = text.split(/[/?#]/, 1)[0] ?? ""
  const port = /^([^:]+):\d{1,5}$/.exec(host)
  return Either.right(port ? port[1]! : host)
}

/**
 * Normalise user input to a lower-case A-label host name (RFC 1035 2.3.4 lengths, RFC 5890 IDNA),
 * or explain why it is not one. Total: never throws.
 */
export const normaliseDomain = (input: string): Either.Either<Domain, string> => {
  const text = input.trim()
  if (text === "") return Either.left(hint(input, "it is empty"))
  if (text.length > 2048) return Either.left(hint(input, "it is far longer than any host name"))
  return Either.flatMap(
    Either.mapLeft(hostPart(text), (why) => hint(input, why)),
    (raw): Either.Either<Domain, string> => {
      let host = raw.toLowerCase()
      if (host.endsWith(".")) host = host.slice(0, -1)
      if (host.startsWith("[") || IPV6_LIKE.test(host) || IPV4_LIKE.test(host))
        return Either.left(hint(input, "IP addresses are not domains"))
      if (/[^\x00-\x7f]/.test(host) || host.includes("xn--")) {
        const ascii = domainToASCII(host)
        if (ascii === "") return Either.left(hint(input, "it is not a valid internationalised name"))
        host = ascii
      }
      if (host === "") return Either.left(hint(input, "it has no host name"))
      const badChar = /[^a-z0-9.-]/.exec(host)
      if (badChar) return Either.left(hint(input, `it contains '${badChar[0]}', which host names cannot`))
      const labels = host.split(".")
      const bad = labels.find((label) => !LABEL.test(label))
      if (bad !== undefined)
        return Either.left(
          hint(
            input,
            bad === ""
              ? "it has an empty label"
              : bad.length > 63
                ? "a label is longer than 63 characters"
                : "a label cannot start or end with a hyphen"
          )
        )
      if (host.length > 253) return Either.left(hint(input, "it is longer than 253 characters"))
      if (labels.length < 2) return Either.left(hint(input, "a single label is not a public domain"))
      if (labels.at(-1) === "localhost") return Either.left(hint(input, "localhost is not scannable"))
      const parsed = parseHost(host, { allowPrivateDomains: false })
      if (!parsed.isIcann) return Either.left(hint(input, `'.${labels.at(-1)}' is not a public suffix`))
      if (parsed.domain === null) return Either.left(hint(input, "it is a public suffix, not a domain"))
      // The one place a string becomes a Domain: every rule above held.
      return Either.right(host as Domain)
    }
  )
}

/**
 * A `Domain` from its text by `normaliseDomain`, refusing what it refuses: the API's `Domain` (which
 * adds the contract's wording) and whatever reads a domain back from a store or a job's payload.
 */
export const DomainFromString = Schema.transformOrFail(
  Schema.String,
  Schema.String.pipe(Schema.brand("Domain")),
  {
    strict: true,
    decode: (input, _, ast) =>
      Either.match(normaliseDomain(input), {
        onLeft: (message) => ParseResult.fail(new ParseResult.Type(ast, input, message)),
        onRight: ParseResult.succeed
      }),
    encode: ParseResult.succeed
  }
)

// A normal name's shape: lower-case LDH labels (RFC 1035 2.3.1), at least two, no trailing dot.
const NORMAL_SHAPE = /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/

/**
 * A `Domain` as we store and serve it: the text `normaliseDomain` made at the edge, read back
 * without normalising it again (the public suffix list may have changed since, and a stored entry
 * must stay readable). Only its shape is checked, so a raw string with upper case, a trailing dot or
 * a URL in it is refused rather than branded. The JSON Schema is a plain string.
 */
export const NormalDomain = Schema.String.pipe(
  Schema.filter((s) => (s.length <= 253 && NORMAL_SHAPE.test(s)) || "expected a normalised domain name", {
    // generated in its shape, where filtering random strings would almost never pass
    arbitrary: () => (fc) =>
      fc
        .array(fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/), { minLength: 2, maxLength: 4 })
        .map((labels) => labels.join("."))
  }),
  Schema.brand("Domain")
)

/**
 * A domain column of our own tables read back as a `Domain` (`NormalDomain`'s check): what we
 * wrote was a `Domain`, so a row that fails is corrupt, a defect rather than a refusal.
 */
export const domainOfRow = Schema.decodeUnknownSync(NormalDomain)
