/**
 * A flattened SPF equivalent: the pass networks reached through the resolved graph, merged, and
 * packed into records whose strings fit 255 characters (RFC 1035 3.3.14 character-string) and whose
 * UDP answers fit 512 bytes (RFC 7208 3.4). Pure. Flattening is a snapshot: provider ranges change,
 * so the result warns whenever it copied a provider's networks.
 */
import { Schema } from "effect"
import type { FlatItem } from "./SpfNode.ts"
import { formatCidr, mergeCidrs } from "../../records/SpfIp.ts"
import { answerBytes, stringsFor } from "../../records/TxtSize.ts"
import type { Qualifier } from "../../records/SpfParse.ts"

export const FlatRecord = Schema.Struct({
  name: Schema.String,
  value: Schema.String,
  length: Schema.Int,
  /** Character-strings the value needs (each at most 255 characters). */
  strings: Schema.Int,
  /** Size of the UDP answer to `name TXT` carrying this record (and the other TXT records there). */
  answerBytes: Schema.Int
})
export type FlatRecord = typeof FlatRecord.Type

export const SpfFlattened = Schema.Struct({
  /** Flattening would bring the record under the lookup limit it now exceeds. */
  needed: Schema.Boolean,
  /** Every pass network was resolved: nothing unknown, looped or skipped. */
  complete: Schema.Boolean,
  /** The value to publish at the domain itself. */
  record: Schema.String,
  records: Schema.Array(FlatRecord),
  /** DNS-querying terms left in the flattened set (its own include chain and kept terms). */
  lookups: Schema.Int,
  ip4: Schema.Int,
  ip6: Schema.Int,
  warnings: Schema.Array(Schema.String)
})
export type SpfFlattened = typeof SpfFlattened.Type

/**
 * Providers whose ranges are published for include and change without notice: copying them into a
 * flattened record goes stale. Matched as a suffix of the source domain.
 */
export const VolatileProviders: ReadonlyArray<readonly [string, string]> = [
  ["google.com", "Google Workspace"],
  ["outlook.com", "Microsoft 365"],
  ["amazonses.com", "Amazon SES"],
  ["sendgrid.net", "SendGrid"],
  ["mailgun.org", "Mailgun"],
  ["mcsv.net", "Mailchimp"],
  ["mandrillapp.com", "Mandrill"],
  ["salesforce.com", "Salesforce"],
  ["zendesk.com", "Zendesk"],
  ["mtasv.net", "Postmark"],
  ["sendinblue.com", "Brevo"],
  ["brevo.com", "Brevo"],
  ["zoho.com", "Zoho"],
  ["zoho.eu", "Zoho"],
  ["hubspot.com", "HubSpot"],
  ["hubspotemail.net", "HubSpot"],
  ["freshdesk.com", "Freshdesk"],
  ["mimecast.com", "Mimecast"],
  ["pphosted.com", "Proofpoint"],
  ["messagelabs.com", "Broadcom Email Security"],
  ["ovh.net", "OVH"],
  ["secureserver.net", "GoDaddy"]
]

const STRING_MAX = 255
const UDP_MAX = 512

const record = (name: string, value: string, others: ReadonlyArray<string> = []): FlatRecord => ({
  name,
  value,
  length: value.length,
  strings: stringsFor(value),
  answerBytes: answerBytes(name, [value, ...others])
})

const allTerm = (q: Qualifier | undefined) => (q === undefined ? [] : [q === "+" ? "+all" : `${q}all`])

/** Packs terms greedily into `v=spf1 ...` values no longer than `max` characters. */
const pack = (terms: ReadonlyArray<string>, max: number): Array<string> => {
  const out: Array<string> = []
  let current = "v=spf1"
  for (const t of terms) {
    if (current.length + 1 + t.length > max && current !== "v=spf1") {
      out.push(current)
      current = "v=spf1"
    }
    current += ` ${t}`
  }
  if (current !== "v=spf1" || out.length === 0) out.push(current)
  return out
}

export interface FlattenInput {
  readonly domain: string
  readonly items: ReadonlyArray<FlatItem>
  readonly all: Qualifier | undefined
  /** The current record's lookup count, to say whether flattening is needed. */
  readonly lookups: number
  /** The other (non-SPF) TXT records at the domain: they share the 512-byte answer. */
  readonly otherTxt: ReadonlyArray<string>
}

/**
 * Builds the flattened equivalent. One record when it fits in one 255-character string; otherwise
 * parts at `_spf1.<domain>`, `_spf2.<domain>` ... each holding pass networks (an included record's
 * `all` would change nothing, RFC 7208 5.2, so parts have none), included from the root.
 */
export const flatten = (input: FlattenInput): SpfFlattened => {
  const warnings: Array<string> = []
  const cidrs = mergeCidrs(input.items.flatMap((i) => (i.kind === "cidr" ? [i.cidr] : [])))
  const networks = cidrs.map(formatCidr)
  const kept = [...new Set(input.items.flatMap((i) => (i.kind === "kept" ? [i.text] : [])))]
  const allTerms = allTerm(input.all)

  for (const i of input.items) {
    if (i.kind === "kept") warnings.push(`'${i.text}' (from ${i.source}) is kept as written: ${i.why}`)
    if (i.kind === "lost")
      warnings.push(`'${i.text}' (from ${i.source}) is not in the flattened record: ${i.why}`)
    if (i.kind === "incomplete") warnings.push(`incomplete: ${i.why}`)
  }
  const providers = new Map<string, Set<string>>()
  for (const i of input.items) {
    if (i.kind !== "cidr") continue
    const hit = VolatileProviders.find(([suffix]) => i.source === suffix || i.source.endsWith(`.${suffix}`))
    if (hit) providers.set(hit[1], (providers.get(hit[1]) ?? new Set()).add(i.source))
  }
  for (const [provider, sources] of providers)
    warnings.push(
      `copies ${provider} ranges (${[...sources].join(", ")}): the provider changes them without notice, ` +
        "so re-flatten regularly or keep its include"
    )
  if (networks.length > 0)
    warnings.push(
      "a flattened record is a snapshot of today's DNS: regenerate it when any included sender changes"
    )

  const single = ["v=spf1", ...networks, ...kept, ...allTerms].join(" ")
  let records: Array<FlatRecord>
  let lookups = kept.length
  if (single.length <= STRING_MAX) {
    records = [record(input.domain, single, input.otherTxt)]
  } else {
    const parts = pack(networks, STRING_MAX)
    const names = parts.map((_, n) => `_spf${n + 1}.${input.domain}`)
    const root = ["v=spf1", ...names.map((n) => `include:${n}`), ...kept, ...allTerms].join(" ")
    records = [record(input.domain, root, input.otherTxt), ...parts.map((p, n) => record(names[n]!, p))]
    lookups += parts.length
  }
  for (const r of records) {
    if (r.length > STRING_MAX)
      warnings.push(`${r.name}: ${r.length} characters need ${r.strings} strings of at most 255 characters`)
    if (r.answerBytes > UDP_MAX)
      warnings.push(
        `${r.name}: the TXT answer is ${r.answerBytes} bytes, over 512: resolvers without EDNS must retry over TCP`
      )
  }
  if (lookups > 10) warnings.push(`the flattened set still needs ${lookups} DNS lookups (limit 10)`)
  const incomplete = input.items.some((i) => i.kind === "incomplete")
  return {
    needed: input.lookups > 10,
    complete: !incomplete,
    record: records[0]!.value,
    records,
    lookups,
    ip4: cidrs.filter((c) => c.family === 4).length,
    ip6: cidrs.filter((c) => c.family === 6).length,
    warnings
  }
}
