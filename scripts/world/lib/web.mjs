// nginx: one server block per web host address (HTTPS with the domain's certificate, HTTP redirecting
// to HTTPS, or HTTP only), the header sets and the generated sites.
import { execFileSync } from "node:child_process"
import { rmSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { INFRA } from "./model.mjs"
import { mkdirp, write } from "./util.mjs"

/** Header sets by scenario `web.headers`. */
export const HEADER_SETS = {
  none: {},
  basic: { "Strict-Transport-Security": "max-age=31536000", "X-Content-Type-Options": "nosniff" },
  strict: {
    "Strict-Transport-Security": "max-age=63072000; includeSubDomains; preload",
    // No scripts at all: nothing for csp_evaluator to flag ('self' in script-src is flagged).
    "Content-Security-Policy":
      "default-src 'none'; script-src 'none'; object-src 'none'; style-src 'self'; img-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; upgrade-insecure-requests",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
  },
  "csp-weak": {
    "Strict-Transport-Security": "max-age=31536000",
    "Content-Security-Policy":
      "default-src * 'unsafe-inline'; script-src 'self' 'unsafe-inline' *; style-src 'self' 'unsafe-inline' *"
  },
  // A session cookie without Secure or HttpOnly, on a site without HSTS (RFC 6265bis 4.1.2).
  "cookies-insecure": {
    "X-Content-Type-Options": "nosniff",
    "Set-Cookie": ["sessionid=a1b2c3; Path=/", "theme=dark; Path=/; SameSite=Lax"]
  },
  // Echoes any Origin with credentials: every site may read the page as the visitor (Fetch 3.2.5).
  "cors-credentials": {
    "Strict-Transport-Security": "max-age=31536000",
    "Access-Control-Allow-Origin": "$http_origin",
    "Access-Control-Allow-Credentials": "true"
  },
  // Cookies as they should be, and public CORS (any site may read, without credentials).
  "content-good": {
    "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
    "X-Content-Type-Options": "nosniff",
    "Set-Cookie": [
      "__Host-session=s3cr3t; Path=/; Secure; HttpOnly; SameSite=Lax",
      "__Secure-prefs=compact; Path=/; Secure; SameSite=Strict"
    ],
    "Access-Control-Allow-Origin": "*"
  },
  "csp-reportonly": {
    "Strict-Transport-Security": "max-age=31536000",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy-Report-Only":
      "default-src 'self'; script-src 'self'; object-src 'none'; report-uri /csp-report"
  }
}

const page = (title, body, head = "") =>
  `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${title}</title>\n${head}</head>\n<body>\n${body}\n</body>\n</html>\n`

const CSP_WEAK_PAGES = 24

/** Files of a generated site, path -> content. */
const site = (kind, domain) => {
  switch (kind) {
    case "strict":
      return {
        "/index.html": page(
          domain,
          `<h1>${domain}</h1>\n<p><a href="/about.html">About</a></p>\n<img src="/bimi/logo.svg" alt="logo" width="64">`,
          '<link rel="stylesheet" href="/style.css">\n'
        ),
        "/about.html": page(
          `About ${domain}`,
          "<p>About.</p>",
          '<link rel="stylesheet" href="/style.css">\n'
        ),
        "/style.css": "body { font-family: sans-serif; }\n"
      }
    case "csp-weak": {
      const files = {}
      const links = Array.from(
        { length: CSP_WEAK_PAGES },
        (_, i) => `<a href="/page-${i + 1}.html">Page ${i + 1}</a>`
      )
      const body = (n) =>
        [
          `<h1 style="color: red">${domain} ${n}</h1>`,
          `<button onclick="alert('${n}')">Click</button>`,
          `<div onmouseover="this.style.color='blue'">hover</div>`,
          `<script>var page = "${n}"; document.title += " " + page;</script>`,
          '<script src="https://cdn.thirdparty-cdn.net/lib/jquery.min.js"></script>',
          '<script src="https://analytics.tracker-example.io/t.js"></script>',
          `<nav>${links.join(" ")}</nav>`
        ].join("\n")
      const head =
        '<style>body { margin: 0 }</style>\n<link rel="stylesheet" href="https://fonts.thirdparty-fonts.net/css?family=Sans">\n'
      files["/index.html"] = page(domain, body("home"), head)
      for (let i = 1; i <= CSP_WEAK_PAGES; i++)
        files[`/page-${i}.html`] = page(`${domain} ${i}`, body(`page ${i}`), head)
      return files
    }
    // A script from another site without integrity next to one with it (W3C SRI).
    case "sri-missing":
      return {
        "/index.html": page(
          domain,
          `<h1>${domain}</h1>\n<script src="/app.js"></script>\n<script src="https://cdn.thirdparty-cdn.net/lib/widget.js"></script>\n<script src="https://cdn.thirdparty-cdn.net/lib/lib-1.2.3.js" integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC" crossorigin="anonymous"></script>`
        ),
        "/app.js": "void 0\n"
      }
    case "sri-good":
      return {
        "/index.html": page(
          domain,
          `<h1>${domain}</h1>\n<script src="/app.js"></script>\n<script src="https://cdn.thirdparty-cdn.net/lib/lib-1.2.3.js" integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC" crossorigin="anonymous"></script>`
        ),
        "/app.js": "void 0\n"
      }
    case "csp-meta":
      return {
        "/index.html": page(
          domain,
          `<h1>${domain}</h1>\n<script src="/app.js"></script>`,
          `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'">\n`
        ),
        "/app.js": "void 0\n"
      }
    default:
      return { "/index.html": page(domain, `<h1>${domain}</h1>\n<p>Welcome.</p>`) }
  }
}

/** Special file bodies: "@mta-sts:MODE:MX,MX", "@bimi-tiny-ps", "@bimi-bad-svg". */
export const special = (value) => {
  if (!value.startsWith("@")) return value
  const [kind, mode, mx] = value.slice(1).split(":")
  if (kind === "mta-sts") {
    const mxLines = (mx ?? "").split(",").map((m) => `mx: ${m}\r\n`)
    return `version: STSv1\r\nmode: ${mode}\r\n${mxLines.join("")}max_age: 604800\r\n`
  }
  if (kind === "bimi-tiny-ps")
    return `<?xml version="1.0" encoding="UTF-8"?>
<svg version="1.2" baseProfile="tiny-ps" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
  <title>Perfect</title>
  <rect width="100" height="100" fill="#1a73e8"/>
  <circle cx="50" cy="50" r="30" fill="#ffffff"/>
</svg>
`
  if (kind === "bimi-bad-svg")
    return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120" x="10" y="10">
  <script>alert(1)</script>
  <image href="https://images.example-cdn.net/logo.png" width="300" height="120"/>
</svg>
`
  throw new Error(`unknown special file ${value}`)
}

const DAY = 86_400_000

/**
 * The security.txt of scenario `web.securityTxt` (RFC 9116), dated from when the world is built:
 * `valid` expires in 180 days, `expired` expired 30 days ago; `html` is a valid file served as
 * text/html, `legacy` a valid file only at /security.txt, `elsewhere` a redirect to another host,
 * `signed` a valid file clearsigned with a key made now and published in the Web Key Directory of
 * its Contact address (pgp-sign.mjs).
 */
const securityTxt = (kind, domain) => {
  if (kind === undefined || kind === "elsewhere") return {}
  const expires = new Date(Date.now() + (kind === "expired" ? -30 : 180) * DAY).toISOString()
  if (kind === "signed") {
    const script = join(dirname(fileURLToPath(import.meta.url)), "pgp-sign.mjs")
    const { files } = JSON.parse(
      execFileSync(process.execPath, [script, domain, expires], { encoding: "utf8" })
    )
    return Object.fromEntries(Object.entries(files).map(([path, b64]) => [path, Buffer.from(b64, "base64")]))
  }
  const path = kind === "legacy" ? "/security.txt" : "/.well-known/security.txt"
  const body = [
    "# Where to report a vulnerability",
    `Contact: mailto:security@${domain}`,
    `Expires: ${expires}`,
    "Preferred-Languages: en, nl",
    `Canonical: https://${domain}${path}`,
    ""
  ].join("\n")
  return { [path]: body }
}

