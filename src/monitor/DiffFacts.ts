/**
 * The facts of a stored scan that a domain's owner wants to hear about when they change: its DNS
 * records (SPF, DMARC, MX, DKIM keys, the MTA-STS policy id, TLSA, CAA, NS), its mail servers'
 * certificates and its blocklist listings. Each family reads its facts from one check's result and
 * says, for a change of one of them, how much it matters and in which words (Diff.ts compares).
 *
 * Unknown is not missing: a family whose check could not finish reads as `null` (nothing of it is
 * compared), and a fact whose own question went unanswered (a DNS type that timed out, a DKIM
 * selector whose lookup failed, a blocklist zone that did not answer, a mail server that was not
 * reached) is `unsure`, so its absence is never reported as a removal.
 */
import type { Severity } from "../kernel/Status.ts"
import type { ScanResult } from "../scan/ScanResult.ts"
import type { ChangeKind, Json } from "./Change.ts"

/** One fact of a scan, under its change id; `value` is never null (absence is the fact missing). */
export interface Fact {
  readonly id: string
  readonly value: Json
}

/** What a scan says of a family: its facts, and the ids it could not tell (compared on neither side). */
export interface Reading {
  readonly facts: ReadonlyArray<Fact>
  readonly unsure?: ReadonlyArray<string>
}

export interface Wording {
  readonly severity: Severity
  readonly summary: string
}

export interface Family {
  readonly kind: ChangeKind
  /** The family's facts in `scan`; null when the check that reads them could not finish. */
  readonly read: (scan: ScanResult) => Reading | null
  /** Report only a fact present on both sides that changed (its appearing or going is told elsewhere). */
  readonly bothOnly?: boolean
  readonly word: (id: string, before: Json | null, after: Json | null) => Wording
}

/** A fact's value in a sentence; `none` for an absent or empty one. */
export const show = (value: Json | null, none = "none"): string =>
  value === null
    ? none
    : typeof value === "string"
      ? value
      : Array.isArray(value)
        ? value.length === 0
          ? none
          : value.join(", ")
        : JSON.stringify(value)

/** `text` ended by one full stop: a value at its end, such as the name `mail.example.com.`, may already end in one. */
export const sentence = (text: string): string => (text.endsWith(".") ? text : `${text}.`)

/** The words of a record that is added, removed or changed, at the severities given for each. */
/** How much a record's appearing, going and changing each matter. */
type Severities = { readonly added: Severity; readonly removed: Severity; readonly changed: Severity }

const recordWords =
  (label: (id: string) => string, severities: Severities) =>
  (id: string, before: Json | null, after: Json | null): Wording =>
    before === null
      ? { severity: severities.added, summary: sentence(`${label(id)} was added: ${show(after)}`) }
      : after === null
        ? { severity: severities.removed, summary: `${label(id)} was removed (it was ${show(before)}).` }
        : {
            severity: severities.changed,
            summary: sentence(`${label(id)} changed from ${show(before)} to ${show(after)}`)
          }

/** The checks a scan holds, by id, and the result each one's Schema makes. */
type Results = { readonly [K in keyof ScanResult["checks"]]: NonNullable<ScanResult["checks"][K]["result"]> }

/** A family read from one check's result: null, nothing compared, when that check could not finish. */
const fromResult =
  <K extends keyof Results>(check: K, read: (result: Results[K]) => Reading | null) =>
  (scan: ScanResult): Reading | null => {
    // The outcome under a check's id holds that check's result: TypeScript cannot follow the id.
    const result = scan.checks[check].result as Results[K] | null
    return result === null ? null : read(result)
  }

