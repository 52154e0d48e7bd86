/**
 * SPF record generator (`POST /email/spf/generate`). Pure: no DNS, nothing stored. Builds the TXT
 * value from the caller's mechanisms, counts the lookups the record itself costs (RFC 7208 4.6.4; a
 * minimum, since include targets add their own), checks the 255-character string and 512-byte answer
 * sizes (RFC 7208 3.3, 3.4) and returns the DNS entry to publish.
 */
import { Either, Schema } from "effect"
import { Strings } from "../records/Schemas.ts"
import { answerBytes } from "../records/TxtSize.ts"
import { parseIp4, parseIp6 } from "../records/SpfIp.ts"
import { checkDomainSpec, print, type Mechanism, type Qualifier, type Term } from "../records/SpfParse.ts"
import { GenerateError } from "../records/GenerateError.ts"

export const GeneratorMechanismTypes = ["ip4", "ip6", "a", "mx", "include", "exists", "ptr"] as const
export type GeneratorMechanismType = (typeof GeneratorMechanismTypes)[number]

/** The request as the API accepts it: loose strings, validated here (400 with a precise reason). */
export const SpfGenerateRequest = Schema.Struct({
  mechanisms: Schema.Array(
    Schema.Struct({ type: Schema.String, value: Schema.optional(Schema.String) })
  ).pipe(Schema.maxItems(100)),
  useA: Schema.optional(Schema.Boolean),
  useMx: Schema.optional(Schema.Boolean),
  /** fail, softfail, neutral or pass (also -all, ~all, ?all, +all); softfail when absent. */
  policy: Schema.optional(Schema.String)
})

/** The request, and for library callers the domain (the DNS entry's name, the answer-size estimate). */
export type SpfGenerateInput = typeof SpfGenerateRequest.Type & { readonly domain?: string | undefined }

/** What POST /email/spf/generate answers. `lookups` counts this record's own (include targets add theirs). */
export const SpfGenerated = Schema.Struct({
  record: Schema.String,
  lookups: Schema.Int,
  lookupsIsMinimum: Schema.Boolean,
  lookupLimit: Schema.Int,
  lookupNote: Schema.String,
  policy: Schema.Literal("fail", "softfail", "neutral", "pass"),
  lengthChecks: Schema.Struct({
    characters: Schema.Int,
    strings: Schema.Int,
    fitsOneString: Schema.Boolean,
    answerBytes: Schema.Int,
    fitsUdp: Schema.Boolean
  }),
  warnings: Strings,
  dnsEntry: Schema.Struct({
    type: Schema.Literal("TXT"),
    name: Schema.String,
    ttl: Schema.Int,
    strings: Strings,
    value: Schema.String,
    zoneLine: Schema.String
  })
})
export type SpfGenerateOutput = typeof SpfGenerated.Type

const POLICIES: Record<string, Qualifier> = {
  fail: "-",
  "-all": "-",
  "-": "-",
  softfail: "~",
  "~all": "~",
  "~": "~",
  neutral: "?",
  "?all": "?",
  "?": "?",
  pass: "+",
  "+all": "+",
  "+": "+",
  all: "+"
}
const POLICY_NAMES = { "-": "fail", "~": "softfail", "?": "neutral", "+": "pass" } as const

/** Evaluation order: no lookups first, then single lookups, the expensive ones last. */
const ORDER: Record<GeneratorMechanismType, number> = {
  ip4: 0,
  ip6: 1,
  a: 2,
  mx: 3,
  include: 4,
  exists: 5,
  ptr: 6
}

