/**
 * What a domain owner does about each MTA-STS and TLS-RPT issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). MTA-STS has two parts: a TXT record at `_mta-sts.<domain>` and a policy file
 * served over HTTPS at `mta-sts.<domain>` (RFC 8461 3); TLS-RPT is one TXT record (RFC 8460 3).
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  mta_sts_missing: guide({
    why: "Mail to you is encrypted only when nobody interferes: an attacker between a sender and your mail server can silently switch encryption off and read or alter the mail. MTA-STS tells senders to insist on a secure connection.",
    steps: [
      "Create the policy file: version STSv1, mode testing, one 'mx:' line per mail server name (as in your MX records), max_age 604800.",
      "Serve it at https://mta-sts.{domain}/.well-known/mta-sts.txt with a valid certificate for mta-sts.{domain}.",
      "Publish the TXT record _mta-sts.{domain} with v=STSv1 and an id (for example the date, 20250101T000000).",
      "Publish a TLS-RPT record as well, so you receive reports of failed deliveries.",
      "After two to four weeks of reports without failures, change the mode to enforce and change the id."
    ],
    providers: {
      "google-workspace":
        "The policy's mx line for Gmail is mx: smtp.google.com (or mx: *.google.com for the older aspmx hosts).",
      "microsoft-365": "The policy's mx line for Exchange Online is mx: *.mail.protection.outlook.com.",
      cloudflare:
        "Cloudflare can serve the policy file from a Worker or Pages site on mta-sts.{domain}; the certificate comes with the proxied host.",
      "route53-ses":
        "The policy file can be served from S3 behind CloudFront with an ACM certificate for mta-sts.{domain}."
    },
    record: '_mta-sts.{domain} TXT "v=STSv1; id=20250101T000000"',
    references: ["rfc8461", "rfc8460"],
    nl: {
      why: "Mail aan jou wordt alleen versleuteld zolang niemand ingrijpt: een aanvaller tussen een afzender en je mailserver kan de versleuteling ongemerkt uitschakelen en de mail lezen of wijzigen. MTA-STS vraagt afzenders op een beveiligde verbinding te staan.",
      steps: [
        "Maak het policybestand: version STSv1, mode testing, één regel 'mx:' per mailservernaam (zoals in je MX-records), max_age 604800.",
        "Bied het aan op https://mta-sts.{domain}/.well-known/mta-sts.txt met een geldig certificaat voor mta-sts.{domain}.",
        "Publiceer het TXT-record _mta-sts.{domain} met v=STSv1 en een id (bijvoorbeeld de datum, 20250101T000000).",
        "Publiceer ook een TLS-RPT-record, zodat je rapporten krijgt over mislukte afleveringen.",
        "Zet na twee tot vier weken rapporten zonder fouten de mode op enforce en wijzig de id."
      ],
      providers: {
        "google-workspace":
          "De mx-regel van de policy voor Gmail is mx: smtp.google.com (of mx: *.google.com voor de oudere aspmx-hosts).",
        "microsoft-365":
          "De mx-regel van de policy voor Exchange Online is mx: *.mail.protection.outlook.com.",
        cloudflare:
          "Cloudflare kan het policybestand aanbieden vanuit een Worker of Pages-site op mta-sts.{domain}; het certificaat hoort bij de geproxiede host.",
        "route53-ses":
          "Het policybestand kan vanuit S3 achter CloudFront worden aangeboden, met een ACM-certificaat voor mta-sts.{domain}."
      }
    }
  }),
  mta_sts_testing: guide({
    why: "The MTA-STS policy is in testing mode: failures are reported, but senders still deliver without encryption when it is stripped, so the protection is not yet on.",
    steps: [
      "Check the TLS-RPT reports of the last weeks for failures to your mail servers.",
      "Change 'mode: testing' to 'mode: enforce' in the policy file.",
      "Change the id in the _mta-sts TXT record so senders fetch the new policy."
    ],
    references: ["rfc8461"],
    nl: {
      why: "De MTA-STS-policy staat in testmodus: fouten worden gemeld, maar afzenders leveren nog steeds onversleuteld af als de versleuteling wordt weggehaald, dus de bescherming staat nog niet aan.",
      steps: [
        "Bekijk de TLS-RPT-rapporten van de afgelopen weken op fouten bij aflevering aan je mailservers.",
        "Verander 'mode: testing' in 'mode: enforce' in het policybestand.",
        "Wijzig de id in het TXT-record _mta-sts, zodat afzenders de nieuwe policy ophalen."
      ]
    }
  }),
  mta_sts_invalid: guide({
    why: "The domain announces MTA-STS, but senders cannot use its policy (it cannot be fetched, is malformed, or does not list your mail servers). In enforce mode senders may refuse to deliver mail to you.",
    steps: [
      "Open https://mta-sts.{domain}/.well-known/mta-sts.txt in a browser: it must load without a certificate warning and show plain text.",
      "Check each line: version: STSv1, mode, one mx line per MX host, max_age.",
      "Make every MX host match an mx line (a wildcard line *.example.net covers one label).",
      "After any change to the file, change the id in the _mta-sts TXT record."
    ],
    references: ["rfc8461"],
    nl: {
      why: "Het domein kondigt MTA-STS aan, maar afzenders kunnen de policy niet gebruiken (die is niet op te halen, klopt niet of noemt je mailservers niet). In de mode enforce kunnen afzenders weigeren mail bij je af te leveren.",
      steps: [
        "Open https://mta-sts.{domain}/.well-known/mta-sts.txt in een browser: het moet laden zonder certificaatwaarschuwing en platte tekst tonen.",
        "Controleer elke regel: version: STSv1, mode, één mx-regel per MX-host, max_age.",
        "Zorg dat elke MX-host bij een mx-regel past (een wildcardregel *.example.net dekt één label).",
        "Wijzig na elke aanpassing van het bestand de id in het TXT-record _mta-sts."
      ]
    }
  }),
  tls_rpt_missing: guide({
    why: "Without TLS reporting you do not learn when senders fail to deliver mail to you securely (an expired certificate, a policy mismatch): problems stay invisible until mail goes missing.",
    steps: [
      "Choose a mailbox for the reports, in a domain that receives mail (for example tls-reports@{domain}), or a report service.",
      "Publish the TXT record _smtp._tls.{domain} with v=TLSRPTv1 and that address as rua."
    ],
    record: '_smtp._tls.{domain} TXT "v=TLSRPTv1; rua=mailto:tls-reports@{domain}"',
    references: ["rfc8460"],
    nl: {
      why: "Zonder TLS-rapportage hoor je niet wanneer afzenders mail niet veilig bij je kunnen afleveren (een verlopen certificaat, een policy die niet klopt): problemen blijven onzichtbaar tot er mail zoekraakt.",
      steps: [
        "Kies een mailbox voor de rapporten, in een domein dat mail ontvangt (bijvoorbeeld tls-reports@{domain}), of een rapportagedienst.",
        "Publiceer het TXT-record _smtp._tls.{domain} met v=TLSRPTv1 en dat adres als rua."
      ]
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
