/**
 * The DMARC record generator (POST /email/dmarc/generate). Pure: no network, nothing stored.
 * Builds the `_dmarc` TXT value (RFC 7489 6.3 tag order: v first, then p) and advice for the
 * usual rollout none -> quarantine -> reject. Invalid input is a `GenerateError` (HTTP 400).
 */
import { Either, Schema } from "effect"
import { GenerateError } from "../records/GenerateError.ts"
import {
  mailboxDomain,
  organisationalDomainOf,
  parseDmarcUri,
  reportAuthorisationName,
  type Alignment,
  DmarcPolicy
} from "../records/DmarcRecord.ts"
import { Strings } from "../records/Schemas.ts"

/**
 * The request as the API accepts it: loose strings, validated here (400 with a precise reason).
 * The spec's inputs; `domain`, which names the DNS entry and the RFC 7489 7.1 authorisations
 * external destinations need, is for library callers.
 */
export const DmarcGenerateFields = {
  policy: Schema.String,
  rua: Schema.optional(Schema.Union(Schema.String, Strings)),
  ruf: Schema.optional(Schema.Union(Schema.String, Strings)),
  sp: Schema.optional(Schema.String),
  subdomainPolicy: Schema.optional(Schema.String),
  np: Schema.optional(Schema.String),
  pct: Schema.optional(Schema.Number),
  percentage: Schema.optional(Schema.Number),
  adkim: Schema.optional(Schema.String),
  aspf: Schema.optional(Schema.String),
  fo: Schema.optional(Schema.String),
  rf: Schema.optional(Schema.String),
  ri: Schema.optional(Schema.Number)
}

export type DmarcGenerateInput = Partial<Schema.Struct.Type<typeof DmarcGenerateFields>> & {
  readonly domain?: string | undefined
}

const AlignmentMode = Schema.Literal("r", "s")

/** A validated configuration: exactly the tags the record will carry. */
export const DmarcConfig = Schema.Struct({
  p: DmarcPolicy,
  sp: Schema.optional(DmarcPolicy),
  np: Schema.optional(DmarcPolicy),
  pct: Schema.optional(Schema.Int),
  rua: Strings,
  ruf: Strings,
  adkim: Schema.optional(AlignmentMode),
  aspf: Schema.optional(AlignmentMode),
  fo: Schema.optional(Strings),
  rf: Schema.optional(Strings),
  ri: Schema.optional(Schema.Int)
})
export type DmarcConfig = typeof DmarcConfig.Type

const Step = Schema.Struct({
  step: Schema.Int,
  policy: DmarcPolicy,
  record: Schema.String,
  advice: Schema.String
})

/** What POST /email/dmarc/generate answers. */
export const DmarcGenerated = Schema.Struct({
  record: Schema.String,
  config: DmarcConfig,
  /** The value as DNS character-strings (each at most 255 octets, RFC 1035 3.3.14) in `strings`. */
  dnsEntry: Schema.Struct({
    name: Schema.String,
    type: Schema.Literal("TXT"),
    ttl: Schema.Int,
    value: Schema.String,
    strings: Strings,
    zoneLine: Schema.String
  }),
  warnings: Strings,
  /** The next records to publish on the way to p=reject, with when to move on. */
  rollout: Schema.Array(Step),
  /** External report destinations must publish these records (RFC 7489 7.1). */
  requiredAuthorisations: Schema.Array(
    Schema.Struct({ name: Schema.String, type: Schema.Literal("TXT"), value: Schema.String })
  )
})
export type DmarcGenerated = typeof DmarcGenerated.Type

const fail = (field: string, reason: string) => Either.left(new GenerateError({ field, message: reason }))

const policyOf = (field: string, value: string): Either.Either<DmarcPolicy, GenerateError> => {
  const v = value.trim().toLowerCase()
  return v === "none" || v === "quarantine" || v === "reject"
    ? Either.right(v)
    : fail(field, `${field} must be none, quarantine or reject, got '${value}'`)
}

const alignmentOf = (field: string, value: string): Either.Either<Alignment, GenerateError> => {
  const v = value.trim().toLowerCase()
  if (v === "r" || v === "relaxed") return Either.right("r")
  if (v === "s" || v === "strict") return Either.right("s")
  return fail(field, `${field} must be r (relaxed) or s (strict), got '${value}'`)
}

/** Accepts `mailto:a@b`, `a@b` and the `!size` suffix; rejects everything that is not a mailbox. */
const addressesOf = (
  field: string,
  value: string | ReadonlyArray<string> | undefined
): Either.Either<ReadonlyArray<string>, GenerateError> => {
  if (value === undefined) return Either.right([])
  const items = (typeof value === "string" ? [value] : value)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter((v) => v !== "")
  const out: Array<string> = []
  for (const item of items) {
    const uri = /^mailto:/i.test(item) ? `mailto:${item.slice(7)}` : `mailto:${item}`
    const parsed = parseDmarcUri(uri)
    if ("error" in parsed) return fail(field, `${field}: ${parsed.error}`)
    if (parsed.uri.address === null || mailboxDomain(parsed.uri.address) === null)
      return fail(field, `${field}: '${item}' is not an email address`)
    out.push(parsed.uri.raw)
  }
  return Either.right(out)
}

