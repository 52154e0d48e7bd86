/**
 * A `Domain` for a test that calls the engine with a literal: decoded as the edge decodes it, so a
 * test cannot hand the engine a name the service would refuse. The one exception is the names the
 * fake zones serve under the TLDs reserved for testing (RFC 2606 2: .example, .test), which the edge
 * refuses as not public: they are taken as they are, lower-cased without the root's dot.
 */
import { Either } from "effect"
import { type Domain, normaliseDomain, normaliseName } from "../../src/records/DomainName.ts"

const RESERVED_FOR_TESTS = /^([a-z0-9-]+\.)+(example|test)$/

export const domain = (input: string): Domain =>
  Either.getOrElse(normaliseDomain(input), (why) => {
    const name = normaliseName(input)
    if (RESERVED_FOR_TESTS.test(name)) return name as Domain
    throw new Error(why)
  })
