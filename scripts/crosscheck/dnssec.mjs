#!/usr/bin/env node
/**
 * Cross-check of GET /dns/dnssec against DNSViz (Debian package `dnsviz`) on every DNSSEC scenario
 * of the test world. Prints, per domain, our state and status next to DNSViz's delegation status
 * and findings, and every disagreement; a disagreement we keep on purpose is listed in
 * EXCEPTIONS with its reason (RFC section). Exit 1 when an unexplained disagreement remains.
 *
 * Needs: the world running (scripts/world/up) and the service with the world's settings
 * (scripts/crosscheck/all.mjs starts one); installs `dnsviz` and `dig` when missing. Usage:
 *   node scripts/crosscheck/dnssec.mjs [API base, default http://localhost:8080/api]
 * Debian's dnsviz 0.9.4 refuses pygraphviz 1.7 ("pygraphviz is required") although grok does not
 * draw: the grok step calls its Python entry point with that check skipped.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ensureApt, getJson, report, worldEnv, worldScenarios } from "./lib.mjs"

/** Disagreements kept on purpose, with the reason. */
export const EXCEPTIONS = {
  "rsasha1.net":
    "DNSViz 0.9.4 follows RFC 8624 (RSASHA1: NOT RECOMMENDED, a warning); RFC 9905 5 makes it MUST NOT for signing, so we fail (docs/dnssec.md)",
  "nsec3-legacy.org":
    "DNSViz 0.9.4 predates RFC 9276: we warn on NSEC3 iterations above 0 (MUST be 0) and a salt (SHOULD NOT), RFC 9276 3.1",
  "sha1-ds.org":
    "Both report the SHA-1 DS (DNSViz: DIGEST_ALGORITHM_PROHIBITED, a warning); the chain of trust rests on it alone, so we fail (RFC 9904 Table 3: MUST NOT for delegation; beside a SHA-256 DS it is our warning too, docs/dnssec.md)",
  "short-sigs.net":
    "DNSViz 0.9.4 does not compare signature expirations with the SOA expire; signatures that run out within it are our warning (RFC 1035 3.3.13, RFC 6781 4.4.2; docs/dnssec.md)"
}

/** Every error and warning code under a node of DNSViz's output. */
const codes = (node, kind, out = new Set()) => {
  if (Array.isArray(node)) for (const x of node) codes(x, kind, out)
  else if (node && typeof node === "object")
    for (const [k, v] of Object.entries(node))
      if (k === kind && Array.isArray(v)) for (const e of v) out.add(e.code)
      else codes(v, kind, out)
  return out
}

/** DNSViz's probe and grok of the domains, trusting the world root's KSK. */
const dnsviz = (resolver, domains) => {
  const dir = mkdtempSync(join(tmpdir(), "crosscheck-dnssec-"))
  const anchor = execFileSync("dig", [`@${resolver}`, ".", "DNSKEY", "+noall", "+answer"])
    .toString()
    .split("\n")
    .filter((l) => /\sDNSKEY\s+257\s/.test(l))
    .join("\n")
  writeFileSync(join(dir, "anchor.txt"), `${anchor}\n`)
  const probe = execFileSync("dnsviz", ["probe", "-s", resolver, ...domains], {
    stdio: ["ignore", "pipe", "ignore"],
    maxBuffer: 256 * 1024 * 1024
  })
  writeFileSync(join(dir, "probe.json"), probe)
  const grok = `import sys
from dnsviz.commands import grok
grok.test_pygraphviz = lambda: None
grok.main(["grok"] + sys.argv[1:])
`
  writeFileSync(join(dir, "grok.py"), grok)
  try {
    return JSON.parse(
      execFileSync(
        "/usr/bin/python3",
        [join(dir, "grok.py"), "-t", join(dir, "anchor.txt"), "-r", join(dir, "probe.json"), "-l", "info"],
        { stdio: ["ignore", "pipe", "ignore"], maxBuffer: 256 * 1024 * 1024 }
      ).toString()
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Compare and print (through `log`); the totals. */
export const run = async (api, log = console.log) => {
  ensureApt(["dnsviz", "dig"], ["dnsviz", "python3-pygraphviz", "bind9-dnsutils"])
  const env = worldEnv()
  const resolver = env.DNS_RESOLVERS.split(",")[0]
  // Signed scenarios only: DNSViz 0.9.4's grok crashes (KeyError in _serialize_rrset_info) at
  // level info on an unsigned zone's negative answers.
  const domains = worldScenarios(env, log)
    .filter((s) => s.dnssec)
    .map((s) => s.domain)
  const analysed = dnsviz(resolver, domains)
  const tally = report("dnsviz", EXCEPTIONS, log)
  for (const domain of domains) {
    const zone = analysed[`${domain}.`] ?? {}
    const theirs = {
      state: (zone.delegation?.status ?? "INSECURE").toLowerCase(),
      errors: [...codes(zone, "errors")],
      warnings: [...codes(zone, "warnings")]
    }
    const theirStatus = theirs.errors.length > 0 ? "fail" : theirs.warnings.length > 0 ? "warning" : "pass"
    const { status, body: ours } = await getJson(api, `/dns/dnssec?domain=${domain}`)
    const ourStatus = ours.status === "missing" ? "pass" : ours.status
    const agree =
      status === 200 && ours.state === theirs.state && (ours.signed ? ourStatus === theirStatus : true)
    tally.add(
      domain,
      agree,
      status === 200 ? `${ours.state}/${ours.status}` : `HTTP ${status} ${ours.error ?? ""}`,
      `${theirs.state}/${theirStatus} ${[...theirs.errors, ...theirs.warnings].join(",")}`
    )
  }
  return tally.finish()
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const api = process.argv[2] ?? "http://localhost:8080/api"
  process.exit((await run(api)).unexplained === 0 ? 0 : 1)
}