const intOf = (field: string, value: number, max: number): Either.Either<number, GenerateError> =>
  Number.isInteger(value) && value >= 0 && value <= max
    ? Either.right(value)
    : fail(field, `${field} must be an integer from 0 to ${max}, got ${value}`)

/** Validates the request into a configuration (the 400 reasons live here). */
export const validateDmarcInput = (input: DmarcGenerateInput): Either.Either<DmarcConfig, GenerateError> =>
  Either.gen(function* () {
    if (input.policy === undefined)
      return yield* fail("policy", "policy is required (none, quarantine or reject)")
    const p = yield* policyOf("policy", input.policy)
    const spRaw = input.sp ?? input.subdomainPolicy
    const pctRaw = input.pct ?? input.percentage
    if (input.pct !== undefined && input.percentage !== undefined && input.pct !== input.percentage)
      return yield* fail("pct", "pct and percentage disagree")
    const config: {
      -readonly [K in keyof DmarcConfig]: DmarcConfig[K]
    } = {
      p,
      rua: yield* addressesOf("rua", input.rua),
      ruf: yield* addressesOf("ruf", input.ruf)
    }
    if (spRaw !== undefined) config.sp = yield* policyOf("sp", spRaw)
    if (input.np !== undefined) config.np = yield* policyOf("np", input.np)
    if (pctRaw !== undefined) config.pct = yield* intOf("pct", pctRaw, 100)
    if (input.adkim !== undefined) config.adkim = yield* alignmentOf("adkim", input.adkim)
    if (input.aspf !== undefined) config.aspf = yield* alignmentOf("aspf", input.aspf)
    if (input.fo !== undefined) {
      const fo = input.fo.split(":").map((s) => s.trim().toLowerCase())
      if (fo.some((s) => !/^[01ds]$/.test(s)))
        return yield* fail("fo", `fo must be a colon-separated list of 0, 1, d, s, got '${input.fo}'`)
      config.fo = fo
    }
    if (input.rf !== undefined) {
      const rf = input.rf.split(":").map((s) => s.trim().toLowerCase())
      if (rf.some((s) => s !== "afrf"))
        return yield* fail("rf", `rf must be afrf (the only defined format), got '${input.rf}'`)
      config.rf = rf
    }
    if (input.ri !== undefined) config.ri = yield* intOf("ri", input.ri, 4_294_967_295)
    if (
      input.domain !== undefined &&
      !/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}\.?$/i.test(input.domain.trim())
    )
      return yield* fail("domain", `'${input.domain}' is not a domain name`)
    return config
  })

/** Renders a configuration as a DMARC record (RFC 7489 6.3; v first, p second). */
export const renderDmarc = (c: DmarcConfig): string => {
  const tags: Array<string> = ["v=DMARC1", `p=${c.p}`]
  if (c.sp !== undefined) tags.push(`sp=${c.sp}`)
  if (c.np !== undefined) tags.push(`np=${c.np}`)
  if (c.pct !== undefined) tags.push(`pct=${c.pct}`)
  if (c.rua.length > 0) tags.push(`rua=${c.rua.join(",")}`)
  if (c.ruf.length > 0) tags.push(`ruf=${c.ruf.join(",")}`)
  if (c.adkim !== undefined) tags.push(`adkim=${c.adkim}`)
  if (c.aspf !== undefined) tags.push(`aspf=${c.aspf}`)
  if (c.fo !== undefined) tags.push(`fo=${c.fo.join(":")}`)
  if (c.rf !== undefined) tags.push(`rf=${c.rf.join(":")}`)
  if (c.ri !== undefined) tags.push(`ri=${c.ri}`)
  return tags.join("; ")
}

/** Splits a TXT value into character-strings of at most 255 octets (RFC 1035 3.3.14). */
export const txtStrings = (value: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (let i = 0; i < value.length; i += 255) out.push(value.slice(i, i + 255))
  return out.length === 0 ? [""] : out
}

const quote = (s: string) => `"${s.replace(/(["\\])/g, "\\$1")}"`