/** nginx locations for the security.txt of `kind` (media type and charset per RFC 9116 §3). */
const securityTxtLocation = (kind) =>
  kind === "html"
    ? "    location = /.well-known/security.txt { types { } default_type text/html; }"
    : kind === "elsewhere"
      ? "    location = /.well-known/security.txt { return 301 https://perfect.com/.well-known/security.txt; }"
      : "    location ~ ^/(\\.well-known/)?security\\.txt$ { charset utf-8; }"

/** Write the site of planned scenario `s` under nginx/www/<domain> (its generated pages and files). */
export const writeSite = (dir, s) => {
  const docroot = join(dir, "www", s.domain)
  const files = { ...site(s.web.site, s.domain), ...securityTxt(s.web.securityTxt, s.domain) }
  for (const [path, body] of Object.entries(s.web.files ?? {})) files[path] = special(body)
  for (const [path, body] of Object.entries(files)) write(join(docroot, path), body)
}

/**
 * The port 80 server blocks of `web.http`: `redirect` (the default: to https on the same host),
 * `none` (nothing on port 80: HTTPS only), `content` (the site over plain HTTP), `www-first` (the apex redirects straight to
 * https://www.<domain>, another host), `www-content` (the apex redirects, www serves plain HTTP).
 */
const plainServers = (s, names, body) => {
  const listen = `listen ${s.web.addr}:80;`
  const redirect = (serverNames, target) =>
    `server {\n    ${listen}\n    server_name ${serverNames};\n    return 301 ${target}$request_uri;\n}`
  const www = `www.${s.domain}`
  switch (s.web.http ?? "redirect") {
    case "none":
      return []
    case "content":
      return [`server {\n    ${listen}\n${body}\n}`]
    case "www-first":
      return [redirect(names, `https://${www}`)]
    case "www-content": {
      const others = names.split(" ").filter((n) => n !== www)
      return [
        redirect(others.join(" "), "https://$host"),
        `server {\n    ${listen}\n${body.replace(/server_name [^;]*;/, `server_name ${www};`)}\n}`
      ]
    }
    default:
      return [redirect(names, "https://$host")]
  }
}

