/** Cookies, Subresource Integrity and CORS judged as the MDN HTTP Observatory judges them. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { scriptElements } from "../../../src/checks/csp/CspExtract.ts"
import { judgeCookies, judgeCors, judgeSri, PROBE_ORIGIN } from "../../../src/checks/headers/WebContent.ts"

describe("judgeCookies", () => {
  it.each([
    [[], false, "cookies-not-found", true],
    [
      ["a=1; Secure; SameSite=Lax", "sessionid=2; Secure; HttpOnly; SameSite=Strict"],
      false,
      "cookies-secure-with-httponly-sessions-and-samesite",
      true
    ],
    [["a=1; Secure"], false, "cookies-secure-with-httponly-sessions", true],
    [["a=1"], true, "cookies-without-secure-flag-but-protected-by-hsts", false],
    [["a=1"], false, "cookies-without-secure-flag", false],
    [["SESSID=1; HttpOnly"], true, "cookies-session-without-secure-flag-but-protected-by-hsts", false],
    [["SESSID=1; HttpOnly"], false, "cookies-session-without-secure-flag", false],
    [["login=1; Secure"], false, "cookies-session-without-httponly-flag", false],
    [["csrftoken=1; Secure"], false, "cookies-anticsrf-without-samesite-flag", false],
    [["a=1; Secure; SameSite=Sometimes"], false, "cookies-samesite-flag-invalid", false],
    [["a=1; SameSite=None"], true, "cookies-samesite-flag-invalid", false],
    // The worst wins: a session cookie without Secure outranks a plain one.
    [["a=1", "sess=2; HttpOnly"], false, "cookies-session-without-secure-flag", false]
  ] as const)("%j (hsts %s) is %s", (headers, hsts, result, pass) => {
    const judged = judgeCookies(headers, "example.com", hsts)
    expect(judged.result).toBe(result)
    expect(judged.pass).toBe(pass)
  })

  it("a cookie browsers reject (prefix, foreign Domain) is listed but not judged", () => {
    const judged = judgeCookies(["__Host-s=1; Path=/", "b=2; Domain=other.org"], "example.com", false)
    expect(judged.result).toBe("cookies-not-found")
    expect(judged.cookies.map((c) => c.accepted)).toEqual([false, false])
    expect(judged.cookies[0]!.issues[0]).toContain("__Host-")
  })

  it("judges only the cookie a later Set-Cookie of the same name does not replace, as browsers store it", () => {
    const judged = judgeCookies(
      ["sessionid=1", "sessionid=2; Secure; HttpOnly; SameSite=Lax"],
      "example.com",
      false
    )
    expect(judged.result).toBe("cookies-secure-with-httponly-sessions-and-samesite")
    expect(judged.cookies.map((c) => c.accepted)).toEqual([false, true])
    expect(judged.cookies[0]!.issues).toEqual([expect.stringContaining("replaces it")])
    // the other way round the insecure one is what stays
    expect(judgeCookies(["sessionid=2; Secure; HttpOnly", "sessionid=1"], "example.com", false).result).toBe(
      "cookies-session-without-secure-flag"
    )
  })

  it("is total", () => {
    fc.assert(
      fc.property(fc.array(fc.string()), fc.domain(), fc.boolean(), (headers, host, hsts) => {
        judgeCookies(headers, host, hsts)
      })
    )
  })
})

describe("judgeSri", () => {
  const sri = (html: string, pageHttps = true) =>
    judgeSri({
      html: true,
      scripts: scriptElements(html),
      host: "www.example.com",
      pageHttps,
      bodyTruncated: false
    })
  it.each([
    ["<p>no scripts</p>", "sri-not-implemented-but-no-scripts-loaded", true],
    [
      '<script src="/app.js"></script><script>inline()</script>',
      "sri-not-implemented-but-all-scripts-loaded-from-secure-origin",
      true
    ],
    [
      '<script src="https://static.example.com/a.js"></script>',
      "sri-not-implemented-but-all-scripts-loaded-from-secure-origin",
      true
    ],
    [
      '<script src="/app.js" integrity="sha384-x"></script>',
      "sri-implemented-and-all-scripts-loaded-securely",
      true
    ],
    [
      '<script src="https://cdn.other.net/a.js" integrity="sha384-x" crossorigin="anonymous"></script>',
      "sri-implemented-and-external-scripts-loaded-securely",
      true
    ],
    [
      '<script src="https://cdn.other.net/a.js"></script>',
      "sri-not-implemented-but-external-scripts-loaded-securely",
      false
    ],
    [
      '<script src="http://cdn.other.net/a.js"></script>',
      "sri-not-implemented-and-external-scripts-not-loaded-securely",
      false
    ],
    [
      '<script src="http://cdn.other.net/a.js" integrity="sha384-x"></script>',
      "sri-implemented-but-external-scripts-not-loaded-securely",
      false
    ],
    // Protocol-relative is counted as another origin and not secure, as the Observatory reads it.
    [
      '<script src="//cdn.example.com/a.js"></script>',
      "sri-not-implemented-and-external-scripts-not-loaded-securely",
      false
    ]
  ])("%s is %s", (html, result, pass) => {
    const judged = sri(html)
    expect(judged.result).toBe(result)
    expect(judged.pass).toBe(pass)
  })

  it("a response that is not HTML passes", () =>
    expect(
      judgeSri({ html: false, scripts: [], host: "a.com", pageHttps: true, bodyTruncated: false }).result
    ).toBe("sri-not-implemented-response-not-html"))

  it("is total", () => {
    fc.assert(
      fc.property(fc.string(), fc.domain(), (html, host) => {
        judgeSri({ html: true, scripts: scriptElements(html), host, pageHttps: true, bodyTruncated: false })
      })
    )
  })
})

describe("judgeCors", () => {
  it.each([
    [{}, "cross-origin-resource-sharing-not-implemented", true],
    [
      { "access-control-allow-origin": "*" },
      "cross-origin-resource-sharing-implemented-with-public-access",
      true
    ],
    [
      { "access-control-allow-origin": "https://partner.example" },
      "cross-origin-resource-sharing-implemented-with-restricted-access",
      true
    ],
    [
      { "access-control-allow-origin": PROBE_ORIGIN },
      "cross-origin-resource-sharing-implemented-with-restricted-access",
      true
    ],
    [
      { "access-control-allow-origin": PROBE_ORIGIN, "access-control-allow-credentials": "true" },
      "cross-origin-resource-sharing-implemented-with-universal-access",
      false
    ]
  ])("%j is %s", (headers, result, pass) => {
    const judged = judgeCors(headers)
    expect(judged.result).toBe(result)
    expect(judged.pass).toBe(pass)
  })

  it("* with credentials is public access, and the credentials header is called out", () => {
    const judged = judgeCors({
      "access-control-allow-origin": "*",
      "access-control-allow-credentials": "true"
    })
    expect(judged.pass).toBe(true)
    expect(judged.issues[0]).toContain("refuse")
  })
})
