#!/usr/bin/env node
/**
 * Cross-check of GET /email/smtp-tls against `openssl s_client -starttls smtp` and testssl.sh
 * (Debian `testssl.sh` 3.0.8, `-t smtp -S -p -s`) on every MX address of the test world's built-in
 * scenarios, both trusting the world's private CA (EXTRA_CA_FILE, as the service does). Per address
 * and check:
 * - addresses (per domain): we probed exactly the addresses the world gives its MX hosts;
 * - starttls: openssl completed STARTTLS and a handshake / found no STARTTLS / got no answer, vs
 *   our `starttls` (null: unknown);
 * - verify: openssl's verification of chain, name and dates (-verify_hostname) vs `certificateValid`;
 * - key: testssl's cert_keySize vs our key-size warning;
 * - trust, name, expired, notAfter (on the address testssl ran on): testssl's cert_chain_of_trust,
 *   cert_trust, cert_expirationStatus and cert_notAfter vs `trusted`, `hostnameMatch`, `expired`,
 *   `expiresAt`;
 * - TLS1, TLS1_1, TLS1_2, TLS1_3: testssl's protocol finding (offered / not offered) vs our
 *   `versions` (accepted / refused), each version probed on its own as `web-tls.mjs` does;
 * - null: testssl's NULL cipher list offered vs a NULL suite among our `ciphers`;
 * - ems: "extended master secret" among testssl's TLS_extensions (where it offers TLS 1.2) vs our
 *   `extendedMasterSecret` (RFC 7627), which the verdict below counts as the NCSC-NL 2025 guidelines
 *   do (its absence on TLS 1.2 insufficient);
 * - verdict: the address's status derived from the tools (no STARTTLS, a bad certificate or a suite
 *   without encryption: fail; a weak key or TLS 1.0/1.1 offered: warning, NCSC-NL phase out; no
 *   answer: unknown) vs ours.
 * openssl runs on every address; testssl once per TLS situation (testsslBySituation), and only
 * where openssl completed a handshake (on a silent or TLS-less server it retries for minutes); its
 * protocol, suite and key findings hold for every address of the situation, and the verdict of an
 * address testssl did not run on takes its certificate's verdict from openssl.
 * Exit 1 on an unexplained disagreement.
 *
 * Usage: node scripts/crosscheck/starttls.mjs API_BASE   (scripts/crosscheck/all.mjs starts a service)
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { domainToASCII } from "node:url"
import { ensureApt, getJsonAll, repo, report, worldEnv, worldScenarios } from "./lib.mjs"
import { emsOffered, offered, openssl, PROTOCOLS, testssl, testsslBySituation } from "./testssl.mjs"

/** Disagreements kept on purpose, with the reason ("* check" applies to every address). */
export const EXCEPTIONS = {}

const OLD = ["SSLv2", "SSLv3", "TLS1", "TLS1_1"]

/**
 * What the tools say about one address, in our terms. `own`: testssl ran on this address; else its
 * findings are its situation's (protocols, suites, key size), and the certificate's verdict is
 * openssl's alone.
 */
const theirView = (o, { findings: t, own }) => {
  if (o.established !== true || !t)
    return { starttls: o.established, verdict: o.established === false ? "fail" : "unknown" }
  const ok = (id) => t.get(id)?.severity === "OK"
  const view = {
    starttls: true,
    own,
    verified: o.verified,
    trusted: ok("cert_chain_of_trust"),
    nameMatch: ok("cert_trust"),
    expired: t.get("cert_expirationStatus")?.finding === "expired",
    notAfter: t.get("cert_notAfter")?.finding ?? null,
    weakKey: !ok("cert_keySize"),
    oldOffered: OLD.filter((id) => t.get(id)?.finding?.startsWith("offered")),
    versions: Object.fromEntries(PROTOCOLS.map(([id]) => [id, offered(t.get(id))])),
    nullOffered: offered(t.get("cipherlist_NULL")),
    ems: emsOffered(t)
  }
  const certificateBad = own ? !view.trusted || !view.nameMatch || view.expired : !o.verified
  const bad = certificateBad || view.nullOffered === true || view.ems === false
  const phaseOut = view.weakKey || view.oldOffered.length > 0
  return { ...view, verdict: bad ? "fail" : phaseOut ? "warning" : "pass" }
}