const advise = (c: DmarcConfig, domain: string | undefined): Array<string> => {
  const w: Array<string> = []
  // rollout
  if (c.p === "none" && c.rua.length === 0)
    w.push(
      "p=none without rua does nothing you can see: add a rua address to collect aggregate reports first"
    )
  else if (c.p === "none")
    w.push(
      "Rollout step 1 (monitor): read the aggregate reports for 2-4 weeks until every legitimate source passes SPF or DKIM aligned, then move to p=quarantine"
    )
  else if (c.p === "quarantine")
    w.push("Rollout step 2 (quarantine): when the reports show no legitimate mail failing, move to p=reject")
  else if (c.rua.length > 0) w.push("p=reject is the end state: keep reading the reports for new senders")
  else
    w.push(
      "p=reject without reports: legitimate mail that fails DMARC is rejected and you will not see it; add rua"
    )
  if (c.p !== "none" && c.rua.length === 0 && c.p !== "reject")
    w.push("Enforcing without rua: you cannot see legitimate mail that fails; start at p=none with rua")
  // reporting
  if (c.ruf.length > 0)
    w.push(
      "ruf: failure reports can contain personal data (privacy/GDPR) and most large providers do not send them"
    )
  if (c.fo !== undefined && c.ruf.length === 0) w.push("fo has no effect without ruf")
  const destinations = [
    ...new Set(
      [...c.rua, ...c.ruf].map((u) => mailboxDomain(u.replace(/^mailto:/, "").replace(/!.*$/, "")) ?? "")
    )
  ].filter((d) => d !== "")
  if (domain === undefined && destinations.length > 0)
    w.push(
      `A report destination outside your organisational domain must accept your reports: it publishes TXT "v=DMARC1" at <your-domain>._report._dmarc.<destination> (RFC 7489 7.1); destinations: ${destinations.join(", ")}`
    )
  if (domain !== undefined) {
    const org = organisationalDomainOf(domain)
    for (const uri of [...c.rua, ...c.ruf]) {
      const dest = mailboxDomain(uri.replace(/^mailto:/, "").replace(/!.*$/, ""))
      if (dest && organisationalDomainOf(dest) !== org)
        w.push(
          `${dest} must publish TXT "v=DMARC1" at ${reportAuthorisationName(domain, dest)} to accept your reports (RFC 7489 7.1)`
        )
    }
  }
  // alignment
  if (c.adkim === "s")
    w.push(
      "adkim=s (strict): DKIM signatures by subdomains (e.g. mail.example.com) no longer align; relaxed is usually right"
    )
  if (c.aspf === "s")
    w.push(
      "aspf=s (strict): bounce domains of subdomains or providers no longer align; relaxed is usually right"
    )
  // enforcement
  if (c.p !== "none" && c.sp === "none")
    w.push("sp=none leaves every subdomain spoofable while the domain is enforced")
  if (c.pct !== undefined && c.pct < 100 && c.p === "none") w.push("pct has no effect with p=none")
  else if (c.pct !== undefined && c.pct < 100)
    w.push(
      `pct=${c.pct}: only ${c.pct}% of failing mail gets the policy; raise it to 100 as the rollout proceeds`
    )
  if (c.pct !== undefined || c.rf !== undefined || c.ri !== undefined)
    w.push("pct, rf and ri are removed by DMARCbis; receivers may ignore them")
  return w
}

const rolloutOf = (c: DmarcConfig): DmarcGenerated["rollout"] => {
  const order: ReadonlyArray<DmarcPolicy> = ["none", "quarantine", "reject"]
  const advice: Record<DmarcPolicy, string> = {
    none: "Monitor: collect aggregate reports and fix every legitimate source",
    quarantine: "Quarantine: failing mail goes to spam; watch the reports for false positives",
    reject: "Reject: failing mail is refused; the end state"
  }
  return order
    .filter((p) => order.indexOf(p) >= order.indexOf(c.p))
    .map((p) => ({
      step: order.indexOf(p) + 1,
      policy: p,
      record: renderDmarc({ ...c, p }),
      advice: advice[p]
    }))
}

/** Generates the `_dmarc` record for a request; Left with a reason for invalid input. */
export const generateDmarc = (input: DmarcGenerateInput): Either.Either<DmarcGenerated, GenerateError> =>
  Either.map(validateDmarcInput(input), (config) => {
    const domain = input.domain?.trim().toLowerCase().replace(/\.$/, "")
    const record = renderDmarc(config)
    const name = domain ? `_dmarc.${domain}` : "_dmarc"
    const strings = txtStrings(record)
    const org = domain ? organisationalDomainOf(domain) : undefined
    const requiredAuthorisations =
      domain === undefined
        ? []
        : [
            ...new Set(
              [...config.rua, ...config.ruf].map((u) =>
                mailboxDomain(u.replace(/^mailto:/, "").replace(/!.*$/, ""))
              )
            )
          ]
            .filter((d): d is string => d !== null && organisationalDomainOf(d) !== org)
            .map((d) => ({
              name: reportAuthorisationName(domain, d),
              type: "TXT" as const,
              value: "v=DMARC1"
            }))
    return {
      record,
      config,
      dnsEntry: {
        name,
        type: "TXT" as const,
        ttl: 3600,
        value: record,
        strings,
        zoneLine: `${name}${domain ? "." : ""} 3600 IN TXT ${strings.map(quote).join(" ")}`
      },
      warnings: advise(config, domain),
      rollout: rolloutOf(config),
      requiredAuthorisations
    }
  })
