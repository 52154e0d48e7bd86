/**
 * The example domain's TLS servers as a scan finds them (net/TlsScan.ts): example.com and
 * www.example.com over HTTPS, and its MX through STARTTLS, configured as a modern server is (TLS
 * 1.2 and 1.3, ECDHE suites in the server's order, X25519). Shared here, below the checks: the
 * web-tls check's example scans the site, the smtp-tls check's (earlier in the registry) the MX.
 */
import type { AcceptedSuite, TlsScanResult } from "../../net/TlsScan.ts"
import { DOMAIN, mxCertificate, NOW } from "./ExampleZone.ts"

export const WEB_V4 = "192.0.2.80"
export const WEB_V6 = "2001:db8::80"

const X25519 = { type: "ECDH", name: "X25519", size: 253 } as const

const suites: ReadonlyArray<AcceptedSuite> = [
  ["TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLSv1.2"],
  ["TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "TLSv1.2"],
  ["TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLSv1.2"],
  ["TLS_AES_256_GCM_SHA384", "TLSv1.3"],
  ["TLS_CHACHA20_POLY1305_SHA256", "TLSv1.3"],
  ["TLS_AES_128_GCM_SHA256", "TLSv1.3"]
].map(([cipher, version]) => ({ cipher: cipher!, version: version!, keyExchange: X25519 }))

/** The site's certificate: the example's P-256 key, made out for the apex and www. */
const certificate = () => ({
  ...mxCertificate(),
  subject: `CN=${DOMAIN}`,
  commonName: DOMAIN,
  subjectAltNames: [DOMAIN, `www.${DOMAIN}`]
})

/** The TLS scan of the web site at `host` and `address`. */
export const exampleTlsScan = (host: string, address: string): TlsScanResult => ({
  host,
  address,
  family: address.includes(":") ? 6 : 4,
  port: 443,
  checkedAt: NOW.toISOString(),
  elapsedMs: 212,
  handshakes: 14,
  status: "complete",
  failure: null,
  versions: { TLSv1: "refused", "TLSv1.1": "refused", "TLSv1.2": "accepted", "TLSv1.3": "accepted" },
  suites,
  serverOrder: true,
  suitesComplete: true,
  negotiated: { protocol: "TLSv1.3", cipher: "TLS_AES_256_GCM_SHA384" },
  certificate: {
    chain: [certificate()],
    trusted: true,
    trustError: null,
    hostnameMatch: true,
    hostnameError: null,
    signatureAlgorithm: "ecdsa-with-SHA256",
    ocspResponder: false
  },
  ocspStapled: false,
  extendedMasterSecret: true
})

/**
 * The example MX's TLS scan through STARTTLS (net/SmtpTlsScan.ts): the same server settings, the
 * suites sampled (the server's first three choices, no weak suite accepted, TLS 1.3's three).
 */
export const exampleMxTlsScan = (host: string, address: string): TlsScanResult => {
  const web = exampleTlsScan(host, address)
  return {
    ...web,
    port: 25,
    elapsedMs: 96,
    handshakes: 12,
    suitesComplete: false,
    certificate: { ...web.certificate!, chain: [mxCertificate()] }
  }
}