const PRIVATE_V4: ReadonlyArray<readonly [string, number]> = [
  ["10.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["100.64.0.0", 10]
]

const inV4 = (ip: bigint, [net, len]: readonly [string, number]) =>
  ip >> BigInt(32 - len) === parseIp4(net)! >> BigInt(32 - len)

const fail = (message: string) => Either.left(new GenerateError({ message }))

const parseCidr = (value: string, family: 4 | 6) => {
  const [ip = "", len, extra] = value.split("/")
  const max = family === 4 ? 32 : 128
  if (extra !== undefined) return undefined
  const address = family === 4 ? parseIp4(ip) : parseIp6(ip)
  if (address === undefined) return undefined
  if (len !== undefined && !(/^(0|[1-9][0-9]{0,2})$/.test(len) && Number(len) <= max)) return undefined
  return { ip, address, prefix: len === undefined ? undefined : Number(len) }
}

/** Builds one mechanism from `{type, value}` or explains why it is invalid. */
const toMechanism = (
  type: string,
  rawValue: string | undefined,
  warnings: Array<string>
): Either.Either<Mechanism, GenerateError> => {
  const t = type.trim().toLowerCase()
  let value = (rawValue ?? "").trim()
  // tolerate the term spelled out in the value ("ip4:192.0.2.1", "include:_spf.example.com")
  if (value.toLowerCase().startsWith(`${t}:`)) value = value.slice(t.length + 1)
  const hostChars = (v: string) => /^[A-Za-z0-9._-]*$/.test(v.replace(/%\{[^}]*\}|%%|%_|%-/g, ""))
  if (/\s/.test(value)) return fail(`${t}: '${value}' contains whitespace`)
  const m = (rest: Partial<Mechanism>): Mechanism => ({
    kind: "mechanism",
    name: t as Mechanism["name"],
    qualifier: undefined,
    domain: rest.domain,
    ip: rest.ip,
    cidr4: rest.cidr4,
    cidr6: rest.cidr6
  })
  switch (t) {
    case "ip4":
    case "ip6": {
      const family = t === "ip4" ? 4 : 6
      const parsed = parseCidr(value, family)
      if (!parsed)
        return fail(`${t}: '${value}' is not an ${family === 4 ? "IPv4" : "IPv6"} address or CIDR network`)
      if (parsed.prefix !== undefined && parsed.prefix < (family === 4 ? 8 : 16))
        warnings.push(`${t}:${value} authorises a very large range of addresses`)
      if (family === 4 && PRIVATE_V4.some((r) => inV4(parsed.address, r)))
        warnings.push(
          `${t}:${value} is a private or loopback address: receivers on the internet never see it`
        )
      return Either.right(
        m(family === 4 ? { ip: parsed.ip, cidr4: parsed.prefix } : { ip: parsed.ip, cidr6: parsed.prefix })
      )
    }
    case "a":
    case "mx": {
      const dual = /^(.*?)(?:\/([0-9]+))?(?:\/\/([0-9]+))?$/.exec(value)!
      const domain = dual[1] === "" ? undefined : dual[1]!
      const c4 = dual[2] === undefined ? undefined : Number(dual[2])
      const c6 = dual[3] === undefined ? undefined : Number(dual[3])
      if (c4 !== undefined && (c4 > 32 || !/^(0|[1-9][0-9]*)$/.test(dual[2]!)))
        return fail(`${t}: '/${dual[2]}' is not an IPv4 prefix length (0-32)`)
      if (c6 !== undefined && (c6 > 128 || !/^(0|[1-9][0-9]*)$/.test(dual[3]!)))
        return fail(`${t}: '//${dual[3]}' is not an IPv6 prefix length (0-128)`)
      if (domain !== undefined) {
        if (!hostChars(domain)) return fail(`${t}: '${domain}' is not a domain name`)
        const problems = checkDomainSpec(domain, 0, value)
        if (problems.length > 0) return fail(`${t}: ${problems[0]!.message}`)
      }
      return Either.right(m({ domain, cidr4: c4, cidr6: c6 }))
    }
    case "include":
    case "exists":
    case "ptr": {
      if (value === "") {
        if (t === "ptr") {
          warnings.push("'ptr' is slow, unreliable and deprecated (RFC 7208 5.5): list the addresses instead")
          return Either.right(m({}))
        }
        return fail(`${t} needs a domain`)
      }
      const problems = checkDomainSpec(value, 0, value)
      if (problems.length > 0) return fail(`${t}: ${problems[0]!.message}`)
      if (!hostChars(value)) return fail(`${t}: '${value}' is not a domain name`)
      if (t === "ptr")
        warnings.push("'ptr' is slow, unreliable and deprecated (RFC 7208 5.5): list the addresses instead")
      return Either.right(m({ domain: value }))
    }
    default:
      return fail(
        `unknown mechanism type '${type}' (use one of ${GeneratorMechanismTypes.join(", ")}; 'all' comes from policy)`
      )
  }
}

