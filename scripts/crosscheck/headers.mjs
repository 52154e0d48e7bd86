#!/usr/bin/env node
/**
 * Cross-check of GET /security-headers/analyze against the MDN HTTP Observatory (npm
 * `@mdn/mdn-http-observatory`, pinned in observatory/package.json) on every web site of the test
 * world's built-in scenarios. Per site and header (HSTS, CSP, X-Frame-Options,
 * X-Content-Type-Options, Referrer-Policy; the Observatory has no Permissions-Policy test) both
 * verdicts are put in one vocabulary:
 * - absent: not sent (the Observatory's `*-not-implemented` results; ours rating `absent`);
 * - pass / fail: the Observatory's own `pass` of its test; ours `status` pass or not;
 * - unknown: the page could not be read (the Observatory's "site seems to be down"; ours `unknown`).
 * Per site also what the page sets and loads: cookies, Subresource Integrity and CORS, whose
 * results carry the Observatory's own names on both sides (its `result` and `pass`).
 * A disagreement we keep on purpose is in EXCEPTIONS with its reason (docs/security-headers.md).
 *
 * The Observatory runs in its own process with the world's resolver (observatory/world-dns.mjs)
 * and the world's CA (NODE_EXTRA_CA_CERTS). Usage: node scripts/crosscheck/headers.mjs API_BASE
 */
import { execFileSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { getJson, here, report, worldEnv, worldScenarios } from "./lib.mjs"

/** A site without HTTPS: we read no page, the Observatory reads the plain HTTP one. */
const PLAIN_HTTP_ONLY =
  "The site answers only plain HTTP (nothing listens on 443). We judge what the HTTPS page sets and loads, and leave cookies, SRI and CORS not applicable without one (the https rule already fails it); the Observatory falls back to the plain HTTP page. Over plain HTTP every cookie travels in clear (RFC 6265 8.3) and the page itself, with its integrity attributes, can be rewritten in transit (SRI guards a subresource, not the page that names it), whatever the attributes say"

/** Disagreements kept on purpose, with the reason ("* header" applies to every site). */
export const EXCEPTIONS = {
  "* site":
    'The apex has no A/AAAA record (the site lives at mta-sts.<domain> only). The Observatory gives no verdict ("the site seems to be down"); a definite DNS answer is not an outage, so we report every header missing with "the site does not serve HTTPS" (docs/security-headers.md). Unknown stays for timeouts and failures',
  "web-httponly.com cookies": PLAIN_HTTP_ONLY,
  "web-httponly.com sri": PLAIN_HTTP_ONLY,
  "web-httponly.com cors": PLAIN_HTTP_ONLY,
  "web-cors-credentials.com cors":
    "The page echoes any Origin with Access-Control-Allow-Credentials: true, which the Observatory's own rule calls universal access (a fail). Its 1.4.8 reads the Origin it sent from `response.request.headers`, which Node's ClientRequest does not have (its headers are read with getHeader), so it never sees its Origin echoed and reports restricted access (a pass). Browsers let every site read the page as the visitor (WHATWG Fetch, CORS check): we fail it"
}

export const OBSERVATORY = join(here, "observatory")
const PACKAGE = join(OBSERVATORY, "node_modules/@mdn/mdn-http-observatory")

/** Our header name -> the Observatory's test. */
export const TESTS = {
  "Strict-Transport-Security": "strict-transport-security",
  "Content-Security-Policy": "content-security-policy",
  "X-Frame-Options": "x-frame-options",
  "X-Content-Type-Options": "x-content-type-options",
  "Referrer-Policy": "referrer-policy"
}

/**
 * What the page sets and loads, beyond its headers: our field -> the Observatory's test. Ours carry
 * the Observatory's result names (src/checks/headers/WebContent.ts), so the result itself is
 * compared, not only pass or fail.
 */
export const CONTENT_TESTS = {
  cookies: "cookies",
  sri: "subresource-integrity",
  cors: "cross-origin-resource-sharing"
}

/**
 * The Observatory's results that mean "header not sent" (a Report-Only CSP enforces nothing: the
 * Observatory fails it as not implemented, we report the CSP absent with an issue).
 */
export const NOT_SENT = new Set([
  "csp-not-implemented-but-reporting-enabled",
  "hsts-not-implemented",
  "hsts-not-implemented-no-https",
  "csp-not-implemented",
  "x-frame-options-not-implemented",
  "x-content-type-options-not-implemented",
  "referrer-policy-not-implemented"
])

/**
 * Install the pinned Observatory (idempotent). Its install scripts download Mozilla's CA bundle,
 * the HSTS preload list and the TLD list from the internet, which this machine does not reach:
 * installed with --ignore-scripts, and the preload list it reads is written empty (no world domain
 * is on the real list, and the world's CA is given through NODE_EXTRA_CA_CERTS instead). `npm
 * install` follows the lockfile, as the service's own install does (docs/testing.md: not `npm ci`).
 */
export const ensureObservatory = () => {
  const wanted = JSON.parse(readFileSync(join(OBSERVATORY, "package.json"), "utf8")).dependencies[
    "@mdn/mdn-http-observatory"
  ]
  const installed = existsSync(join(PACKAGE, "package.json"))
    ? JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")).version
    : null
  if (installed !== wanted)
    execFileSync("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund"], {
      cwd: OBSERVATORY,
      stdio: ["ignore", "ignore", "inherit"]
    })
  const preload = join(PACKAGE, "conf/hsts-preload.json")
  if (!existsSync(preload)) writeFileSync(preload, "{}\n")
}

