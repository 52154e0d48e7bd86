/**
 * What the name-server check gathers for the example domain: its two name servers (ExampleZone.ts's
 * NS set) as each address would answer the check's four questions.
 */
import type { AddressProbe, NsInput } from "./Analyse.ts"
import type { DirectReply } from "../../net/NameServers.ts"
import type { DnsRecord } from "../../net/DnsTypes.ts"
import { DOMAIN } from "../../kernel/examples/ExampleZone.ts"

const SERVERS = {
  "ns1.example.com": { v4: ["192.0.2.53"], v6: ["2001:db8::53"] },
  "ns2.example.net": { v4: ["198.51.100.53"], v6: ["2001:db8:53::53"] }
} as const

const record = (name: string, type: string, data: unknown, text: string): DnsRecord => ({
  name,
  type,
  ttl: 3600,
  data,
  text
})

const SOA = record(
  DOMAIN,
  "SOA",
  {
    mname: "ns1.example.com",
    rname: "hostmaster.example.com",
    serial: 2026112401,
    refresh: 7200,
    retry: 3600,
    expire: 1209600,
    minimum: 3600
  },
  "ns1.example.com. hostmaster.example.com. 2026112401 7200 3600 1209600 3600"
)
const NS = Object.keys(SERVERS).map((host) => record(DOMAIN, "NS", host, `${host}.`))

const reply = (
  address: string,
  answers: ReadonlyArray<DnsRecord>,
  rcode = "NOERROR",
  aa = true
): DirectReply => ({
  server: address.includes(":") ? `[${address}]:53` : `${address}:53`,
  rcode,
  aa,
  ra: false,
  tc: false,
  answers,
  authority: [],
  elapsedMs: 12
})

/** An authoritative-only server: the zone's SOA and NS with AA, over UDP and TCP; REFUSED for others. */
const probe = (address: string): AddressProbe => ({
  address,
  soa: { reply: reply(address, [SOA]) },
  ns: { reply: reply(address, NS) },
  soaTcp: { reply: reply(address, [SOA]) },
  recursion: { reply: { ...reply(address, [], "REFUSED", false), answers: [] } }
})

export const exampleGathered = (): NsInput => ({
  domain: DOMAIN,
  zone: { value: Object.keys(SERVERS) },
  parentZone: "com",
  delegation: { value: Object.keys(SERVERS) },
  servers: Object.entries(SERVERS).map(([host, addresses]) => ({
    host,
    inDelegation: true,
    inZone: true,
    addresses: { value: addresses },
    probes: [...addresses.v4, ...addresses.v6].map(probe)
  })),
  unasked: 0
})
