#!/usr/bin/env node
/**
 * Cross-check of the name-server verdicts (the scan's `dns.ns.*` and `ipv6.ns` records,
 * docs/nameservers.md) against Zonemaster (Debian `zonemaster-cli` 5.0.2, engine 4.6.2) on every
 * world domain. Zonemaster walks from the world's root (zonemaster.mjs runs it) and runs
 * its DELEGATION, NAMESERVER, CONNECTIVITY and CONSISTENCY test cases; each of our records fails
 * exactly when one of the tags of TAGS is reported:
 *
 * - `dns.ns.count`: DELEGATION01 NOT_ENOUGH_NS_DEL / NOT_ENOUGH_NS_CHILD;
 * - `dns.ns.authoritative`: DELEGATION04 IS_NOT_AUTHORITATIVE, CONNECTIVITY01's unexpected rcode or
 *   missing AA over UDP;
 * - `dns.ns.consistent`: CONSISTENCY01 MULTIPLE_SOA_SERIALS, CONSISTENCY05 MULTIPLE_NS_SET,
 *   DELEGATION03's name mismatches between parent and child;
 * - `dns.ns.tcp`: CONNECTIVITY02 with no response over TCP;
 * - `ipv6.ns`: DELEGATION01 NO_IPV6_NS_DEL (one IPv6 server passes ours; Zonemaster's
 *   NOT_ENOUGH_IPV6_NS_DEL, an ERROR, asks for two: not our rule, so not a failure here);
 * - `dns.ns.recursion`: NAMESERVER01 IS_A_RECURSOR (see the exception).
 *
 * Not compared: `dns.ns.networks`. Engine 4.6.2 judges diversity by origin AS only (CONNECTIVITY03,
 * through asnlookup.zonemaster.net), which the world does not serve: it reports nothing either way.
 * Records that are unknown or not applicable on our side (a bogus or missing zone) are not compared.
 *
 * Usage: node scripts/crosscheck/nameservers.mjs API_BASE   (scripts/crosscheck/all starts a service)
 */
import { getJsonAll, report, worldEnv, worldScenarios } from "./lib.mjs"
import { zonemasterOnWorld } from "./zonemaster.mjs"

/** Disagreements kept on purpose, keyed "domain record" (`*` for every domain), with the reason. */
export const EXCEPTIONS = {
  "* dns.ns.recursion":
    "Zonemaster's NAMESERVER01 also calls a server a recursor when it answers NXDOMAIN for all of its made-up names in made-up TLDs; the world's Knot serves the root zone too, so those NXDOMAINs are authoritative, and it never sets RA. We judge recursion by RA in reply to a recursive question (RFC 1035 4.1.1, RFC 5358)"
}

/** Our record -> the Zonemaster tags whose presence means it fails. */
export const TAGS = {
  "dns.ns.count": ["NOT_ENOUGH_NS_DEL", "NOT_ENOUGH_NS_CHILD"],
  "dns.ns.authoritative": [
    "IS_NOT_AUTHORITATIVE",
    "CN01_UNEXPECTED_RCODE_SOA_QUERY_UDP",
    "CN01_UNEXPECTED_RCODE_NS_QUERY_UDP",
    "CN01_SOA_RECORD_NOT_AA_UDP",
    "CN01_NS_RECORD_NOT_AA_UDP"
  ],
  "dns.ns.consistent": [
    "MULTIPLE_SOA_SERIALS",
    "MULTIPLE_NS_SET",
    "EXTRA_NAME_CHILD",
    "EXTRA_NAME_PARENT",
    "TOTAL_NAME_MISMATCH"
  ],
  "dns.ns.tcp": ["CN02_NO_RESPONSE_TCP", "CN02_NO_RESPONSE_SOA_QUERY_TCP", "CN02_NO_RESPONSE_NS_QUERY_TCP"],
  "ipv6.ns": ["NO_IPV6_NS_DEL"],
  "dns.ns.recursion": ["IS_A_RECURSOR"]
}

/** Compare and print (through `log`); the totals. */
export const run = async (api, log = console.log) => {
  const env = worldEnv()
  const domains = worldScenarios(env, log).map((s) => s.domain)
  const tally = report("zonemaster", EXCEPTIONS, log)
  const [messages, answers] = await Promise.all([
    zonemasterOnWorld(env, domains, ["Delegation", "Nameserver", "Connectivity", "Consistency"]),
    getJsonAll(
      api,
      domains.map((d) => `/scan/quick?domain=${d}`)
    )
  ])
  for (const [i, domain] of domains.entries()) {
    const { status, body } = answers[i]
    if (status !== 200) {
      tally.add(`${domain} scan`, false, `HTTP ${status} ${body.error ?? ""}`, "-")
      continue
    }
    const records = Object.values(body.categories).flatMap((c) => c.checks)
    // every level counts: the presence of a tag is what decides
    const tags = new Set(messages.get(domain).map((m) => m.tag))
    for (const [id, failing] of Object.entries(TAGS)) {
      const ours = records.find((r) => r.id === id)
      if (!ours || (ours.status !== "pass" && ours.status !== "fail")) continue
      const seen = failing.filter((t) => tags.has(t))
      const zm = seen.length > 0 ? "fail" : "pass"
      tally.add(`${domain} ${id}`, ours.status === zm, ours.status, `${zm} ${seen.join(",")}`.trim())
    }
  }
  return tally.finish()
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const api = process.argv[2] ?? "http://localhost:8080/api"
  process.exit((await run(api)).unexplained === 0 ? 0 : 1)
}