/** The records of one DNS type from the DNS lookup check, sorted; unsure when that lookup failed. */
const dnsSet =
  (type: string, id: string) =>
  (scan: ScanResult): Reading | null => {
    const lookup = scan.checks["dns-records"].result
    if (lookup === null) return null
    const outcome = lookup.outcomes[type]
    if (outcome !== "answer" && outcome !== "nodata" && outcome !== "nxdomain")
      return { facts: [], unsure: [id] }
    const data = (lookup.records[type] ?? [])
      .filter((r) => r.type === type)
      .map((r) => r.data.toLowerCase())
      .sort()
    return { facts: data.length === 0 ? [] : [{ id, value: [...new Set(data)] }] }
  }

// RFC 7489 6.3: none < quarantine < reject; no record at all is weaker than p=none.
const POLICY_RANK: Readonly<Record<string, number>> = { none: 1, quarantine: 2, reject: 3 }
const rankOf = (policy: Json | null) => (typeof policy === "string" ? (POLICY_RANK[policy] ?? 0) : 0)

const dmarcPolicy: Family = {
  kind: "record",
  read: fromResult("dmarc", (dmarc) => {
    if (dmarc.status === "unknown") return null
    return {
      facts:
        dmarc.exists && dmarc.policy !== undefined ? [{ id: "record/dmarc-policy", value: dmarc.policy }] : []
    }
  }),
  word: (_, before, after) => {
    const severity: Severity =
      rankOf(after) < rankOf(before) ? (rankOf(before) >= 2 ? "high" : "medium") : "info"
    const summary =
      before === null
        ? `A DMARC policy was published: ${show(after)}.`
        : after === null
          ? `The DMARC policy was removed (it was ${show(before)}).`
          : `DMARC policy went from ${show(before)} to ${show(after)}.`
    return { severity, summary }
  }
}

const dmarcRecord: Family = {
  kind: "record",
  bothOnly: true,
  read: fromResult("dmarc", (dmarc) => {
    if (dmarc.status === "unknown") return null
    return {
      facts: dmarc.exists && dmarc.record !== undefined ? [{ id: "record/dmarc", value: dmarc.record }] : []
    }
  }),
  word: recordWords(() => "The DMARC record", { added: "info", removed: "info", changed: "low" })
}

const spf: Family = {
  kind: "record",
  read: fromResult("spf", (result) => {
    if (result.status === "unknown") return null
    return {
      facts: result.exists && result.record !== "" ? [{ id: "record/spf", value: result.record }] : []
    }
  }),
  word: recordWords(() => "The SPF record", { added: "info", removed: "high", changed: "medium" })
}

const dkim: Family = {
  kind: "record",
  read: fromResult("dkim", (result) => {
    return {
      facts: result.selectorsFound.map((s) => ({ id: `record/dkim/${s.selector}`, value: s.record })),
      unsure: result.failedSelectors.map((f) => `record/dkim/${f.selector}`)
    }
  }),
  word: (id, before, after) => {
    const selector = id.slice("record/dkim/".length)
    return before === null
      ? { severity: "info", summary: `A DKIM key was found under selector ${selector}.` }
      : after === null
        ? { severity: "medium", summary: `The DKIM key under selector ${selector} is gone.` }
        : { severity: "low", summary: `The DKIM key under selector ${selector} was rotated.` }
  }
}

const mtaStsId: Family = {
  kind: "record",
  read: fromResult("mta-sts", (result) => {
    if (result.status === "unknown") return null
    return { facts: result.policyId === null ? [] : [{ id: "record/mta-sts-id", value: result.policyId }] }
  }),
  word: recordWords(() => "The MTA-STS policy id", { added: "info", removed: "medium", changed: "low" })
}

const tlsa: Family = {
  kind: "record",
  read: fromResult("dane", (result) => {
    return {
      facts: result.hosts
        .filter((h) => h.records.length > 0)
        .map((h) => ({ id: `record/tlsa/${h.host}`, value: h.records.map((r) => r.text).sort() })),
      unsure: result.hosts.filter((h) => h.status === "unknown").map((h) => `record/tlsa/${h.host}`)
    }
  }),
  word: recordWords((id) => `The TLSA record of ${id.slice("record/tlsa/".length)}`, {
    added: "info",
    removed: "medium",
    changed: "medium"
  })
}

