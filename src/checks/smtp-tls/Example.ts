/**
 * What the SMTP TLS check gathers for the example domain: one SMTP session with STARTTLS to each
 * of its MX's addresses, as a sending MTA sees a well-run server (RFC 3207), and the TLS scan of
 * each (kernel/examples/ExampleTlsScans.ts). The DANE check verifies the same sessions.
 */
import type { SmtpProbe } from "../../net/Smtp.ts"
import { exampleMxTlsScan } from "../../kernel/examples/ExampleTlsScans.ts"
import {
  DOMAIN,
  MX_HOST,
  MX_V4,
  MX_V6,
  mxCertificate,
  NOW,
  NOW_ISO
} from "../../kernel/examples/ExampleZone.ts"
import type { SmtpTlsInput } from "./SmtpTlsGather.ts"

const probe = (address: string, family: 4 | 6): SmtpProbe => ({
  host: MX_HOST,
  address,
  family,
  port: 25,
  checkedAt: NOW_ISO,
  elapsedMs: 142,
  status: "complete",
  failure: null,
  banner: `220 ${MX_HOST} ESMTP Postfix`,
  bannerCode: 220,
  ehloCode: 250,
  extensions: ["PIPELINING", "SIZE 52428800", "STARTTLS", "ENHANCEDSTATUSCODES", "8BITMIME", "SMTPUTF8"],
  starttlsOffered: true,
  starttlsCode: 220,
  tls: {
    protocol: "TLSv1.3",
    cipher: "TLS_AES_256_GCM_SHA384",
    chain: [mxCertificate()],
    trusted: true,
    trustError: null,
    hostnameMatch: true,
    hostnameError: null,
    daysUntilExpiry: Math.floor((Date.parse(mxCertificate().validTo) - NOW.getTime()) / 86_400_000),
    extensions: ["PIPELINING", "SIZE 52428800", "ENHANCEDSTATUSCODES", "8BITMIME", "SMTPUTF8"]
  }
})

/** The sessions with the MX over IPv4 and IPv6. */
export const exampleProbes = (): ReadonlyArray<SmtpProbe> => [probe(MX_V4, 4), probe(MX_V6, 6)]

export const exampleGathered = (): SmtpTlsInput => {
  const probes = exampleProbes()
  return {
    domain: DOMAIN,
    mxStatus: "answer" as const,
    mxRecords: [{ priority: 10, host: MX_HOST }],
    unresolved: [],
    probes,
    tlsScans: Object.fromEntries(
      probes.map((p) => [`${p.host}|${p.address}`, exampleMxTlsScan(p.host, p.address)])
    ),
    fcrdns: {
      [MX_V4]: { ptr: [MX_HOST], confirmed: true },
      [MX_V6]: { ptr: [MX_HOST], confirmed: true }
    }
  }
}
