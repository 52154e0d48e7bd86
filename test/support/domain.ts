/**
 * A `Domain` for a test that calls the engine with a literal: decoded as the edge decodes it, so a
 * test cannot hand the engine a name the service would refuse.
 */
import { Either } from "effect"
import { type Domain, normaliseDomain } from "../../src/records/DomainName.ts"

export const domain = (input: string): Domain =>
  Either.getOrElse(normaliseDomain(input), (why) => {
    throw new Error(why)
  })
