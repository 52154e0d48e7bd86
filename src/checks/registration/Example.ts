/**
 * What the registration check gathers for the example domain: what its records name, each
 * registrable domain registered for another year (RDAP). `listed`: the names an owner lists
 * (`names=`), probed as www is; the takeover check's example reads the same dependencies.
 */
import { Bimi } from "../bimi/Bimi.ts"
import { Dmarc } from "../dmarc/Dmarc.ts"
import { MtaSts } from "../mta-sts/MtaSts.ts"
import { Spf } from "../spf/Spf.ts"
import { ask, DOMAIN, MX_HOST, NOW } from "../../kernel/examples/ExampleZone.ts"
import { cnameProbeOf, dependenciesOf, probedNames } from "./Dependencies.ts"

/** The names the example's records and `listed` depend on, and the aliases probed among them. */
export const exampleDependencies = (listed: ReadonlyArray<string>) => {
  const bimi = Bimi.example()
  const cnames = probedNames(DOMAIN, bimi, listed).map((name) => cnameProbeOf(name, ask(name, "A")))
  const nsAnswer = ask(DOMAIN, "NS")
  const dependencies = dependenciesOf({
    domain: DOMAIN,
    ns: nsAnswer._tag === "Right" ? nsAnswer.right.answers.map((r) => String(r.data)) : [],
    mx: [MX_HOST],
    spf: Spf.example(),
    dmarc: Dmarc.example(),
    mtaSts: MtaSts.example(),
    bimi,
    cnames,
    listed
  })
  return { cnames, dependencies }
}

const registered = (domain: string, days: number) => ({
  outcome: "registered" as const,
  url: `https://rdap.example/domain/${domain}`,
  expires: new Date(NOW.getTime() + days * 86_400_000).toISOString(),
  registered: "2001-05-14T00:00:00.000Z",
  statuses: ["client transfer prohibited"]
})

export const gatheredListing = (listed: ReadonlyArray<string>) => ({
  domain: DOMAIN,
  registrable: DOMAIN,
  own: registered(DOMAIN, 254),
  dependencies: exampleDependencies(listed).dependencies.map((dependency) => ({
    dependency,
    answer: registered(dependency.domain, 400)
  }))
})

export const exampleGathered = () => gatheredListing([])
