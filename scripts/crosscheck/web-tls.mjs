#!/usr/bin/env node
/**
 * Cross-check of GET /web/tls against openssl s_client and testssl.sh (Debian `testssl.sh` 3.0.8,
 * `-p -S -s -f`) on every HTTPS web host of the test world's built-in scenarios (each apex address the
 * service probed), trusting the world's private CA (EXTRA_CA_FILE, as the service does). testssl
 * runs once per TLS situation (testsslBySituation); its protocol and suite findings hold for every
 * host of the situation. Per address and check:
 * - addresses (per domain): we probed the apex's world address (none when the world gives the web
 *   address only to other names, as the MTA-STS policy hosts);
 * - verify: openssl's verification of chain, name and dates vs trusted, name matching, not expired;
 * - TLS1, TLS1_1, TLS1_2, TLS1_3: testssl's protocol finding (offered / not offered) vs our
 *   `versions` (accepted / refused);
 * - null: testssl's cipherlist_NULL offered vs a NULL suite among our `ciphers`;
 * - ems: "extended master secret" among testssl's TLS_extensions (where it offers TLS 1.2) vs our
 *   `extendedMasterSecret` (RFC 7627);
 * - kx: every key exchange our handshakes negotiated (`keyExchanges`, NCSC-NL 2025 table 5) is one
 *   testssl's forward-secrecy run (-f) found offered: an ECDH curve among its PFS_ECDHE_curves, a
 *   finite-field group's size among its DH_groups;
 * - ocspStapling (on the address testssl ran on): testssl's OCSP_stapling vs our `ocspStapled`;
 * - trust, name, expired, notAfter (on the address testssl ran on): testssl's cert_chain_of_trust,
 *   cert_trust, cert_expirationStatus and cert_notAfter vs `trusted`, `hostnameMatch`, `expired`,
 *   `expiresAt`.
 * Exit 1 on an unexplained disagreement.
 *
 * Usage: node scripts/crosscheck/web-tls.mjs API_BASE   (scripts/crosscheck/all.mjs starts a service)
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { domainToASCII } from "node:url"
import { ensureApt, getJsonAll, repo, report, worldEnv, worldScenarios } from "./lib.mjs"
import {
  emsOffered,
  keyExchangesOffered,
  offered,
  openssl,
  PROTOCOLS,
  staplingOffered,
  testssl,
  testsslBySituation
} from "./testssl.mjs"

/** Disagreements kept on purpose, with the reason ("* check" applies to every address). */
export const EXCEPTIONS = {}

/** Compare and print (through `log`); the totals. */
export const run = async (api, log = console.log) => {
  ensureApt(["openssl", "testssl"], ["openssl", "testssl.sh", "bind9-dnsutils"])
  const env = worldEnv()
  const ca = env.EXTRA_CA_FILE
  const dir = mkdtempSync(join(tmpdir(), "crosscheck-web-tls-"))
  const scenarios = worldScenarios(env, log).filter((s) => s.web?.https && s.web.server === "nginx")
  const tally = report("testssl", EXCEPTIONS, log)
  // The names the world gives the web address ("@" is the apex; some hosts serve only mta-sts.).
  const declared = JSON.parse(readFileSync(join(repo, "scripts/world/scenarios.json"), "utf8")).scenarios
  const names = new Map(declared.map((s) => [domainToASCII(s.domain), s.web?.names ?? ["@"]]))
  const tlsOf = new Map(declared.map((s) => [domainToASCII(s.domain), s.web]))
  const servers = []
  const answers = await getJsonAll(
    api,
    scenarios.map((s) => `/web/tls?domain=${s.domain}`)
  )
  for (const [i, { domain, web }] of scenarios.entries()) {
    const { status, body } = answers[i]
    if (status !== 200) {
      tally.add(`${domain} web-tls`, false, `HTTP ${status} ${body.error ?? ""}`, "-")
      continue
    }
    const apex = body.servers.filter((s) => s.host === domain && s.family === 4)
    const expected = names.get(domain)?.includes("@") ? web.addr : ""
    tally.add(
      `${domain} addresses`,
      apex.map((s) => s.ip).join() === expected,
      apex.map((s) => s.ip).join(),
      expected
    )
    servers.push(...apex)
  }
  // The world's TLS knobs of a web host (scripts/world/lib/web.mjs): its own protocols and suites,
  // and HTTP/2 by ALPN; every web certificate is a valid one from the world's CA.
  const situationOf = (s) =>
    JSON.stringify([tlsOf.get(s.host)?.tls ?? null, tlsOf.get(s.host)?.http2 ?? false])
  const verified = await Promise.all(servers.map((s) => openssl(ca, s.host, s.ip, 443)))
  const findings = await testsslBySituation(servers, situationOf, (s) =>
    testssl(ca, dir, s.host, s.ip, 443, ["-f"])
  )
  servers.forEach((ours, i) => {
    const { findings: t, own } = findings[i]
    const at = `${ours.host}@${ours.ip}`
    const compare = (check, a, b) => tally.add(`${at} ${check}`, a === b, String(a), String(b))
    compare("verify", ours.trusted && ours.hostnameMatch && !ours.expired, verified[i].verified)
    if (t === null) {
      tally.add(`${at} testssl`, false, ours.status, "testssl wrote no findings")
      return
    }
    for (const [id, version] of PROTOCOLS) {
      const support = ours.versions.find((v) => v.version === version)?.support
      compare(id, support === "accepted" ? true : support === "refused" ? false : null, offered(t.get(id)))
    }
    const nullSuite = ours.ciphers.some((c) => /_WITH_NULL_/.test(c.name))
    compare("null", nullSuite, offered(t.get("cipherlist_NULL")))
    // Both null where TLS 1.2 is refused; a testssl run without its extensions says nothing.
    const ems = emsOffered(t)
    if (ems === null && offered(t.get("TLS1_2")) === true)
      log(`note     ${at}: testssl listed no TLS extensions; Extended Master Secret is not compared`)
    else compare("ems", ours.extendedMasterSecret ?? null, ems)
    const kx = keyExchangesOffered(t)
    const unseen = ours.keyExchanges.filter((k) =>
      k.type === "ECDH" ? !kx?.curves.has(k.name ?? "") : !kx?.dhBits.has(k.bits)
    )
    compare(
      "kx",
      unseen.map((k) => `${k.type} ${k.name ?? k.bits}`).join(", ") || "all offered",
      "all offered"
    )
    if (!own) return
    // testssl's server-defaults run (-S) sometimes ends without a certificate section (seen on the
    // hosts with their own suite lists, and on a loaded machine): it then says nothing either way.
    if (!t.has("cert_notAfter")) {
      log(`note     ${at}: testssl reported no certificate; the certificate checks are skipped`)
      return
    }
    const ok = (id) => t.get(id)?.severity === "OK"
    compare("ocspStapling", ours.ocspStapled, staplingOffered(t))
    compare("trust", ours.trusted, ok("cert_chain_of_trust"))
    compare("name", ours.hostnameMatch, ok("cert_trust"))
    compare("expired", ours.expired, t.get("cert_expirationStatus")?.finding === "expired")
    compare(
      "notAfter",
      ours.expiresAt?.slice(0, 16).replace("T", " ") ?? null,
      t.get("cert_notAfter")?.finding ?? null
    )
  })
  rmSync(dir, { recursive: true, force: true })
  return tally.finish()
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const api = process.argv[2] ?? "http://localhost:8080/api"
  process.exit((await run(api)).unexplained === 0 ? 0 : 1)
}