/** Generates the record. Left: invalid input, with a reason fit for a 400 response. */
export const generate = (input: SpfGenerateInput): Either.Either<SpfGenerateOutput, GenerateError> => {
  const warnings: Array<string> =
    input?.policy === undefined ? ["no policy given: '~all' (softfail) used"] : []
  if (typeof input !== "object" || input === null)
    return fail("the body must be an object {mechanisms, useA, useMx, policy}")
  const qualifier =
    POLICIES[
      String(input.policy ?? "softfail")
        .trim()
        .toLowerCase()
    ]
  if (qualifier === undefined)
    return fail(`unknown policy '${input.policy}' (use fail, softfail, neutral or pass)`)
  if (!Array.isArray(input.mechanisms)) return fail("mechanisms must be an array of {type, value}")
  if (input.domain !== undefined) {
    const problems = checkDomainSpec(input.domain.replace(/\.$/, ""), 0, input.domain)
    if (problems.length > 0 || input.domain.includes("%"))
      return fail(`domain: '${input.domain}' is not a domain name`)
  }
  const mechanisms: Array<Mechanism> = []
  if (input.useA) mechanisms.push(aOrMx("a"))
  if (input.useMx) mechanisms.push(aOrMx("mx"))
  for (const item of input.mechanisms) {
    if (typeof item !== "object" || item === null || typeof item.type !== "string")
      return fail("each mechanism needs a string 'type'")
    const m = toMechanism(item.type, typeof item.value === "string" ? item.value : undefined, warnings)
    if (Either.isLeft(m)) return Either.left(m.left)
    mechanisms.push(m.right)
  }
  const seen = new Set<string>()
  const unique = mechanisms.filter((m) => {
    const key = print([m]).toLowerCase()
    if (seen.has(key)) {
      warnings.push(`duplicate '${key.slice(7)}' removed`)
      return false
    }
    seen.add(key)
    return true
  })
  const ordered = unique
    .map((m, i) => ({ m, i }))
    .sort(
      (x, y) =>
        ORDER[x.m.name as GeneratorMechanismType] - ORDER[y.m.name as GeneratorMechanismType] || x.i - y.i
    )
    .map((x) => x.m)
  const all: Term = {
    kind: "mechanism",
    name: "all",
    qualifier: qualifier === "+" ? "+" : qualifier,
    domain: undefined,
    ip: undefined,
    cidr4: undefined,
    cidr6: undefined
  }
  const record = print([...ordered, all])

  const lookups = ordered.filter((m) => m.name !== "ip4" && m.name !== "ip6").length
  const includes = ordered.filter((m) => m.name === "include").length
  if (lookups > 10)
    warnings.push(
      `${lookups} lookups before counting nested ones: over the limit of 10, receivers return permerror`
    )
  else if (lookups + includes * 2 > 10 && includes > 0)
    warnings.push("the includes' own lookups will likely push the total over 10: check the published record")
  if (qualifier === "+")
    warnings.push("'+all' authorises every server on the internet to send as this domain: never publish it")
  if (qualifier === "?")
    warnings.push("'?all' (neutral) gives receivers no instruction about unlisted servers")
  if (qualifier === "~")
    warnings.push(
      "'~all' (softfail) is fine while rolling out; move to '-all' once every sender is listed and DMARC enforces"
    )
  if (ordered.length === 0 && qualifier === "-")
    warnings.push(
      "no sender is authorised: right for a domain that sends no mail (add a null MX and DMARC p=reject too)"
    )
  if (ordered.length === 0 && qualifier !== "-")
    warnings.push("no sender is listed: the record authorises nothing useful")

  const name = input.domain?.replace(/\.$/, "").toLowerCase() ?? "@"
  const strings = record.match(/.{1,255}/g) ?? [record]
  const bytes = answerBytes(name === "@" ? "example.com" : name, [record])
  if (strings.length > 1)
    warnings.push(
      `${record.length} characters: publish it as ${strings.length} strings of at most 255 characters (RFC 7208 3.3)`
    )
  if (bytes > 512)
    warnings.push(
      `the TXT answer would be about ${bytes} bytes, over 512: resolvers without EDNS must retry over TCP (RFC 7208 3.4)`
    )
  const quoted = strings.map((s) => `"${s}"`).join(" ")
  return Either.right({
    record,
    lookups,
    lookupsIsMinimum: true,
    lookupLimit: 10,
    lookupNote: "include and redirect targets add their own lookups: this count is a minimum",
    policy: POLICY_NAMES[qualifier],
    lengthChecks: {
      characters: record.length,
      strings: strings.length,
      fitsOneString: strings.length === 1,
      answerBytes: bytes,
      fitsUdp: bytes <= 512
    },
    warnings,
    dnsEntry: {
      type: "TXT",
      name,
      ttl: 3600,
      strings,
      value: quoted,
      zoneLine: `${name === "@" ? "@" : `${name}.`} 3600 IN TXT ${quoted}`
    }
  })
}

function aOrMx(name: "a" | "mx"): Mechanism {
  return {
    kind: "mechanism",
    name,
    qualifier: undefined,
    domain: undefined,
    ip: undefined,
    cidr4: undefined,
    cidr6: undefined
  }
}
