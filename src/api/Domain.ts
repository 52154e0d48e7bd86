/**
 * The one `Domain` input schema every endpoint uses: it normalises what people paste
 * (URLs, upper case, trailing dots, IDNs) to the registrable-or-deeper host name in A-labels,
 * and refuses what cannot be scanned, with a message that says why (`records/DomainName.ts`).
 */
import { Either, ParseResult, Schema } from "effect"
import { normaliseDomain } from "../records/DomainName.ts"

/** A host name, normalised by `normaliseDomain`. */
export const Domain = Schema.transformOrFail(Schema.String, Schema.String, {
  strict: true,
  decode: (input, _, ast) =>
    Either.match(normaliseDomain(input), {
      onLeft: (message) => ParseResult.fail(new ParseResult.Type(ast, input, message)),
      onRight: ParseResult.succeed
    }),
  encode: ParseResult.succeed
}).annotations({
  identifier: "Domain",
  description:
    "A host name such as example.com. URLs are accepted (the host is used), IDNs are converted to A-labels; IP addresses, single labels and names without a public suffix are refused.",
  examples: ["example.com"]
})

/** The `?domain=` query most endpoints take. */
export const DomainQuery = Schema.Struct({ domain: Domain })