/** Compare and print (through `log`); the totals. */
export const run = async (api, log = console.log) => {
  ensureApt(["openssl", "testssl"], ["openssl", "testssl.sh", "bind9-dnsutils"])
  const env = worldEnv()
  const ca = env.EXTRA_CA_FILE
  const port = Number(env.SMTP_PORT ?? 25)
  const dir = mkdtempSync(join(tmpdir(), "crosscheck-starttls-"))
  const scenarios = worldScenarios(env, log).filter((s) => (s.mx ?? []).length > 0)
  const tally = report("openssl+testssl", EXCEPTIONS, log)
  const servers = []
  const answers = await getJsonAll(
    api,
    scenarios.map((s) => `/email/smtp-tls?domain=${s.domain}`)
  )
  for (const [i, { domain, mx }] of scenarios.entries()) {
    const { status, body } = answers[i]
    if (status !== 200) {
      tally.add(`${domain} smtp-tls`, false, `HTTP ${status} ${body.error ?? ""}`, "-")
      continue
    }
    servers.push(...body.servers)
    // every address the world gives an MX host is probed, and nothing else
    const world = mx.flatMap((m) => [m.addr, ...(m.aaaa ? [m.aaaa] : [])].map((ip) => `${m.host}@${ip}`))
    const probed = body.servers.map((x) => `${x.host}@${x.ip}`)
    tally.add(
      `${domain} addresses`,
      world.sort().join() === probed.sort().join(),
      probed.join(","),
      world.join(",")
    )
  }
  // The world's TLS knobs of an MX host (scripts/world/lib/mail.mjs, pki.mjs): its certificate
  // kind, its TLS policy, and the software that answers (Postfix or one of the world's own servers).
  const knobs = new Map(
    JSON.parse(readFileSync(join(repo, "scripts/world/scenarios.json"), "utf8")).scenarios.flatMap((s) =>
      (s.mx ?? []).map((m) => [domainToASCII(m.host === "@" ? s.domain : `${m.host}.${s.domain}`), m])
    )
  )
  const situationOf = (s) => {
    const m = knobs.get(s.host) ?? {}
    // an MX with `requiretls` is served by the world's own esmtp.mjs, not Postfix: a TLS stack of its own
    return JSON.stringify([
      m.tls ?? "valid",
      m.tlsPolicy ?? null,
      m.server ?? (m.requiretls ? "esmtp" : "postfix")
    ])
  }
  const sessions = await Promise.all(servers.map((s) => openssl(ca, s.host, s.ip, port, { starttls: true })))
  // testssl only where openssl completed a handshake: on a silent or TLS-less server it retries for minutes
  const findings = await testsslBySituation(
    servers,
    situationOf,
    (s) => testssl(ca, dir, s.host, s.ip, port, ["-t", "smtp"]),
    (_, i) => sessions[i].established === true
  )
  const views = servers.map((_, i) => theirView(sessions[i], findings[i]))
  servers.forEach((ours, i) => {
    const theirs = views[i]
    const at = `${ours.host}@${ours.ip}`
    const compare = (check, a, b) => tally.add(`${at} ${check}`, a === b, String(a), String(b))
    compare("starttls", ours.starttls, theirs.starttls)
    if (theirs.starttls === true && ours.starttls === true) {
      compare("verify", ours.certificateValid, theirs.verified)
      if (theirs.own) {
        compare("trust", ours.trusted, theirs.trusted)
        compare("name", ours.hostnameMatch, theirs.nameMatch)
        compare("expired", ours.expired, theirs.expired)
        compare("notAfter", ours.expiresAt?.slice(0, 16).replace("T", " ") ?? null, theirs.notAfter)
      }
      compare(
        "key",
        ours.issues.some((x) => /key of \d+ bits/.test(x)),
        theirs.weakKey
      )
      for (const [id, version] of PROTOCOLS) {
        const support = (ours.versions ?? []).find((v) => v.version === version)?.support
        compare(id, support === "accepted" ? true : support === "refused" ? false : null, theirs.versions[id])
      }
      compare(
        "null",
        (ours.ciphers ?? []).some((c) => /_WITH_NULL_/.test(c.name)),
        theirs.nullOffered
      )
      if (theirs.ems !== null) compare("ems", ours.extendedMasterSecret ?? null, theirs.ems)
    }
    compare("verdict", ours.status, theirs.verdict)
  })
  rmSync(dir, { recursive: true, force: true })
  return tally.finish()
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const api = process.argv[2] ?? "http://localhost:8080/api"
  process.exit((await run(api)).unexplained === 0 ? 0 : 1)
}
