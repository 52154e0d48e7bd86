/**
 * The MDN HTTP Observatory's cookies and Subresource Integrity tests on given pages, without the
 * network: reads a JSON array of pages ({ setCookies, hsts, contentType, html }) on stdin, builds
 * for each the request record its scanner would have after reading https://example.com/ (the
 * Set-Cookie headers stored in its cookie jar as its HTTP agent stores them, the page's text as
 * its base resource) and prints, per page, { cookies, sri } -> { result, pass }. Used by
 * ../content-values.mjs.
 */
import { readFileSync } from "node:fs"
import { AxiosHeaders } from "axios"
import { cookiesTest } from "@mdn/mdn-http-observatory/src/analyzer/tests/cookies.js"
import { subresourceIntegrityTest } from "@mdn/mdn-http-observatory/src/analyzer/tests/subresource-integrity.js"
import { Session } from "@mdn/mdn-http-observatory/src/retriever/session.js"
import { Requests } from "@mdn/mdn-http-observatory/src/types.js"

export const PAGE_URL = "https://example.com/"

const requests = ({ setCookies, hsts, contentType, html }) => {
  const req = new Requests("example.com")
  const headers = new AxiosHeaders({ "content-type": contentType })
  if (hsts) headers.set("strict-transport-security", "max-age=31536000")
  if (setCookies.length > 0) headers.set("set-cookie", setCookies)
  const response = () => ({
    headers,
    request: { headers: new AxiosHeaders() },
    status: 200,
    statusText: "OK",
    verified: true,
    data: html,
    config: { headers: new AxiosHeaders() },
    httpEquiv: new Map()
  })
  req.responses.auto = response()
  req.responses.https = response()
  req.responses.http = response()
  req.session = new Session(new URL(PAGE_URL))
  // What http-cookie-agent does with each Set-Cookie of a response (utils/save_cookies_from_header.js).
  for (const cookie of setCookies) req.session.jar.setCookieSync(cookie, PAGE_URL, { ignoreError: true })
  req.resources.path = html
  return req
}

const pages = JSON.parse(readFileSync(0, "utf8"))
console.log(
  JSON.stringify(
    pages.map((page) => {
      const r = requests(page)
      const cookies = cookiesTest(r)
      const sri = subresourceIntegrityTest(r)
      return {
        cookies: { result: cookies.result, pass: cookies.pass },
        sri: { result: sri.result, pass: sri.pass }
      }
    })
  )
)
