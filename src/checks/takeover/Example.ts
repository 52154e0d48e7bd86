/**
 * What the takeover check gathers for the example domain: the registration check's dependencies,
 * each registered and resolving, and no alias into a hosting service. `listed`: the names an
 * owner lists (`names=`).
 */
import { exampleDependencies } from "../registration/Example.ts"
import { DOMAIN } from "../../kernel/examples/ExampleZone.ts"

export const gatheredListing = (listed: ReadonlyArray<string>) => {
  const { cnames, dependencies } = exampleDependencies(listed)
  return {
    domain: DOMAIN,
    cnames,
    listed,
    pages: [],
    rdapConfigured: true,
    dependencies: dependencies.map((dependency) => ({
      dependency,
      rdap: "registered" as const,
      dns: "exists" as const
    }))
  }
}

export const exampleGathered = () => gatheredListing([])
