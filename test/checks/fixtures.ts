/** Probe fixtures for the pure analysers: real certificates (openssl), hand-built sessions. */
import { X509Certificate } from "node:crypto"
import { certificateFacts, type CertificateFacts } from "../../src/net/Certificate.ts"
import { SmtpFailure, type SmtpProbe, type TlsFacts } from "../../src/net/Smtp.ts"
import { makePki, type PkiOptions, type TestPki } from "../net/pki.ts"

export const factsOf = (pem: string): CertificateFacts => certificateFacts(new X509Certificate(pem).raw)

export interface Chain {
  readonly pki: TestPki
  readonly leaf: CertificateFacts
  readonly ca: CertificateFacts
}

/** Certificate.test.ts asserts this issuer name, so the CA keeps it. */
const chainCaSubject = "/CN=Test Mail CA/O=domain-audit tests"

export const makeChain = (names: PkiOptions["names"], days = 90): Chain => {
  const pki = makePki({ names, days, caSubject: chainCaSubject })
  return { pki, leaf: factsOf(pki.leafPem), ca: factsOf(pki.caPem) }
}

export const tlsFacts = (chain: ReadonlyArray<CertificateFacts>, over: Partial<TlsFacts> = {}): TlsFacts => ({
  protocol: "TLSv1.3",
  cipher: "TLS_AES_256_GCM_SHA384",
  chain,
  trusted: true,
  trustError: null,
  hostnameMatch: true,
  hostnameError: null,
  daysUntilExpiry: 80,
  extensions: ["PIPELINING", "8BITMIME"],
  ...over
})

export const probe = (over: Partial<SmtpProbe> = {}): SmtpProbe => ({
  host: "mx.example.com",
  address: "192.0.2.25",
  family: 4,
  port: 25,
  checkedAt: "2026-11-22T00:00:00.000Z",
  elapsedMs: 42,
  status: "complete",
  failure: null,
  banner: "mx.example.com ESMTP",
  bannerCode: 220,
  ehloCode: 250,
  extensions: ["PIPELINING", "STARTTLS", "8BITMIME"],
  starttlsOffered: true,
  starttlsCode: 220,
  tls: null,
  ...over
})

export const stalled = (stage: SmtpFailure["stage"], over: Partial<SmtpProbe> = {}): SmtpProbe =>
  probe({
    status: "unknown",
    failure: new SmtpFailure({ stage, reason: "timeout", message: `no progress within 100 ms at ${stage}` }),
    banner: null,
    bannerCode: null,
    ehloCode: null,
    extensions: [],
    starttlsOffered: false,
    starttlsCode: null,
    ...over
  })
