/**
 * Takeover risks: names of the domain that someone else could claim, and the domains it depends on
 * that someone else could register.
 *
 * - A CNAME (RFC 1034 3.6.2) at the apex, `www`, the MTA-STS host, a BIMI host or a name the owner
 *   listed (`names=`: `shop.`, `status.`, which DNS cannot enumerate) whose chain ends in a name
 *   that does not exist (NXDOMAIN): whoever creates that name (a cloud app, a bucket, a
 *   registration) serves the domain's site, policy or logo.
 * - A CNAME to a hosting service whose page says "no such site" (checks/takeover/Signatures.ts):
 *   anybody with an account there can claim the name.
 * - A dependency domain (checks/registration/Dependencies.ts) that RDAP says is not registered (404), that
 *   does not exist in DNS, or whose name servers do not answer.
 *
 * Every risk names the record to remove. `analyse` is pure; `gather` reads the dependency fact, the
 * registration check's answers and, for aliases into a known hosting service, the page itself.
 */
import { Effect, Either } from "effect"
import type { DnsAnswer, DnsError } from "../../net/DnsTypes.ts"
import { define, need } from "../../kernel/Check.ts"
import { Facts } from "../../kernel/Facts.ts"
import { Registration, RdapOutcome } from "../registration/Registration.ts"
import {
  type CnameProbe,
  Dependencies,
  type Dependency,
  type DependencyUse
} from "../registration/Dependencies.ts"
import { type CheckStatus, worstOf } from "../../kernel/Status.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import { matchesSignature, signatureFor } from "./Signatures.ts"
import { TakeoverResult, DependencyRisk, DependencyDns, AliasResult } from "./TakeoverResult.ts"
import { forEachConcurrently } from "../../kernel/Each.ts"

export * from "./TakeoverResult.ts"

/** How much of a hosting page is read for its fingerprint. */
export const PAGE_BYTES = 65_536

export interface HostingPage {
  readonly name: string
  readonly status: number | null
  readonly body: string
  readonly error: string | null
}

export interface TakeoverInput {
  readonly domain: string
  readonly cnames: ReadonlyArray<CnameProbe>
  readonly pages: ReadonlyArray<HostingPage>
  readonly rdapConfigured: boolean
  /** The names the owner listed, probed among `cnames`. */
  readonly listed?: ReadonlyArray<string>
  readonly dependencies: ReadonlyArray<{
    readonly dependency: Dependency
    readonly rdap: RdapOutcome
    readonly dns: DependencyDns
  }>
}

/** The record of `domain` that names the dependency through `use` (what to remove). */
export const recordNaming = (domain: string, use: DependencyUse): string => {
  switch (use.reason) {
    case "NS host":
      return `${domain}. NS ${use.name}.`
    case "MX host":
      return `${domain}. MX ${use.name}.`
    case "SPF include":
      return `include:${use.name} in the SPF record`
    case "SPF redirect":
      return `redirect=${use.name} in the SPF record`
    case "DMARC rua":
    case "DMARC ruf":
      return `the ${use.reason.slice(6)} address at ${use.name} in _dmarc.${domain}`
    case "TLS-RPT rua":
      return `the rua address at ${use.name} in _smtp._tls.${domain}`
    case "CNAME target":
      return use.alias === undefined
        ? `the CNAME pointing to ${use.name}`
        : `the CNAME at ${use.alias} leading to ${use.name}`
    case "BIMI host":
      return `the logo or certificate URL at ${use.name} in the BIMI record`
  }
}

/** One alias's verdict (pure). */
export const aliasOf = (probe: CnameProbe, pages: ReadonlyArray<HostingPage>): AliasResult => {
  const last = probe.chain[probe.chain.length - 1] ?? null
  const remove = probe.chain.length > 0 ? `${probe.name}. CNAME ${probe.chain[0]}.` : null
  const signature = last === null ? undefined : signatureFor(last)
  const base = {
    name: probe.name,
    chain: probe.chain,
    outcome: probe.outcome,
    service: signature?.service ?? null
  }
  if (probe.outcome === "unknown")
    return {
      ...base,
      risk: null,
      status: "unknown",
      message: `lookup failed: ${probe.reason ?? ""}`,
      remove: null
    }
  if (probe.outcome === "nxdomain")
    return {
      ...base,
      risk: "dangling",
      status: "fail",
      message: `${probe.name} is an alias of ${last}, which does not exist (NXDOMAIN): whoever creates ${last} serves ${probe.name}`,
      remove
    }
  const page = pages.find((p) => p.name === probe.name)
  if (signature !== undefined && page !== undefined && page.status !== null)
    if (matchesSignature(signature, page.status, page.body))
      return {
        ...base,
        risk: "unclaimed",
        status: "fail",
        message: `${probe.name} points to ${signature.service} (${last}), which answers that no site is configured there: anybody can claim it`,
        remove
      }
  return {
    ...base,
    risk: null,
    status: signature !== undefined && page?.status === null ? "unknown" : "pass",
    message:
      signature !== undefined && page?.status === null
        ? `${probe.name} points to ${signature.service}; its page could not be read (${page.error ?? ""})`
        : `${probe.name} is an alias of ${last}, which exists`,
    remove: null
  }
}

