/**
 * Examples of the dns and email groups: the checks' results for the example domain (each check's
 * own `example()`, from its folder's Example.ts), the propagation check over three resolvers'
 * answers, the email check's combined score and the record generators.
 */
import { Either } from "effect"
import { analyseMx, mxSet } from "../../checks/email/EmailMx.ts"
import { analyse as analyseLookup } from "../../checks/dns/Lookup.ts"
import { analyse as analysePropagation } from "../../checks/dns/Propagation.ts"
import { NO_DOMAIN, notPreviewed } from "../../composite/ProposalPreview.ts"
import { generateDmarc } from "../../generate/DmarcGenerator.ts"
import type { GenerateError } from "../../records/GenerateError.ts"
import { generate as generateSpf } from "../../generate/SpfGenerator.ts"
import { generate as generateTlsa } from "../../generate/TlsaGenerator.ts"
import { emailCategory } from "../../score/Score.ts"
import { BASE, type Example, inGroup } from "./Example.ts"
import { dependencyMap } from "../../report/DependencyMap.ts"
import { Bimi } from "../../checks/bimi/Bimi.ts"
import { Blocklist } from "../../checks/blocklist/Blocklist.ts"
import { Dkim } from "../../checks/dkim/Dkim.ts"
import { Dmarc } from "../../checks/dmarc/Dmarc.ts"
import { Dnssec } from "../../checks/dnssec/Dnssec.ts"
import { Fcrdns } from "../../checks/fcrdns/Fcrdns.ts"
import { MtaSts } from "../../checks/mta-sts/MtaSts.ts"
import { gatheredListing as registrationListing } from "../../checks/registration/Example.ts"
import { Registration } from "../../checks/registration/Registration.ts"
import { SenderRequirements } from "../../checks/sender/SenderRequirements.ts"
import { SmtpTls } from "../../checks/smtp-tls/SmtpTls.ts"
import { Spf } from "../../checks/spf/Spf.ts"
import { gatheredListing as takeoverListing } from "../../checks/takeover/Example.ts"
import { Takeover } from "../../checks/takeover/Takeover.ts"
import { Tlsa } from "../../checks/tlsa/Tlsa.ts"
import { exampleScans } from "./ExampleScan.ts"
import {
  ask,
  dns,
  DOMAIN,
  MX_HOST,
  MX_PUBLIC_KEY_PEM,
  NOW,
  runAtNow
} from "../../kernel/examples/ExampleZone.ts"

const RESOLVERS = [
  { address: "1.1.1.1", port: 53, name: "Cloudflare", location: "San Francisco", country: "US" },
  { address: "8.8.8.8", port: 53, name: "Google Public DNS", location: "Mountain View", country: "US" },
  { address: "9.9.9.9", port: 53, name: "Quad9", location: "Zurich", country: "CH" }
]

/** The types a caller asks with `types=`: every one of them has records in the signed zone. */
const LOOKED_UP = ["A", "AAAA", "MX", "TXT", "NS", "SOA", "CAA"] as const

const done = <A>(result: A) => ({ status: "done" as const, reason: null, result })

const emailScore = () =>
  emailCategory({
    spf: done(Spf.example()),
    dkim: done(Dkim.example()),
    dmarc: done(Dmarc.example()),
    "mta-sts": done(MtaSts.example()),
    bimi: done(Bimi.example())
  })

const check = (request: string, answer: () => unknown): Example => ({ request, answer })

const dnsOperations: Readonly<Record<string, Example>> = {
  lookup: check("types=A,AAAA,MX,TXT,NS,SOA,CAA for example.com", () =>
    analyseLookup(
      {
        domain: DOMAIN,
        results: LOOKED_UP.map((type) => ({ type, result: ask(DOMAIN, type) })),
        responseTime: 16
      },
      NOW
    )
  ),
  dnssec: check("example.com, signed with ECDSA P-256 and NSEC3", () => Dnssec.example()),
  propagation: check("the A record of example.com at three resolvers", () =>
    analysePropagation(
      {
        domain: DOMAIN,
        type: "A",
        results: RESOLVERS.map((resolver, i) => ({
          resolver,
          result: ask(DOMAIN, "A"),
          elapsedMs: 14 + 9 * i
        }))
      },
      NOW
    )
  ),
  tlsa: check("example.com, whose MX publishes 3 1 1 for its key", () => Tlsa.example()),
  tlsaGenerate: check("3 1 1 for the mail server's public key", () =>
    unpreviewed(
      generateTlsa({ pem: MX_PUBLIC_KEY_PEM, usage: 3, selector: 1, matching: 1, host: MX_HOST, port: 25 })
    )
  ),
  dependencies: check(
    "example.com with names=status.example.com (a CNAME to example.statuspage.io); its records name example.net",
    () => {
      const { scan } = exampleScans()
      // status.example.com listed: an alias of a hosted status page.
      const listed = [`status.${DOMAIN}`]
      const registration = Registration.analyse(registrationListing(listed), NOW)
      const takeover = Takeover.analyse(takeoverListing(listed), NOW)
      return dependencyMap({
        ...scan,
        checks: { ...scan.checks, registration: { result: registration }, takeover: { result: takeover } }
      })
    }
  )
}

/** A generator's record asked without `?domain=`: nothing previewed, and the answer says so. */
const unpreviewed = <A>(generated: Either.Either<A, GenerateError>) => ({
  ...Either.getOrThrow(generated),
  ...notPreviewed(NO_DOMAIN)
})

const emailOperations: Readonly<Record<string, Example>> = {
  check: check("example.com", () => {
    const breakdown = emailScore()
    return {
      success: true,
      domain: DOMAIN,
      spf: Spf.example(),
      dkim: Dkim.example(),
      dmarc: Dmarc.example(),
      mx: analyseMx({ ...mxSet(runAtNow(dns().mx(DOMAIN))), implicit: false }),
      score: breakdown.score,
      scoreBreakdown: breakdown
    }
  }),
  dkim: check("example.com (selector1 found among the known selectors)", () => Dkim.example()),
  bimi: check("example.com, which publishes no BIMI record", () => Bimi.example()),
  smtpTls: check("one MX over IPv4 and IPv6, TLS 1.3", () => SmtpTls.example()),
  fcrdns: check("one MX over IPv4 and IPv6, both confirmed", () => ({
    ...Fcrdns.example(),
    apiUrl: `${BASE}/email/fcrdns?domain=${DOMAIN}`
  })),
  blacklist: check("two blocklists, listed on neither", () => Blocklist.example()),
  senderRequirements: check("example.com", () => SenderRequirements.example()),
  spfGenerate: check("Google Workspace and one own server, softfail", () =>
    unpreviewed(
      generateSpf({
        mechanisms: [
          { type: "include", value: "_spf.google.com" },
          { type: "ip4", value: "192.0.2.10" }
        ],
        policy: "softfail",
        domain: DOMAIN
      })
    )
  ),
  dmarcGenerate: check("the first stage: p=none with aggregate reports", () =>
    unpreviewed(generateDmarc({ domain: DOMAIN, policy: "none", rua: [`mailto:dmarc-reports@${DOMAIN}`] }))
  )
}

/** By operation id (`group.endpoint`). */
export const dnsEmailExamples: Readonly<Record<string, Example>> = {
  ...inGroup("dns", dnsOperations),
  ...inGroup("email", emailOperations)
}