/**
 * A site that grants cross-origin reads also answers the CORS preflight (an OPTIONS request with
 * Access-Control-Request-Method, WHATWG Fetch "CORS-preflight fetch") with its headers, as a
 * CORS-enabled server does, where nginx refuses OPTIONS on static files (405). The MDN HTTP
 * Observatory reads CORS from that answer (docs/crosscheck.md).
 */
const preflight = (set) =>
  "Access-Control-Allow-Origin" in set ? "    if ($request_method = OPTIONS) { return 204; }\n" : ""

/**
 * `web.landing` ({ path, setCookie }): the home page redirects (302) to `path`, setting cookies on
 * the way, as sites that pick a language or start a session do. Browsers store them (RFC 6265bis 5.7).
 */
const landing = (l) =>
  l
    ? `    location = / {\n${[l.setCookie ?? []]
        .flat()
        .map((c) => `        add_header Set-Cookie "${c}" always;\n`)
        .join("")}        return 302 ${l.path};\n    }\n`
    : ""

/**
 * The nginx server blocks of planned scenario `s` (`cert`: { key, cert }): HTTPS with port 80 as
 * `web.http` says, or HTTP only.
 */
export const serverBlocks = (dir, s, cert) => {
  const docroot = join(dir, "www", s.domain)
  const names = (s.web.names ?? ["@"]).map((n) => (n === "@" ? s.domain : `${n}.${s.domain}`)).join(" ")
  const set = HEADER_SETS[s.web.headers ?? "none"] ?? {}
  const headers = Object.entries(set)
    // A header given as a list is sent once per value (Set-Cookie: one cookie each).
    .flatMap(([k, v]) => [v].flat().map((one) => `    add_header ${k} "${one}" always;`))
    .join("\n")
  const body = `    server_name ${names};
    root ${docroot};
    index index.html;
${headers}
${preflight(set)}${landing(s.web.landing)}    location = /.well-known/mta-sts.txt { default_type text/plain; }
${securityTxtLocation(s.web.securityTxt)}
    location / { try_files $uri $uri/ =404; }`
  // `web.http2`: the server also negotiates h2 by ALPN (RFC 7301), for HTTPS records that claim it.
  const ssl = s.web.http2 ? "ssl http2" : "ssl"
  const listens = [`listen ${s.web.addr}:443 ${ssl};`]
  if (s.aaaa === "::1") listens.push(`listen [::1]:443 ${ssl};`)
  if (s.web.https === false) return [`server {\n    listen ${s.web.addr}:80;\n${body}\n}`]
  // `tls`: this host's own protocols and suites (its address is its own, so nginx applies them:
  // the protocol is settled before SNI could pick another server block).
  const tls = s.web.tls
    ? [
        `    ssl_protocols ${s.web.tls.protocols};`,
        `    ssl_ciphers "${s.web.tls.ciphers}";`,
        `    ssl_prefer_server_ciphers ${s.web.tls.serverOrder === false ? "off" : "on"};`,
        // `extendedMasterSecret: false`: no RFC 7627 on TLS 1.2 (OpenSSL 3.0's SSL_OP_NO_EXTENDED_MASTER_SECRET).
        ...(s.web.tls.extendedMasterSecret === false
          ? ["    ssl_conf_command Options -ExtendedMasterSecret;"]
          : [])
      ].join("\n") + "\n"
    : ""
  return [
    `server {\n    ${listens.join("\n    ")}\n    ssl_certificate ${cert.cert};\n    ssl_certificate_key ${cert.key};\n${tls}${body}\n}`,
    ...plainServers(s, names, body)
  ]
}

