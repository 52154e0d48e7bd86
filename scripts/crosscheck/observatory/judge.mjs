/**
 * The MDN HTTP Observatory's own header tests on given responses, without the network: reads a
 * JSON array of header sets (lower-case name -> value) on stdin, builds for each the request
 * record the Observatory's scanner would have (one verified HTTPS response, as its test suite's
 * `emptyRequests` does) and prints, per set, test name -> { result, pass }. Used by
 * ../header-values.mjs.
 */
import { readFileSync } from "node:fs"
import { AxiosHeaders } from "axios"
import { contentSecurityPolicyTest } from "@mdn/mdn-http-observatory/src/analyzer/tests/csp.js"
import { referrerPolicyTest } from "@mdn/mdn-http-observatory/src/analyzer/tests/referrer-policy.js"
import { strictTransportSecurityTest } from "@mdn/mdn-http-observatory/src/analyzer/tests/strict-transport-security.js"
import { xContentTypeOptionsTest } from "@mdn/mdn-http-observatory/src/analyzer/tests/x-content-type-options.js"
import { xFrameOptionsTest } from "@mdn/mdn-http-observatory/src/analyzer/tests/x-frame-options.js"
import { Session } from "@mdn/mdn-http-observatory/src/retriever/session.js"
import { Requests } from "@mdn/mdn-http-observatory/src/types.js"

const TESTS = {
  "strict-transport-security": strictTransportSecurityTest,
  "content-security-policy": contentSecurityPolicyTest,
  "x-frame-options": xFrameOptionsTest,
  "x-content-type-options": xContentTypeOptionsTest,
  "referrer-policy": referrerPolicyTest
}

const requests = (headers) => {
  const req = new Requests("world.test")
  const response = () => ({
    headers: new AxiosHeaders({ "content-type": "text/html", ...headers }),
    request: { headers: new AxiosHeaders() },
    status: 200,
    statusText: "OK",
    verified: true,
    data: "",
    config: { headers: new AxiosHeaders() },
    httpEquiv: new Map()
  })
  req.responses.auto = response()
  req.responses.https = response()
  req.responses.http = response()
  req.responses.cors = response()
  req.session = new Session(new URL("https://world.test/"))
  return req
}

const sets = JSON.parse(readFileSync(0, "utf8"))
console.log(
  JSON.stringify(
    sets.map((headers) =>
      Object.fromEntries(
        Object.entries(TESTS).map(([name, test]) => {
          const out = test(requests(headers))
          return [name, { result: out.result, pass: out.pass }]
        })
      )
    )
  )
)