/** The Observatory's verdicts for the hosts (host -> { tests } or { error }). */
const observatory = (env, hosts) =>
  JSON.parse(
    execFileSync(process.execPath, ["--import", "./world-dns.mjs", "scan.mjs", ...hosts], {
      cwd: OBSERVATORY,
      env: {
        ...process.env,
        WORLD_RESOLVER: env.DNS_RESOLVERS.split(",")[0],
        NODE_EXTRA_CA_CERTS: env.EXTRA_CA_FILE
      },
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 64 * 1024 * 1024
    }).toString()
  )

export const ourVerdict = (entry) =>
  !entry || entry.rating === "unknown"
    ? "unknown"
    : entry.rating === "absent"
      ? "absent"
      : entry.status === "pass"
        ? "pass"
        : "fail"

export const theirVerdict = (site, test) => {
  const t = site.tests?.[test]
  if (!t) return "unknown"
  return NOT_SENT.has(t.result) ? "absent" : t.pass ? "pass" : "fail"
}

/** Compare and print (through `log`); the totals. */
export const run = async (api, log = console.log) => {
  ensureObservatory()
  const env = worldEnv()
  const hosts = worldScenarios(env, log)
    .filter((s) => s.web)
    .map((s) => s.domain)
  const theirs = observatory(env, hosts)
  const tally = report("observatory", EXCEPTIONS, log)
  for (const host of hosts) {
    const { status, body } = await getJson(api, `/security-headers/analyze?domain=${host}`)
    if (status !== 200) {
      tally.add(
        `${host} analyze`,
        false,
        `HTTP ${status} ${body.error ?? ""}`,
        theirs[host].error ?? "scanned"
      )
      continue
    }
    // No address at the apex: one case for the site, not five for headers nobody could send.
    if (body.fetchError?.startsWith("no-address")) {
      const their = theirs[host].error ? "no verdict" : "scanned"
      tally.add(
        `${host} site`,
        false,
        "no address: headers missing",
        `${their} (${theirs[host].error ?? ""})`
      )
      continue
    }
    for (const [header, test] of Object.entries(TESTS)) {
      const ours = ourVerdict(body.current.find((e) => e.name === header))
      const site = theirs[host]
      const their = theirVerdict(site, test)
      const detail = site.error ?? site.tests[test].result
      const rating = body.current.find((e) => e.name === header)?.rating
      tally.add(`${host} ${header}`, ours === their, `${ours} (${rating})`, `${their} (${detail})`)
    }
    for (const [field, test] of Object.entries(CONTENT_TESTS)) {
      // No verdict: we read no HTTPS page (or the Origin request failed); the site seems down to them.
      const verdict = (r) => (r ? `${r.result} (${r.pass ? "pass" : "fail"})` : "no verdict")
      const ours = verdict(body[field])
      const their = verdict(theirs[host].tests?.[test])
      tally.add(`${host} ${field}`, ours === their, ours, their)
    }
  }
  return tally.finish()
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const api = process.argv[2] ?? "http://localhost:8080/api"
  process.exit((await run(api)).unexplained === 0 ? 0 : 1)
}
