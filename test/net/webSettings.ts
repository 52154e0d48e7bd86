/** The web client's settings for the net tests, shared by Web.test.ts and WebTlsScan.test.ts. */
import * as tls from "node:tls"
import type { WebSettings } from "../../src/net/WebTypes.ts"
import { parseAllowList } from "../../src/records/IpAddress.ts"

/** Small limits, short timeouts, `allow` as the address policy and the test PKI's CA trusted; `extra` on top. */
export const testWebSettings = (
  caPem: string,
  allow: ReadonlyArray<string>,
  extra: Partial<WebSettings> = {}
): WebSettings => {
  const parsed = parseAllowList(allow)
  if (!parsed.ok) throw new Error(parsed.bad)
  return {
    allow: parsed.cidrs,
    ca: [...tls.rootCertificates, caPem],
    connectTimeoutMs: 2_000,
    timeoutMs: 3_000,
    maxBodyBytes: 4_096,
    maxHeaderBytes: 8_192,
    userAgent: "test",
    allowedPort: () => true,
    ...extra
  }
}
