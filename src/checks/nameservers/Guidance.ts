/**
 * What a domain owner does about each name-server issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). Name servers are run by the DNS host; the delegation is set at the registrar.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  ns_one_network: guide({
    why: "All of the domain's name servers sit in one network. If that network fails or is attacked, nobody can look up the web site or deliver mail.",
    steps: [
      "Ask your DNS host whether it offers name servers in several networks, or add a secondary DNS service from another provider.",
      "Let the new server copy the zone (zone transfer from the primary, or the provider's replication).",
      "Add the new server to the zone's NS records and to the name-server list at the registrar."
    ],
    providers: {
      cloudflare:
        "Cloudflare's name servers are anycast across many networks; a warning here usually means other servers are listed too.",
      "route53-ses":
        "Route 53's four name servers are in four different networks: list all four at the registrar."
    },
    references: ["rfc2182"]
  }),
  ns_lame: guide({
    why: "A name server listed for the domain does not know the zone. Resolvers that ask it get an error or nothing and must try another, so lookups become slow or fail.",
    steps: [
      "Find the server named in the report and ask whoever runs it whether it should serve the zone.",
      "If it should, add the zone to it (or restore the zone transfer from the primary).",
      "If it should not, remove it from the zone's NS records and from the name-server list at the registrar."
    ],
    providers: {
      "generic-dns":
        "A lame server is often a previous DNS host that was never removed at the registrar after a move."
    },
    references: ["rfc1912", "rfc1034"]
  }),
  ns_inconsistent: guide({
    why: "The name servers do not say the same thing: some serve an older version of the zone, or the list of servers differs between the zone and the registrar. Visitors then see different answers depending on which server they reach.",
    steps: [
      "Compare the SOA serial on each server (shown in the report): a lower serial means that server missed updates; check its zone transfers.",
      "Make the NS records in the zone list exactly the servers registered at the registrar, and update whichever side is wrong."
    ],
    references: ["rfc1034", "rfc2182"]
  }),
  ns_no_tcp: guide({
    why: "DNS must also work over TCP. Without it, large answers (DNSSEC keys, long lists) cannot be delivered and some resolvers fail outright.",
    steps: [
      "Open TCP port 53 to the name server in every firewall in front of it.",
      "Check that the server software listens on TCP as well as UDP."
    ],
    references: ["rfc7766"]
  }),
  ns_open_recursion: guide({
    why: "The domain's name server also looks up other names for anybody who asks. Attackers use such servers to flood victims with traffic and to poison their caches.",
    steps: [
      "Turn recursion off on the authoritative name server (BIND: recursion no; Knot and NSD never recurse).",
      "If the same machine must resolve for your own network, allow recursion only from those addresses, or run a separate resolver."
    ],
    references: ["rfc5358"]
  }),
  ns_no_ipv6: guide({
    why: "None of the domain's name servers can be reached over IPv6, so resolvers on IPv6-only networks cannot find the domain at all.",
    steps: [
      "Ask your DNS host for name servers with IPv6 addresses, or give your own servers an IPv6 address.",
      "Publish an AAAA record for the name server's host name (and IPv6 glue at the registrar if the name is under the domain itself)."
    ],
    providers: {
      cloudflare: "Cloudflare's name servers all have IPv6 addresses.",
      "route53-ses": "Route 53's name servers all have IPv6 addresses."
    },
    references: ["rfc3596"]
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