/** The record set of one DNS type, under `id`, told as `label` at the severities given. */
const dnsFamily = (type: string, id: string, label: string, severities: Severities): Family => ({
  kind: "record",
  read: dnsSet(type, id),
  word: recordWords(() => label, severities)
})

const mx = dnsFamily("MX", "record/mx", "The MX set", { added: "info", removed: "high", changed: "medium" })
const caa = dnsFamily("CAA", "record/caa", "The CAA record set", {
  added: "info",
  removed: "low",
  changed: "low"
})
const ns = dnsFamily("NS", "record/ns", "The name server set (NS)", {
  added: "info",
  removed: "high",
  changed: "low"
})

/** The mail servers' certificates, by host: the issuer and the expiry date, each a fact. */
const certificates: Family = {
  kind: "certificate",
  read: fromResult("smtp-tls", (result) => {
    const hosts = new Map<string, NonNullable<(typeof result.servers)[number]["certificate"]>>()
    const unsure: Array<string> = []
    for (const server of result.servers) {
      if (server.certificate !== null) hosts.set(server.host, hosts.get(server.host) ?? server.certificate)
      else unsure.push(`certificate/${server.host}/issuer`, `certificate/${server.host}/expiry`)
    }
    return {
      facts: [...hosts].flatMap(([host, cert]) => [
        { id: `certificate/${host}/issuer`, value: cert.issuerCommonName ?? cert.issuer },
        { id: `certificate/${host}/expiry`, value: cert.validTo }
      ]),
      unsure: unsure.filter((id) => !hosts.has(id.split("/")[1]!))
    }
  }),
  bothOnly: true,
  word: (id, before, after) => {
    const [, host, field] = id.split("/")
    if (field === "issuer")
      return {
        severity: "low",
        summary: `The certificate of ${host} is now issued by ${show(after)} (it was ${show(before)}).`
      }
    const earlier = String(after) < String(before)
    return {
      severity: earlier ? "medium" : "info",
      summary: `The certificate of ${host} now expires on ${show(after).slice(0, 10)} (it was ${show(before).slice(0, 10)}).`
    }
  }
}

/** Every listing of a mail server's address, by address and zone; a zone that did not answer is unsure. */
const blocklist: Family = {
  kind: "blocklist",
  read: fromResult("blocklist", (result) => {
    const verdicts = result.mailServers.flatMap((s) =>
      s.blacklistResult.blacklists.map((z) => ({ server: s, zone: z, id: `blocklist/${s.ip}/${z.zone}` }))
    )
    return {
      facts: verdicts
        .filter((v) => v.zone.status === "listed")
        .map((v) => ({
          id: v.id,
          value: {
            list: v.zone.name,
            host: v.server.hostname,
            severity: v.zone.severity,
            codes: [...v.zone.codes]
          }
        })),
      unsure: verdicts.filter((v) => v.zone.status === "unknown").map((v) => v.id)
    }
  }),
  word: (id, before, after) => {
    const listing = (after ?? before) as {
      readonly list: string
      readonly host: string
      readonly severity: Severity
    }
    const address = id.split("/")[1]
    return after === null
      ? {
          severity: "info",
          summary: `The mail server ${listing.host} (${address}) is no longer listed on ${listing.list}.`
        }
      : before === null
        ? {
            severity: listing.severity,
            summary: `The mail server ${listing.host} (${address}) is now listed on ${listing.list}.`
          }
        : {
            severity: "info",
            summary: `The listing of the mail server ${listing.host} (${address}) on ${listing.list} changed.`
          }
  }
}

/** The families, each read in turn (DiffOrder.ts puts what they find in the order it is read). */
export const families: ReadonlyArray<Family> = [
  spf,
  dmarcPolicy,
  dmarcRecord,
  mx,
  dkim,
  mtaStsId,
  tlsa,
  caa,
  ns,
  certificates,
  blocklist
]
