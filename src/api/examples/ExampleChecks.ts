/**
 * The example domain's check results (ExampleZone.ts), each from its check's own code: the
 * DNS-only checks gather over the in-memory zone and analyse; the checks that need a web server or
 * a mail server analyse what such a server would have answered (a response's headers, an SMTP
 * session with STARTTLS). The scan they make up is the material of most other examples.
 */
import { analyseBimi } from "../../checks/bimi/Bimi.ts"
import { analyse as analyseBlocklist } from "../../checks/blocklist/Blocklist.ts"
import { analyseDkim, gatherDkim } from "../../checks/dkim/Dkim.ts"
import { analyseDmarc } from "../../checks/dmarc/Dmarc.ts"
import { gatherDmarc } from "../../checks/dmarc/DmarcGather.ts"
import { analyse as analyseLookup, DEFAULT_TYPES } from "../../checks/dns/Lookup.ts"
import { analyse as analyseDnssec, type Gathered } from "../../checks/dnssec/Dnssec.ts"
import { analyse as analyseFcrdns } from "../../checks/fcrdns/Fcrdns.ts"
import { analyse as analyseHeaders } from "../../checks/headers/Headers.ts"
import { analyseMtaSts } from "../../checks/mta-sts/MtaSts.ts"
import { exampleNameServers } from "../../checks/nameservers/Example.ts"
import { judge } from "../../checks/sender/SenderRequirements.ts"
import { analyse as analyseSmtpTls } from "../../checks/smtp-tls/SmtpTls.ts"
import { analyse as analyseSpf } from "../../checks/spf/Spf.ts"
import { gather as gatherSpfGraph } from "../../checks/spf/SpfGraph.ts"
import { analyse as analyseTlsa } from "../../checks/tlsa/Tlsa.ts"
import { analyse as analyseRegistration } from "../../checks/registration/Registration.ts"
import { cnameProbeOf, dependenciesOf, probedNames } from "../../checks/registration/Dependencies.ts"
import { analyse as analyseTakeover } from "../../checks/takeover/Takeover.ts"
import { analyse as analyseHttpsRecord } from "../../checks/https-record/HttpsRecord.ts"
import { encodeSvcb } from "../../records/SvcbRecord.ts"
import type { RecordType } from "../../net/DnsTypes.ts"
import type { SmtpProbe } from "../../net/Smtp.ts"
import { once } from "../../kernel/examples/Once.ts"
import { exampleMxTlsScan, exampleWebTls } from "../../kernel/examples/ExampleTlsScans.ts"
import { exampleRedirect, exampleSecurityTxt } from "../../checks/http-redirect/Example.ts"
import {
  ask,
  dns,
  DOMAIN,
  mtaStsPolicy,
  MX_HOST,
  MX_V4,
  MX_V6,
  mxCertificate,
  NOW,
  NOW_ISO,
  runAtNow,
  SITE_CSP
} from "../../kernel/examples/ExampleZone.ts"

const answered = (name: string, type: RecordType): Gathered => {
  const result = ask(name, type)
  return result._tag === "Right"
    ? { _tag: "Answer", answer: result.right, bogus: false }
    : { _tag: "Failed", error: result.left }
}

const policyUrl = `https://mta-sts.${DOMAIN}/.well-known/mta-sts.txt`

/** The MTA-STS verdict with the policy served in `mode` (RFC 8461 5). */
export const mtaStsIn = (mode: "testing" | "enforce") =>
  analyseMtaSts({
    domain: DOMAIN,
    txt: { name: `_mta-sts.${DOMAIN}`, records: ["v=STSv1; id=20261124T000000"] },
    policy: {
      url: policyUrl,
      status: 200,
      contentType: "text/plain",
      body: new TextEncoder().encode(mtaStsPolicy(mode)),
      finalUrl: policyUrl,
      redirects: 0,
      tlsAuthorized: true,
      tlsError: null
    },
    mx: { hosts: [MX_HOST], nullMx: false, implicit: false },
    tlsRpt: { name: `_smtp._tls.${DOMAIN}`, records: ["v=TLSRPTv1; rua=mailto:tls-reports@example.com"] }
  })

