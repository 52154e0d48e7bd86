/** The dns group: lookup, DNSSEC, propagation and TLSA (SPEC.md "DNS lookup result" and below). */
import { HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { TlsaResult } from "../checks/tlsa/Tlsa.ts"
import { TlsaGenerated } from "../generate/TlsaGenerator.ts"
import { LookupResult } from "../checks/dns/Lookup.ts"
import { PropagationResult } from "../checks/dns/Propagation.ts"
import { DnssecResult } from "../checks/dnssec/Dnssec.ts"
import { RecordTypes } from "../net/DnsTypes.ts"
import { Domain, DomainNamesQuery } from "./Domain.ts"
import { ProposalPreviewFields } from "../composite/ProposalPreview.ts"
import { BadRequest } from "./Errors.ts"
import { Endpoint } from "./Docs.ts"
import { domainCheck } from "./DomainCheck.ts"
import { DependencyMap } from "../report/DependencyMap.ts"
import { generates } from "./Generator.ts"

/** The record types the Resolver speaks (SPEC lists A..PTR for `type`; the issue allows all of them). */
export const LookupType = Schema.Literal(...RecordTypes)

export const PropagationType = Schema.Literal("A", "AAAA", "MX", "TXT")

/** What the TLSA generator answers: the record, and its preview when a domain is named. */
export const TlsaGeneratedPreviewed = Schema.Struct({ ...TlsaGenerated.fields, ...ProposalPreviewFields })

export const TlsaGenerateRequest = Schema.Struct({
  pem: Schema.String.pipe(Schema.maxLength(65_536)),
  usage: Schema.Int.pipe(Schema.between(0, 3)),
  selector: Schema.Int.pipe(Schema.between(0, 1)),
  matching: Schema.Int.pipe(Schema.between(0, 2)),
  host: Domain,
  port: Schema.Int.pipe(Schema.between(1, 65_535)),
  /** Usages 0 and 2 with a chain: the trust anchor's subject; default the last CA certificate. */
  anchor: Schema.optional(Schema.String.pipe(Schema.maxLength(1024)))
})

const lookup = Endpoint.get("lookup", "/dns/lookup", {
  summary: "Look up DNS records",
  description:
    "Resolves the domain's A, AAAA, MX, TXT, NS, SOA, CAA, CNAME and PTR records (or the types asked for with type or types) through the service's resolver. A type whose lookup fails or times out is reported as unknown, never as absent."
})
  .setUrlParams(
    Schema.Struct({
      domain: Domain,
      type: Schema.optional(LookupType).annotations({
        description: "one record type; default all of A, AAAA, MX, TXT, NS, SOA, CAA, CNAME, PTR"
      }),
      types: Schema.optional(Schema.String).annotations({ description: "comma list such as A,MX,TXT" })
    })
  )
  .addSuccess(LookupResult)
  .addError(BadRequest)

const dnssec = domainCheck("dnssec", "/dns/dnssec", DnssecResult, {
  summary: "Validate the DNSSEC chain",
  description:
    "Follows the chain of trust from the root to the domain (DS, DNSKEY, RRSIG) and reports whether the zone is signed, whether it validates, its algorithms, NSEC3 parameters and signature expiry, with the issues found (RFC 4033-4035, RFC 8624, RFC 9276)."
})

const propagation = Endpoint.get("propagation", "/dns/propagation", {
  summary: "Compare answers across public resolvers",
  description:
    "Asks each configured public resolver for one record type of the domain and reports whether their answers agree, so a recent change can be seen spreading. Each resolver is asked afresh; one that does not answer is unknown."
})
  .setUrlParams(Schema.Struct({ domain: Domain, type: Schema.optional(PropagationType) }))
  .addSuccess(PropagationResult)
  .addError(BadRequest)

const tlsa = domainCheck("tlsa", "/dns/tlsa", TlsaResult, {
  summary: "Check DANE TLSA records of the mail servers",
  description:
    "For each MX host, reads the TLSA records at _25._tcp.<host>, whether they are DNSSEC-signed, and whether they match the certificate the server presents over STARTTLS (RFC 7672)."
})

const tlsaGenerate = Endpoint.post("tlsaGenerate", "/dns/tlsa/generate", {
  summary: "Generate a TLSA record from a certificate",
  description:
    "Builds the TLSA record for a host and port from a PEM certificate or public key, for the usage, selector and matching type asked for (3 1 1 recommended). Private keys are refused. DANE needs a DNSSEC-signed zone. The record is previewed over a domain's live scan when the domain is named (?domain=): compared then says what publishing it does to the grade and the issues, as POST /scan/preview does; otherwise compared is null and comparedReason says so."
}).pipe(generates(TlsaGenerateRequest, TlsaGeneratedPreviewed))

const dependencies = Endpoint.get("dependencies", "/dns/dependencies", {
  summary: "Map the domains this domain depends on",
  description:
    "Lists every other registrable domain the domain's records name (NS and MX hosts, SPF includes and redirects, DMARC and TLS-RPT report addresses, BIMI hosts, CNAME targets), why, and each check's verdict about it: registration expiry over RDAP (RFC 9083) and takeover risk (not registered, not resolving). Also the domain's own registration and its aliases (a CNAME ending in NXDOMAIN or at an unclaimed hosting site). Read from the domain's full scan; without an RDAP source registration is unknown, never failed. With names (host names of the domain that DNS cannot list, such as shop.example.com), those names are probed too and their CNAME targets listed, each use naming the listed name (alias)."
})
  .setUrlParams(DomainNamesQuery)
  .addSuccess(DependencyMap)
  .addError(BadRequest)

export class DnsApi extends HttpApiGroup.make("dns")
  .add(lookup)
  .add(dnssec)
  .add(propagation)
  .add(tlsa)
  .add(tlsaGenerate)
  .add(dependencies) {}
