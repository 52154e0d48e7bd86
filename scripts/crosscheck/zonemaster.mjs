#!/usr/bin/env node
/**
 * Cross-check of GET /dns/dnssec against Zonemaster (Debian package `zonemaster-cli` 5.0.2, engine
 * 4.6.2) on every built-in zone of the test world. Zonemaster starts from the world's root (a hints
 * file naming the world's root server) and runs its DNSSEC test cases; we compare
 * - the state: insecure when Zonemaster finds neither DNSKEY nor DS (NOT_SIGNED), bogus when a
 *   test of the chain or of the signatures (DNSSEC02, 04 RRSIG_EXPIRED, 07, 08, 09, 10, 11) reports
 *   an ERROR, else secure;
 * - for signed zones, the status: ERROR or CRITICAL is fail, WARNING is warning, else pass.
 * A disagreement we keep on purpose is in EXCEPTIONS with its reason. Exit 1 when an unexplained
 * disagreement remains.
 *
 * Usage: node scripts/crosscheck/zonemaster.mjs API_BASE   (scripts/crosscheck/all starts a service)
 */
import { execFile, execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { ensureApt, getJsonAll, report, worldEnv, worldScenarios } from "./lib.mjs"

/** Disagreements kept on purpose, with the reason. */
export const EXCEPTIONS = {
  "rsasha1.net":
    "Zonemaster 4.6.2 follows RFC 8624 3.1 (RSASHA1: NOT RECOMMENDED, a WARNING); RFC 9905 5 makes it MUST NOT for signing, so we fail (docs/dnssec.md)",
  "nsec3-legacy.org":
    "Zonemaster 4.6.2 accepts 10 NSEC3 iterations and a salt (ITERATIONS_OK; it notes only more than 100); RFC 9276 3.1: iterations MUST be 0, a salt SHOULD NOT be used, so we warn",
  "short-sigs.net":
    "Zonemaster 4.6.2 does not compare signature expirations with the SOA expire; signatures that run out within it are our warning (RFC 1035 3.3.13, RFC 6781 4.4.2; docs/dnssec.md)"
}

/** Test cases whose ERROR means a validator cannot build the chain: the zone is bogus. */
const CHAIN_CASES = new Set(["DNSSEC02", "DNSSEC07", "DNSSEC08", "DNSSEC09", "DNSSEC10", "DNSSEC11"])
const RANK = { CRITICAL: 3, ERROR: 3, WARNING: 2 }

/** Zonemaster's verdict on one zone from its messages: state, status and the tags that decided them. */
const verdict = (entries) => {
  const unsigned = entries.some((e) => e.tag === "NOT_SIGNED" || e.tag === "NEITHER_DNSKEY_NOR_DS")
  const bad = entries.filter((e) => RANK[e.level] >= 2)
  const bogus = bad.some(
    (e) => RANK[e.level] === 3 && (CHAIN_CASES.has(e.testcase) || e.tag === "RRSIG_EXPIRED")
  )
  const worst = Math.max(0, ...bad.map((e) => RANK[e.level]))
  return {
    state: unsigned ? "insecure" : bogus ? "bogus" : "secure",
    status: worst === 3 ? "fail" : worst === 2 ? "warning" : "pass",
    tags: [...new Set(bad.map((e) => e.tag))]
  }
}

/** A root hints file naming the world's root servers (Zonemaster starts every walk there). */
const worldHints = (env) => {
  const auth = env.WORLD_AUTH_DNS
  const dig = (...args) =>
    execFileSync("dig", [`@${auth}`, ...args, "+short"])
      .toString()
      .trim()
      .split("\n")
  const lines = []
  for (const ns of dig(".", "NS").filter(Boolean)) {
    lines.push(`.\t3600000\tNS\t${ns}`)
    for (const a of dig(ns, "A").filter(Boolean)) lines.push(`${ns}\t3600000\tA\t${a}`)
  }
  const file = join(mkdtempSync(join(tmpdir(), "crosscheck-zonemaster-")), "hints")
  writeFileSync(file, `${lines.join("\n")}\n`)
  return file
}

/**
 * Zonemaster's messages (the JSON lines of `--json-stream --raw --level INFO`) on `domain`, walking
 * from the root servers of the `hints` file, for the test modules `tests` (`--test`, e.g. DNSSEC).
 */
const zonemasterMessages = async (hints, domain, tests) => {
  const args = ["--json-stream", "--raw", "--level", "INFO", "--hints", hints]
  for (const t of tests) args.push("--test", t)
  const { stdout } = await promisify(execFile)("zonemaster-cli", [...args, domain], {
    maxBuffer: 16 * 1024 * 1024
  })
  return stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l))
}