/** `webs`: planned scenarios with `web`, plus `certs[domain]` = { key, cert }. Returns the nginx dir. */
export const generateNginx = (root, webs, certs) => {
  const dir = join(root, "nginx")
  rmSync(join(dir, "www"), { recursive: true, force: true })
  mkdirp(join(dir, "logs"))
  mkdirp(join(dir, "tmp"))
  const servers = []
  for (const s of webs) {
    if (s.web.server === "slow" || s.web.server === "pq") continue
    writeSite(dir, s)
    servers.push(...serverBlocks(dir, s, certs[s.domain]))
  }
  // Workers run as root too: the checkout (and so the docroot) may sit under a private home directory.
  const conf = `user root;
worker_processes 1;
# A batch at 1,000 in flight keeps more than 1,024 connections here at once (handshakes of the TLS
# scans wait to be read as closed); with too few, nginx drops connections mid-handshake.
worker_rlimit_nofile 16384;
pid ${dir}/nginx.pid;
error_log ${dir}/logs/error.log warn;
events { worker_connections 8192; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    server_tokens off;
    # Nothing here resolves at run time; if a directive ever does, it asks the world (docs/world.md).
    resolver ${INFRA.unbound} ipv6=off;
    server_names_hash_bucket_size 128;
    server_names_hash_max_size 16384;
    client_body_temp_path ${dir}/tmp/body;
    proxy_temp_path ${dir}/tmp/proxy;
    fastcgi_temp_path ${dir}/tmp/fastcgi;
    uwsgi_temp_path ${dir}/tmp/uwsgi;
    scgi_temp_path ${dir}/tmp/scgi;
    ssl_protocols TLSv1.2 TLSv1.3;
${servers.join("\n").replace(/^/gm, "    ")}
}
`
  write(join(dir, "nginx.conf"), conf)
  return dir
}

/** Where a counting MX serves its session counts, on its own address (docs/world.md). */
export const COUNTING_STATUS_PORT = 8025

/**
 * The node servers of slow.mjs: MX hosts whose banner never comes, HTTPS hosts whose response
 * headers come after a minute. `mxHosts` carry `server`, `webs` are planned scenarios.
 */
export const slowServers = (mxHosts, webs, certs) => [
  ...mxHosts.filter((h) => h.server === "slow").map((h) => ({ kind: "smtp", host: h.addr, port: 25 })),
  ...mxHosts
    .filter((h) => h.server === "counting" || h.server === "counting-silent")
    .map((h) => ({
      kind: "counting-smtp",
      host: h.addr,
      port: 25,
      statusPort: COUNTING_STATUS_PORT,
      name: h.host,
      silent: h.server === "counting-silent",
      key: h.key,
      cert: h.cert
    })),
  ...webs
    .filter((s) => s.web?.server === "slow")
    .map((s) => ({
      kind: "https",
      host: s.web.addr,
      port: 443,
      key: certs[s.domain].key,
      cert: certs[s.domain].cert,
      delayMs: 60_000
    }))
]
