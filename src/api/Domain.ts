/**
 * The one `Domain` input schema every endpoint uses: it normalises what people paste
 * (URLs, upper case, trailing dots, IDNs) to the registrable-or-deeper host name in A-labels,
 * and refuses what cannot be scanned, with a message that says why (`records/DomainName.ts`).
 */
import { Either, ParseResult, Schema, type SchemaAST as AST } from "effect"
import { DomainFromString, normaliseDomain } from "../records/DomainName.ts"
import { MAX_LISTED_NAMES, nameOutside, parseListedNames } from "../records/ListedNames.ts"

/** A host name, decoded by `normaliseDomain` to the branded `Domain` the engine takes. */
export const Domain = DomainFromString.annotations({
  identifier: "Domain",
  description:
    "A host name such as example.com. URLs are accepted (the host is used), IDNs are converted to A-labels; IP addresses, single labels and names without a public suffix are refused.",
  // decoded like any input, so the example is what the schema gives (and normaliseDomain accepts it)
  examples: [Either.getOrThrow(normaliseDomain("example.com"))]
})

/** The `?domain=` query most endpoints take. */
export const DomainQuery = Schema.Struct({ domain: Domain })

/** The `:domain` of a path (`/badge/:domain`, `/history/:domain`): the same one field. */
export const DomainPath = DomainQuery

/**
 * A generator's optional `?domain=`: the domain its record is for. Named, the record is previewed
 * over that domain's live scan (a full scan, so the request is costly); absent, the generator is a
 * pure computation.
 */
export const GeneratorPreviewQuery = Schema.Struct({
  domain: Schema.optional(Domain).annotations({
    description:
      "the domain the record is for: the record is previewed over its live scan and the answer's compared says what publishing it does (docs/preview.md); the request is then rate limited as costly"
  })
})

const decodeNames = (input: string | ReadonlyArray<string>, ast: AST.AST) =>
  Either.match(parseListedNames(input), {
    onLeft: (message) => ParseResult.fail(new ParseResult.Type(ast, input, message)),
    onRight: ParseResult.succeed
  })

const NAMES_ABOUT = {
  description: `Host names of the domain that DNS cannot list (shop.example.com, status.example.com), comma-separated: each is examined for a takeover as www is (a dangling CNAME, a hosting service's "no such site"). Each must be the domain or a name under it; at most ${MAX_LISTED_NAMES}.`
}

/** `names=` of a query: a comma-separated list, normalised (records/ListedNames.ts). */
export const ListedNames = Schema.transformOrFail(Schema.String, Schema.Array(Schema.String), {
  strict: true,
  decode: (input, _, ast) => decodeNames(input, ast),
  encode: (names) => ParseResult.succeed(names.join(","))
}).annotations({ ...NAMES_ABOUT, examples: [["shop.example.com", "status.example.com"]] })

/** `names` of a JSON body: a comma-separated string or an array of names. */
export const ListedNamesField = Schema.transformOrFail(
  Schema.Union(Schema.String, Schema.Array(Schema.String).pipe(Schema.maxItems(100))),
  Schema.Array(Schema.String),
  {
    strict: true,
    decode: (input, _, ast) => decodeNames(input, ast),
    encode: (names) => ParseResult.succeed(names)
  }
).annotations({ ...NAMES_ABOUT, examples: [["shop.example.com", "status.example.com"]] })

/** Every listed name is the domain or under it; the 400 names the first that is not. */
export const namesUnderDomain = (value: {
  readonly domain: string
  readonly names?: ReadonlyArray<string> | undefined
}) => nameOutside(value.domain, value.names ?? []) ?? true

/** `?domain=` with the names its owner lists for the takeover check (`?names=`). */
export const DomainNamesQuery = Schema.Struct({ domain: Domain, names: Schema.optional(ListedNames) }).pipe(
  Schema.filter(namesUnderDomain)
)

/** `{ domain, names? }` as a JSON body. */
export const DomainNamesBody = Schema.Struct({
  domain: Domain,
  names: Schema.optional(ListedNamesField)
}).pipe(Schema.filter(namesUnderDomain))
