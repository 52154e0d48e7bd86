/**
 * The issuer properties of a governing CAA set as the result shows them: each `issue`,
 * `issuewild` and `issuemail` value with its parameters read (records/CaaParameters.ts), and
 * what a permitted CA is still bound to. Pure.
 */
import { readIssuerProperty } from "../../records/CaaParameters.ts"
import type { CaaRecord } from "../../records/CaaRecord.ts"
import type { CaaCertificate, CaaProperty } from "./CaaResult.ts"

const ISSUER_TAGS = ["issue", "issuewild", "issuemail"] as const
type IssuerTag = (typeof ISSUER_TAGS)[number]

const issuerTag = (tag: string): IssuerTag | null => ISSUER_TAGS.find((t) => t === tag.toLowerCase()) ?? null

/** RFC 8659 §4.2 (and RFC 9495 §3 for `issuemail`): every issuer property of `records`, read. */
export const propertiesOf = (records: ReadonlyArray<CaaRecord>): ReadonlyArray<CaaProperty> =>
  records.flatMap((r) => {
    const tag = issuerTag(r.tag)
    if (tag === null) return []
    const read = readIssuerProperty(r.value)
    return [
      {
        tag,
        flags: r.flags,
        issuer: read.issuer,
        parameters: read.parameters.map((p) => ({ ...p })),
        accountUris: [...read.accountUris],
        validationMethods: [...read.validationMethods],
        problems: [...read.problems]
      }
    ]
  })

/**
 * What the properties that permit `issuer` under `tag` still bind it to (RFC 8657): an account or
 * validation methods, which a served certificate does not show, so they are said, not judged.
 * Empty when nothing binds it.
 */
export const bindingNote = (
  properties: ReadonlyArray<CaaProperty>,
  tag: "issue" | "issuewild",
  issuer: string
): string => {
  const own = properties.filter((p) => p.tag === tag && p.issuer === issuer && p.problems.length === 0)
  const accounts = [...new Set(own.flatMap((p) => p.accountUris))]
  const methods = [...new Set(own.flatMap((p) => p.validationMethods))]
  const parts = [
    ...(accounts.length > 0 ? [`only for ACME account ${accounts.join(", ")}`] : []),
    ...(methods.length > 0 ? [`only by validation ${methods.join(", ")}`] : [])
  ]
  return parts.length === 0 ? "" : `; ${parts.join(", ")} (RFC 8657)`
}

/** Each problem of a governing set's issuer properties, once, saying where it is. */
export const parameterProblems = (certificates: ReadonlyArray<CaaCertificate>): ReadonlyArray<string> => [
  ...new Set(
    certificates.flatMap((c) =>
      (c.properties ?? []).flatMap((p) =>
        p.problems.map((problem) => `CAA ${p.tag} at ${c.caaAt ?? c.host}: ${problem}`)
      )
    )
  )
]
