/**
 * What the DNSSEC check gathers for the example domain: the zone's keys, DS, SOA and NSEC3
 * parameters as the validating resolver answers them (kernel/examples/ExampleZone.ts).
 */
import type { RecordType } from "../../net/DnsTypes.ts"
import { ask, DOMAIN } from "../../kernel/examples/ExampleZone.ts"

/** One answer of the zone as the check holds it (`Gathered`): validated, or the failure. */
export const answered = (name: string, type: RecordType) => {
  const result = ask(name, type)
  return result._tag === "Right"
    ? { _tag: "Answer" as const, answer: result.right, bogus: false }
    : { _tag: "Failed" as const, error: result.left }
}

export const exampleGathered = () => ({
  domain: DOMAIN,
  zone: DOMAIN,
  dnskey: answered(DOMAIN, "DNSKEY"),
  ds: answered(DOMAIN, "DS"),
  soa: answered(DOMAIN, "SOA"),
  nsec3param: answered(DOMAIN, "NSEC3PARAM"),
  resolverValidates: true
})
