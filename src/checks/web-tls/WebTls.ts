/**
 * HTTPS transport: the TLS configuration of every address of the domain and of `www.` (IPv4 and
 * IPv6), as internet.nl tests it against the NCSC-NL TLS guidelines of May 2025: versions, cipher
 * suites and their order, key exchange, Extended Master Secret on TLS 1.2 (RFC 7627), certificate
 * chain, OCSP stapling (RFC 6066 8). `gather` resolves
 * the two names and takes one TLS scan per address through `facts.webTlsScan`; `analyse` rates it
 * (WebTlsAnalyse.ts).
 */
import { Effect, Either } from "effect"
import { define, traced } from "../../kernel/Check.ts"
import { addressQuestions, Facts } from "../../kernel/Facts.ts"
import { about, served } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { analyse, type WebTlsHostInput, type WebTlsInput } from "./WebTlsAnalyse.ts"
import { WebTlsResult } from "./WebTlsResult.ts"

export { WebTlsResult }

/** Addresses scanned per family and name: enough for a redundant pair, bounded for a large pool. */
export const ADDRESSES_PER_FAMILY = 2

/** The names a visitor types: the domain itself and its `www.` host. */
export const webHosts = (domain: string): ReadonlyArray<string> => [domain, `www.${domain}`]

export const gather = Effect.gen(function* () {
  const facts = yield* Facts
  // Both names' addresses asked at once, then read in turn in this fiber: `Effect.forEach` with a
  // concurrency forks a fiber per element that only waits (docs/architecture.md, "A check").
  yield* facts.prefetch(webHosts(facts.domain).flatMap(addressQuestions))
  const hosts: ReadonlyArray<WebTlsHostInput> = yield* Effect.forEach(webHosts(facts.domain), (host) =>
    Effect.map(Effect.either(facts.addresses(host)), (found): WebTlsHostInput => {
      if (Either.isLeft(found)) return { host, lookup: "unknown", addresses: [] }
      const addresses = [
        ...found.right.v4.slice(0, ADDRESSES_PER_FAMILY),
        ...found.right.v6.slice(0, ADDRESSES_PER_FAMILY)
      ]
      return { host, lookup: addresses.length > 0 ? "answer" : "none", addresses }
    })
  )
  const scans = yield* Effect.forEach(
    hosts.flatMap((h) => h.addresses.map((address) => ({ host: h.host, address }))),
    ({ host, address }) => facts.webTlsScan(host, address),
    { concurrency: "unbounded" }
  )
  return { domain: facts.domain, hosts, scans } satisfies WebTlsInput
}).pipe(traced("WebTls.gather", {}))

export const WebTls = define(about, { served, gather, analyse, exampleGathered })
