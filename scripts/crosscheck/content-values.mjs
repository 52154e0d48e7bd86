#!/usr/bin/env node
/**
 * Cross-check of our cookies and Subresource Integrity rules against the MDN HTTP Observatory's,
 * on pages the world's sites do not stage: each case of COOKIES (Set-Cookie headers, with or
 * without HSTS) and SCRIPTS (a page's HTML) is judged by the Observatory's tests
 * (observatory/judge-content.mjs, no network) and by our pure `analyse` of
 * src/checks/headers/Headers.ts, as one HTTPS response for https://example.com/. Both name their
 * result alike (src/checks/headers/WebContent.ts), so results are compared name for name. A rule
 * where we differ on purpose is in EXCEPTIONS with its reason (docs/security-headers.md). Needs no
 * world and no service.
 *
 * Usage: node scripts/crosscheck/content-values.mjs
 */
import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { ensureObservatory, OBSERVATORY } from "./headers.mjs"
import { repo, report } from "./lib.mjs"

/** [Set-Cookie headers of the page, whether its HSTS protects it]. */
export const COOKIES = [
  [[], false],
  [["sessionid=1; Secure; HttpOnly; SameSite=Lax"], false],
  [["sessionid=1; Secure; HttpOnly"], false],
  [["SESSIONID=1; secure; httponly; samesite=strict"], false],
  [["theme=dark; Path=/"], false],
  [["theme=dark; Path=/"], true],
  [["sessionid=1; HttpOnly; SameSite=Lax"], false],
  [["sessionid=1; HttpOnly; SameSite=Lax"], true],
  [["sessionid=1; Secure; SameSite=Lax"], false],
  [["login=1; Secure"], false],
  [["csrftoken=1; Secure"], false],
  [["csrftoken=1; Secure; SameSite=Strict"], false],
  [["prefs=1; Secure; SameSite=Sometimes"], false],
  [["prefs=1; Secure; SameSite"], false],
  [["prefs=1; SameSite=None"], false],
  [["sess=1; Secure; HttpOnly; SameSite=None"], false],
  [["__Host-sess=1; Secure; HttpOnly; Path=/; SameSite=Lax"], false],
  [["__Host-prefs=1; Path=/"], false],
  [["__Host-prefs=1; Secure; Path=/; Domain=example.com"], false],
  [["__Host-prefs=1; Secure; Path=/app"], false],
  [["__Secure-prefs=1"], false],
  [["__Secure-prefs=1; Secure; SameSite=Lax"], false],
  [["prefs=1; Secure; Domain=other.net"], false],
  [["prefs=1; Secure; Domain=example.com; SameSite=Lax"], false],
  [["prefs=1; Secure; Domain=.example.com; SameSite=Lax"], false],
  [["heroku-session-affinity=1"], false],
  [["=orphan; Secure; SameSite=Lax"], false],
  [["prefs=1; Secure; SameSite=Lax", "sessionid=2; Secure"], false],
  [["sessionid=1", "sessionid=2; Secure; HttpOnly; SameSite=Lax"], false],
  [["sessionid=; Max-Age=0"], false],
  [["sessionid=; Expires=Thu, 01 Jan 1970 00:00:00 GMT"], false],
  [["prefs=1; Secure; Path=/admin; SameSite=Lax"], false]
]

const page = (body) => `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`