/** One dependency's verdict (pure). */
export const dependencyRiskOf = (
  domain: string,
  { dependency, rdap, dns }: TakeoverInput["dependencies"][number]
): DependencyRisk => {
  const remove = dependency.uses.map((u) => recordNaming(domain, u))
  const base = { domain: dependency.domain, uses: dependency.uses, rdap, dns, remove }
  const used = dependency.uses.map((u) => `${u.reason} ${u.name}`).join(", ")
  if (rdap === "not-registered")
    return {
      ...base,
      risk: "unregistered",
      status: "fail",
      message: `${dependency.domain} is not registered (RDAP 404): anybody can register it and control ${used}`
    }
  if (dns === "nxdomain")
    return {
      ...base,
      risk: "nxdomain",
      status: "fail",
      message: `${dependency.domain} does not exist in DNS (NXDOMAIN): if it is not registered, anybody can register it and control ${used}`
    }
  if (dns === "unanswered")
    return {
      ...base,
      risk: "unanswered",
      status: "warning",
      message: `the name servers of ${dependency.domain} do not answer (SERVFAIL): ${used} cannot be resolved, and a lapsed delegation can be taken over`
    }
  if (dns === "unknown" || rdap === "unknown")
    return { ...base, risk: null, status: "unknown", message: `${dependency.domain} could not be checked` }
  return {
    ...base,
    risk: null,
    status: "pass",
    message:
      rdap === "registered"
        ? `${dependency.domain} is registered and answers`
        : `${dependency.domain} answers`
  }
}

/** Pure and total. */
export const analyse = (input: TakeoverInput, now: Date): TakeoverResult => {
  const aliases = input.cnames
    .filter((c) => c.chain.length > 0 || c.outcome === "unknown")
    .map((c) => aliasOf(c, input.pages))
  const dependencies = input.dependencies.map((d) => dependencyRiskOf(input.domain, d))
  const all = [...aliases, ...dependencies]
  const statuses: ReadonlyArray<CheckStatus> = all.map((x) => x.status)
  return {
    domain: input.domain,
    timestamp: now.toISOString(),
    status: all.length === 0 ? "not-applicable" : worstOf(statuses),
    aliases,
    dependencies,
    rdapConfigured: input.rdapConfigured,
    issues: all.filter((x) => x.status === "fail" || x.status === "warning").map((x) => x.message),
    // Only when names were listed: a scan without them reads exactly as before.
    ...(input.listed !== undefined && input.listed.length > 0 ? { names: input.listed } : {})
  }
}

const dnsOf = (answer: Either.Either<DnsAnswer, DnsError> | undefined): DependencyDns =>
  answer === undefined
    ? "unknown"
    : Either.isRight(answer)
      ? answer.right.outcome === "nxdomain"
        ? "nxdomain"
        : "exists"
      : answer.left.reason === "servfail"
        ? "unanswered"
        : "unknown"

const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const found = yield* facts.get(Dependencies)
  const registration = yield* need(Registration)
  const rdapOf = new Map(registration.dependencies.map((e) => [e.domain, e.rdap]))
  const answers = yield* facts.queryEach(
    found.dependencies.map((d) => ({ name: d.domain, type: "NS" as const })),
    { concurrency: 8 }
  )
  // Only an alias into a hosting service we know is fetched: its page is the evidence.
  const hosted = found.cnames.filter(
    (c) =>
      c.outcome === "answer" && c.chain.length > 0 && signatureFor(c.chain[c.chain.length - 1]!) !== undefined
  )
  const pages = yield* forEachConcurrently(
    hosted,
    (c) =>
      Effect.map(
        Effect.either(
          facts.fetch(`https://${c.name}/`, {
            verifyTls: false,
            followRedirects: false,
            truncateBody: true,
            maxBytes: PAGE_BYTES
          })
        ),
        (r): HostingPage =>
          Either.isRight(r)
            ? {
                name: c.name,
                status: r.right.status,
                body: new TextDecoder().decode(r.right.body),
                error: null
              }
            : { name: c.name, status: null, body: "", error: r.left.message }
      ),
    4
  )
  return {
    domain: facts.domain,
    cnames: found.cnames,
    listed: found.listed,
    pages,
    rdapConfigured: registration.rdapConfigured,
    dependencies: found.dependencies.map((dependency, i) => ({
      dependency,
      rdap: rdapOf.get(dependency.domain) ?? (registration.rdapConfigured ? "unknown" : "off"),
      dns: dnsOf(answers[i])
    }))
  } satisfies TakeoverInput
})

export const Takeover = define(about, { gather, analyse, exampleGathered })