/** Every check's result for the example domain, computed on first use (the OpenAPI document's). */
export const exampleChecks = once(() => {
  const lookup = analyseLookup(
    {
      domain: DOMAIN,
      results: DEFAULT_TYPES.map((type) => ({ type, result: ask(DOMAIN, type) })),
      responseTime: 18
    },
    NOW
  )

  const dnssec = analyseDnssec(
    {
      domain: DOMAIN,
      zone: DOMAIN,
      dnskey: answered(DOMAIN, "DNSKEY"),
      ds: answered(DOMAIN, "DS"),
      soa: answered(DOMAIN, "SOA"),
      nsec3param: answered(DOMAIN, "NSEC3PARAM"),
      resolverValidates: true
    },
    NOW
  )

  const spf = analyseSpf(DOMAIN, runAtNow(gatherSpfGraph(dns(), DOMAIN)))

  const dmarc = analyseDmarc(runAtNow(gatherDmarc(dns(), DOMAIN)))

  const dkim = analyseDkim(runAtNow(gatherDkim(dns(), DOMAIN)))

  /** No BIMI record: the logo is optional (and needs a mark certificate to show in most inboxes). */
  const bimi = analyseBimi(
    {
      domain: DOMAIN,
      organisationalDomain: DOMAIN,
      direct: { name: `default._bimi.${DOMAIN}`, records: [] },
      organisational: null,
      logo: null,
      authority: null,
      dmarc
    },
    NOW
  )

  const mtaSts = mtaStsIn("testing")

  /** One SMTP session with STARTTLS, as a sending MTA sees a well-run server (RFC 3207). */
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
  const probes = [probe(MX_V4, 4), probe(MX_V6, 6)]

  const addressInput = (ip: string) => ({
    hostname: MX_HOST,
    ip,
    ptr: { outcome: "answer" as const, value: [MX_HOST] },
    forward: { [MX_HOST]: { outcome: "answer" as const, value: [ip] } }
  })
  const fcrdns = analyseFcrdns(
    { domain: DOMAIN, mxStatus: "answer", addresses: [addressInput(MX_V4), addressInput(MX_V6)] },
    NOW
  )

  const smtpTls = analyseSmtpTls(
    {
      domain: DOMAIN,
      mxStatus: "answer",
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
    },
    NOW
  )

  const tlsa = analyseTlsa({
    domain: DOMAIN,
    mxError: null,
    hosts: [{ host: MX_HOST, priority: 10, lookup: answered(`_25._tcp.${MX_HOST}`, "TLSA"), probes }]
  })

  const BLOCKLISTS = [
    { zone: "zen.spamhaus.org", name: "Spamhaus ZEN", severity: "high" },
    { zone: "bl.spamcop.net", name: "SpamCop", severity: "medium" }
  ] as const
  const blocklist = analyseBlocklist(
    {
      domain: DOMAIN,
      zones: BLOCKLISTS,
      mxStatus: "answer",
      servers: [MX_V4, MX_V6].map((ip) => ({
        hostname: MX_HOST,
        ip,
        answers: BLOCKLISTS.map((zone) => ({ zone, answer: { outcome: "none" as const } }))
      }))
    },
    NOW
  )

  const senderRequirements = judge({ domain: DOMAIN, spf, dkim, dmarc, fcrdns, tls: smtpTls })

  /** The home page's response: strong headers, but no Permissions-Policy. */
  const headers = analyseHeaders(
    DOMAIN,
    {
      kind: "response",
      status: 200,
      headers: {
        "strict-transport-security": "max-age=63072000; includeSubDomains; preload",
        "content-security-policy": SITE_CSP,
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "strict-origin-when-cross-origin",
        "content-type": "text/html; charset=utf-8"
      },
      finalUrl: `https://www.${DOMAIN}/`,
      redirects: 1,
      tlsError: null,
      metaCsp: [],
      bodyTruncated: false,
      certificateExpiresAt: "2027-02-20T12:00:00.000Z",
      setCookies: ["__Host-session=3f9a; Path=/; Secure; HttpOnly; SameSite=Lax"],
      scripts: [{ src: "/app.js", integrity: null, crossorigin: null }],
      corsHeaders: {}
    },
    NOW
  )

  /** An HTTPS record (RFC 9460) that matches the server: h2 and http/1.1 negotiated, hint = A. */
  const httpsRecord = analyseHttpsRecord(
    {
      domain: DOMAIN,
      chain: [DOMAIN],
      records: {
        outcome: "answer",
        value: [
          {
            owner: DOMAIN,
            rdata: encodeSvcb({
              priority: 1,
              target: ".",
              mandatory: [],
              alpn: ["h2", "http/1.1"],
              noDefaultAlpn: false,
              port: null,
              ipv4hint: ["93.184.215.14"],
              ipv6hint: [],
              ech: null,
              other: []
            }),
            addresses: { outcome: "answer", value: { v4: ["93.184.215.14"], v6: [] } },
            alpn: {
              outcome: "answer",
              value: ["h2", "http/1.1"].map((p) => ({
                address: "93.184.215.14",
                offered: p,
                selected: true,
                refusal: null
              }))
            }
          }
        ]
      }
    },
    NOW
  )
  /**
   * What the records name, each registrable domain registered for another year (RDAP); `listed`:
   * the names an owner lists (`names=`), probed as www is.
   */
  const dependencyChecks = (listed: ReadonlyArray<string>) => {
    const cnames = probedNames(DOMAIN, bimi, listed).map((name) => cnameProbeOf(name, ask(name, "A")))
    const nsAnswer = ask(DOMAIN, "NS")
    const dependencies = dependenciesOf({
      domain: DOMAIN,
      ns: nsAnswer._tag === "Right" ? nsAnswer.right.answers.map((r) => String(r.data)) : [],
      mx: [MX_HOST],
      spf,
      dmarc,
      mtaSts,
      bimi,
      cnames,
      listed
    })
    const registered = (domain: string, days: number) => ({
      outcome: "registered" as const,
      url: `https://rdap.example/domain/${domain}`,
      expires: new Date(NOW.getTime() + days * 86_400_000).toISOString(),
      registered: "2001-05-14T00:00:00.000Z",
      statuses: ["client transfer prohibited"]
    })
    const registration = analyseRegistration(
      {
        domain: DOMAIN,
        registrable: DOMAIN,
        own: registered(DOMAIN, 254),
        dependencies: dependencies.map((dependency) => ({
          dependency,
          answer: registered(dependency.domain, 400)
        }))
      },
      NOW
    )
    const takeover = analyseTakeover(
      {
        domain: DOMAIN,
        cnames,
        listed,
        pages: [],
        rdapConfigured: true,
        dependencies: dependencies.map((dependency) => ({
          dependency,
          rdap: "registered" as const,
          dns: "exists" as const
        }))
      },
      NOW
    )
    return { registration, takeover }
  }
  return {
    ...dependencyChecks([]),
    /** The same with status.example.com listed: an alias of a hosted status page. */
    listed: dependencyChecks([`status.${DOMAIN}`]),
    lookup,
    nameServers: exampleNameServers(),
    dnssec,
    spf,
    dmarc,
    dkim,
    bimi,
    mtaSts,
    fcrdns,
    smtpTls,
    tlsa,
    blocklist,
    senderRequirements,
    headers,
    webTls: exampleWebTls(),
    httpRedirect: exampleRedirect(),
    securityTxt: exampleSecurityTxt(),
    httpsRecord
  }
})

export type ExampleChecks = ReturnType<typeof exampleChecks>