/**
 * Zonemaster on each of `domains` from the world's root, for the test modules `tests`: domain -> its
 * messages. Four at a time: each run is a few seconds of queries to the world's Knot.
 */
const zonemasterEach = async (env, domains, tests) => {
  const hints = worldHints(env)
  const messages = new Map()
  try {
    for (let i = 0; i < domains.length; i += 4)
      for (const [d, m] of await Promise.all(
        domains.slice(i, i + 4).map(async (d) => [d, await zonemasterMessages(hints, d, tests)])
      ))
        messages.set(d, m)
  } finally {
    rmSync(dirname(hints), { recursive: true, force: true })
  }
  return messages
}

/**
 * The modules of both cross-checks (this file's DNSSEC, nameservers.mjs's four). Zonemaster runs once
 * a domain for all of them and each cross-check reads its own modules' messages (and SYSTEM's), which
 * are the same as a run of those modules alone (compared on signed, bogus and lame zones): a run's
 * start-up, about half a second of CPU, once instead of twice, over every world domain.
 */
const MODULES = ["DNSSEC", "Delegation", "Nameserver", "Connectivity", "Consistency"]
/** The last run over all MODULES, by its domains, reused for ten minutes (one cross-check run). */
let shared = { key: "", atMs: 0, messages: Promise.resolve(new Map()) }

/** Zonemaster's messages on each of `domains` for the test modules `tests` (a subset of MODULES). */
export const zonemasterOnWorld = async (env, domains, tests) => {
  ensureApt(["zonemaster-cli", "dig"], ["zonemaster-cli", "bind9-dnsutils"])
  if (!tests.every((t) => MODULES.includes(t))) return zonemasterEach(env, domains, tests)
  const key = `${env.WORLD_AUTH_DNS} ${domains.join(" ")}`
  if (shared.key !== key || Date.now() - shared.atMs > 600_000)
    shared = { key, atMs: Date.now(), messages: zonemasterEach(env, domains, MODULES) }
  const wanted = new Set(["SYSTEM", ...tests.map((t) => t.toUpperCase())])
  return new Map(
    [...(await shared.messages)].map(([d, m]) => [
      d,
      m.filter((e) => wanted.has(String(e.module).toUpperCase()))
    ])
  )
}

/** Compare and print (through `log`); the totals. */
export const run = async (api, log = console.log) => {
  const env = worldEnv()
  const domains = worldScenarios(env, log).map((s) => s.domain)
  const tally = report("zonemaster", EXCEPTIONS, log)
  const [messages, answers] = await Promise.all([
    zonemasterOnWorld(env, domains, ["DNSSEC"]),
    getJsonAll(
      api,
      domains.map((d) => `/dns/dnssec?domain=${d}`)
    )
  ])
  for (const [i, domain] of domains.entries()) {
    const zm = verdict(messages.get(domain))
    const { status, body: ours } = answers[i]
    if (status !== 200) {
      tally.add(domain, false, `HTTP ${status} ${ours.error ?? ""}`, `${zm.state}/${zm.status}`)
      continue
    }
    const agree = ours.state === zm.state && (ours.signed ? ours.status === zm.status : true)
    tally.add(domain, agree, `${ours.state}/${ours.status}`, `${zm.state}/${zm.status} ${zm.tags.join(",")}`)
  }
  return tally.finish()
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const api = process.argv[2] ?? "http://localhost:8080/api"
  process.exit((await run(api)).unexplained === 0 ? 0 : 1)
}