/** [the page's HTML, its Content-Type]. */
export const SCRIPTS = [
  [page("<p>no script</p>"), "text/html"],
  [page("<script>var inline = 1</script>"), "text/html"],
  [page('<script src="/app.js"></script>'), "text/html"],
  [page('<script src="app.js"></script>'), "text/html"],
  [page('<script src="https://example.com/app.js"></script>'), "text/html"],
  [page('<script src="https://cdn.example.com/app.js"></script>'), "text/html"],
  [page('<script src="https://cdn.other.net/lib.js"></script>'), "text/html"],
  [
    page('<script src="https://cdn.other.net/lib.js" integrity="sha384-abc" crossorigin></script>'),
    "text/html"
  ],
  [page('<script src="http://cdn.other.net/lib.js"></script>'), "text/html"],
  [page('<script src="http://cdn.other.net/lib.js" integrity="sha384-abc"></script>'), "text/html"],
  [page('<script src="//cdn.other.net/lib.js"></script>'), "text/html"],
  [page('<script src="//cdn.other.net/lib.js" integrity="sha384-abc"></script>'), "text/html"],
  [page('<script src="//cdn.example.com/app.js"></script>'), "text/html"],
  [page('<script src="/app.js" integrity="sha384-abc"></script>'), "text/html"],
  [
    page(
      '<script src="https://cdn.other.net/a.js" integrity="sha384-abc"></script><script src="https://cdn.other.net/b.js"></script>'
    ),
    "text/html"
  ],
  [page('<script src="HTTPS://CDN.OTHER.NET/lib.js" integrity="sha384-abc"></script>'), "text/html"],
  [page('<SCRIPT SRC="https://cdn.other.net/lib.js"></SCRIPT>'), "text/html"],
  [page('<script src="https://cdn.other.net/lib.js" integrity=""></script>'), "text/html"],
  [
    page('<script type="module" src="https://cdn.other.net/m.js" integrity="sha384-abc"></script>'),
    "text/html"
  ],
  [
    page('<!-- <script src="https://cdn.other.net/old.js"></script> --><script src="/app.js"></script>'),
    "text/html"
  ],
  [page('<script src="https://cdn.other.net/lib.js"></script>'), "application/xhtml+xml"],
  [page('<script src="https://cdn.other.net/lib.js"></script>'), "text/plain"],
  ['{"script": "<script src=\\"https://cdn.other.net/lib.js\\"></script>"}', "application/json"]
]

/** Rules where we differ on purpose, by "cookies|sri case", with the reason. */
export const EXCEPTIONS = {}

/** Our `analyse` and the page's scripts as our gather reads them; plain Node goes through tsx. */
const ours = async () => {
  const load = async (path) => {
    const url = pathToFileURL(join(repo, path)).href
    if (process.env.VITEST) return import(url)
    const { tsImport } = await import("tsx/esm/api")
    return tsImport(url, import.meta.url)
  }
  const { analyse } = await load("src/checks/headers/Headers.ts")
  const { scriptElements } = await load("src/checks/csp/CspExtract.ts")
  return (p) => {
    const html = /^(text\/html|application\/xhtml\+xml)$/.test(p.contentType)
    const gathered = {
      kind: "response",
      status: 200,
      headers: {
        "content-type": p.contentType,
        ...(p.hsts ? { "strict-transport-security": "max-age=31536000" } : {})
      },
      finalUrl: "https://example.com/",
      redirects: 0,
      tlsError: null,
      metaCsp: [],
      bodyTruncated: false,
      setCookies: p.setCookies,
      ...(html ? { scripts: scriptElements(p.html) } : {})
    }
    return analyse("example.com", gathered, new Date())
  }
}

const verdict = (r) => `${r.result} (${r.pass ? "pass" : "fail"})`

/** Compare and print (through `log`); the totals. */
export const run = async (_api, log = console.log) => {
  ensureObservatory()
  const pages = [
    ...COOKIES.map(([setCookies, hsts]) => ({
      key: `cookies ${setCookies.join(" | ") || "(none)"}${hsts ? " +HSTS" : ""}`,
      setCookies,
      hsts,
      contentType: "text/html",
      html: page("")
    })),
    ...SCRIPTS.map(([html, contentType]) => ({
      key: `sri ${contentType} ${html.replace(/^.*<body>|<\/body>.*$/g, "")}`,
      setCookies: [],
      hsts: false,
      contentType,
      html
    }))
  ]
  const theirs = JSON.parse(
    execFileSync(process.execPath, ["judge-content.mjs"], {
      cwd: OBSERVATORY,
      input: JSON.stringify(pages),
      stdio: ["pipe", "pipe", "inherit"]
    }).toString()
  )
  const analyse = await ours()
  const tally = report("observatory", EXCEPTIONS, log, (key) => key.split(" ")[0])
  pages.forEach((p, i) => {
    const field = p.key.startsWith("cookies") ? "cookies" : "sri"
    const mine = analyse(p)[field]
    const our = mine ? verdict(mine) : "no verdict"
    const their = verdict(theirs[i][field])
    tally.add(p.key, our === their, our, their)
  })
  return tally.finish()
}

if (import.meta.url === `file://${process.argv[1]}`)
  process.exit((await run(undefined)).unexplained === 0 ? 0 : 1)
