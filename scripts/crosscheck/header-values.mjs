#!/usr/bin/env node
/**
 * Cross-check of our header rules against the MDN HTTP Observatory's, on header values the world's
 * sites do not stage: each value of CASES (most from the Observatory's own test suite) is judged by
 * the Observatory's tests (observatory/judge.mjs, no network) and by our pure `analyse` of
 * src/checks/headers/Headers.ts, as one HTTPS response carrying that header. Same vocabulary as
 * headers.mjs (absent / pass / fail). A rule where we differ on purpose is in EXCEPTIONS with its
 * reason (docs/security-headers.md). Needs no world and no service.
 *
 * Usage: node scripts/crosscheck/header-values.mjs
 */
import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { ensureObservatory, OBSERVATORY, ourVerdict, TESTS, theirVerdict } from "./headers.mjs"
import { repo, report } from "./lib.mjs"

/** [header as we name it, value]. */
export const CASES = [
  ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"],
  ["Strict-Transport-Security", "max-age=31536000"],
  ["Strict-Transport-Security", "max-age=15768000"],
  ["Strict-Transport-Security", "max-age=86400"],
  ["Strict-Transport-Security", "max-age=0"],
  ["Strict-Transport-Security", "includeSubDomains"],
  ["Strict-Transport-Security", "max-age=31536000; max-age=31536000"],
  ["Strict-Transport-Security", "max-age=31536000, max-age=31536000"],
  ["Strict-Transport-Security", "max-age=63072000; includeSubDomains; preload"],
  ["Content-Security-Policy", "default-src 'none'"],
  ["Content-Security-Policy", "default-src 'self'"],
  ["Content-Security-Policy", "default-src 'self'; object-src 'none'; base-uri 'none'"],
  ["Content-Security-Policy", "script-src 'self'"],
  ["Content-Security-Policy", "default-src 'self'; script-src 'self' 'unsafe-inline'"],
  ["Content-Security-Policy", "default-src 'self'; script-src 'nonce-abc123' 'unsafe-inline'"],
  [
    "Content-Security-Policy",
    "script-src 'strict-dynamic' 'nonce-abc123'; object-src 'none'; base-uri 'none'"
  ],
  ["Content-Security-Policy", "default-src 'self' 'unsafe-eval'"],
  ["Content-Security-Policy", "default-src *"],
  ["Content-Security-Policy", "default-src https:"],
  ["Content-Security-Policy", "default-src 'self' data:"],
  ["Content-Security-Policy", "default-src 'self' http:"],
  ["Content-Security-Policy", "img-src 'self'"],
  ["Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'"],
  ["Content-Security-Policy", "frame-ancestors 'none'"],
  ["Content-Security-Policy", "upgrade-insecure-requests"],
  ["X-Frame-Options", "DENY"],
  ["X-Frame-Options", "SAMEORIGIN"],
  ["X-Frame-Options", "DENY "],
  ["X-Frame-Options", "ALLOW-FROM https://world.test"],
  ["X-Frame-Options", "SAMEORIGIN, SAMEORIGIN"],
  ["X-Frame-Options", "whimsy"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-Content-Type-Options", "NOSNIFF"],
  ["X-Content-Type-Options", "nosniff, nosniff"],
  ["X-Content-Type-Options", "whimsy"],
  ["Referrer-Policy", "no-referrer"],
  ["Referrer-Policy", "same-origin"],
  ["Referrer-Policy", "strict-origin"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["Referrer-Policy", "no-referrer-when-downgrade"],
  ["Referrer-Policy", "origin"],
  ["Referrer-Policy", "origin-when-cross-origin"],
  ["Referrer-Policy", "unsafe-url"],
  ["Referrer-Policy", "whimsy"],
  ["Referrer-Policy", "no-referrer, unsafe-url"],
  ["Referrer-Policy", "unsafe-url, no-referrer"],
  ["Referrer-Policy", "no-referrer, whimsy"]
]

/** Rules where we differ on purpose, by "header value", with the reason. */
export const EXCEPTIONS = {
  "Strict-Transport-Security max-age=86400":
    "The Observatory fails a max-age under six months; RFC 6797 sets no minimum and a short max-age still protects visitors who return within it, so we pass it as weak (a year or more with includeSubDomains is good)",
  "Strict-Transport-Security max-age=31536000; max-age=31536000":
    "A directive repeated within one header breaks the grammar (RFC 6797 6.1: MUST appear only once) and browsers ignore such a header (8.1): ineffective here; the Observatory reads the last max-age",
  "Strict-Transport-Security max-age=31536000, max-age=31536000":
    "The header sent twice (joined with ', ', RFC 9110 5.3): browsers apply the first (RFC 6797 8.1), so it protects and we report the repetition (weak); the Observatory calls any comma invalid",
  "Content-Security-Policy default-src 'self' 'unsafe-eval'":
    "'unsafe-eval' does not let injected markup run script by itself (it allows eval() of strings in scripts the policy already admits): weak here, -10 there",
  "X-Frame-Options ALLOW-FROM https://world.test":
    "Browsers ignore ALLOW-FROM (Chrome and Safari never supported it, Firefox dropped it in 70), so the page can be framed: ineffective here, a pass there"
}

/** Our `analyse`: vitest imports TypeScript itself; plain Node goes through tsx. */
const ourAnalyse = async () => {
  const url = pathToFileURL(join(repo, "src/checks/headers/Headers.ts")).href
  if (process.env.VITEST) return (await import(url)).analyse
  const { tsImport } = await import("tsx/esm/api")
  return (await tsImport(url, import.meta.url)).analyse
}

/** Compare and print (through `log`); the totals. */
export const run = async (_api, log = console.log) => {
  ensureObservatory()
  const theirs = JSON.parse(
    execFileSync(process.execPath, ["judge.mjs"], {
      cwd: OBSERVATORY,
      input: JSON.stringify(CASES.map(([header, value]) => ({ [header.toLowerCase()]: value }))),
      stdio: ["pipe", "pipe", "inherit"]
    }).toString()
  )
  const analyse = await ourAnalyse()
  const tally = report("observatory", EXCEPTIONS, log, (key) => key.split(" ")[0])
  CASES.forEach(([header, value], i) => {
    const gathered = {
      kind: "response",
      status: 200,
      headers: { "content-type": "text/html", [header.toLowerCase()]: value },
      finalUrl: "https://world.test/",
      redirects: 0,
      tlsError: null,
      metaCsp: [],
      bodyTruncated: false
    }
    const entry = analyse("world.test", gathered, new Date()).current.find((e) => e.name === header)
    const test = TESTS[header]
    const ours = ourVerdict(entry)
    const their = theirVerdict(theirs[i] && { tests: theirs[i] }, test)
    tally.add(
      `${header} ${value}`,
      ours === their,
      `${ours} (${entry.rating})`,
      `${their} (${theirs[i][test].result})`
    )
  })
  return tally.finish()
}

if (import.meta.url === `file://${process.argv[1]}`)
  process.exit((await run(undefined)).unexplained === 0 ? 0 : 1)
