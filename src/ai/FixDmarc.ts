/**
 * The DMARC fixes of `/ai/fix` (docs/ai.md): the domain's current record, read through the DMARC
 * check, changed only where the issue asks, rebuilt by the project's DMARC generator
 * (`generate/DmarcGenerator.ts`, which drops what RFC 7489 6.3 does not define) and judged by the DMARC check
 * with the proposal published in place of the current record. Report addresses, alignment, failure
 * options and the subdomain policy are kept unless they are the issue.
 */
import type { Domain } from "../records/DomainName.ts"
import { Effect, Either } from "effect"
import { AppConfig } from "../Config.ts"
import { analyseDmarc, Dmarc } from "../checks/dmarc/Dmarc.ts"
import { dmarcName, gatherDmarc, mailReach } from "../checks/dmarc/DmarcGather.ts"
import { Facts } from "../kernel/Facts.ts"
import { generateDmarc, type DmarcGenerateInput } from "../generate/DmarcGenerator.ts"
import { isDmarcRecord, isNearDmarcRecord, parseDmarc } from "../records/DmarcRecord.ts"
import type { IssueId } from "../score/Catalogue.ts"
import type { Proposal } from "./FixSpf.ts"
import { runCheck, withFacts } from "../scan/Scanner.ts"

const POLICIES = ["none", "quarantine", "reject"] as const
type Policy = (typeof POLICIES)[number]

/** A misspelt policy (`p=rejected`, `p=Quarantine `) read as the policy it most likely meant. */
const policyLike = (raw: string | undefined): Policy | undefined => {
  const v = (raw ?? "").trim().toLowerCase()
  return v === "" ? undefined : POLICIES.find((p) => p.startsWith(v.slice(0, 3)))
}

const STRONGER: Record<Policy, Policy> = { none: "quarantine", quarantine: "reject", reject: "reject" }

/** Whether a domain receives mail: "some" (an MX, or an address), "none" (null MX, nothing), "unknown". */
export type MailReach = "some" | "none" | "unknown"

/** The domain of a mailto: report address, lower-cased; undefined for any other URI. */
export const mailboxDomain = (uri: string): string | undefined =>
  /^mailto:[^@\s]+@([^!\s,]+)/i.exec(uri)?.[1]?.toLowerCase()

/** The domain of `address` when it is known to take no mail: its reports would never arrive. */
const mailless = (address: string, reach: ReadonlyMap<string, MailReach>): string | undefined => {
  const d = mailboxDomain(address)
  return d !== undefined && reach.get(d) === "none" ? d : undefined
}

/** A note when `address`'s domain is known to take no mail. */
const unreachable = (address: string, reach: ReadonlyMap<string, MailReach>): string | undefined => {
  const d = mailless(address, reach)
  return d === undefined
    ? undefined
    : `${address} cannot receive the reports: ${d} takes no mail (no MX, or a null MX); use a mailbox in a domain that receives mail`
}

/** A reserved name (RFC 2606) that stands for the owner's own mail domain until they fill it in. */
const PLACEHOLDER_DOMAIN = "your-mail-domain.example"

/** The placeholder a report address gets when neither the domain nor this service can take the reports. */
export const PLACEHOLDER_RUA = `mailto:dmarc-reports@${PLACEHOLDER_DOMAIN}`

/**
 * Where the reports go when the record names no address: a mailbox in the domain when it takes
 * mail (or when that could not be found out); else this service's own receiver (the first of
 * `REPORTS_DOMAINS`), which the receiver's operator authorises (RFC 7489 7.1); else a placeholder
 * (a reserved name, RFC 2606) the owner must replace. Never an address the same answer says
 * cannot receive them. Pure.
 */
export const defaultRua = (
  domain: Domain,
  reach: ReadonlyMap<string, MailReach>,
  receiver: string | undefined
): { readonly address: string; readonly note?: string } => {
  if (reach.get(domain) !== "none") return { address: `mailto:dmarc-reports@${domain}` }
  if (receiver !== undefined)
    return {
      address: `mailto:dmarc@${receiver}`,
      note: `${domain} takes no mail, so the reports go to this service's receiver at ${receiver}, which accepts them for ${domain} once ${domain}._report._dmarc.${receiver} has the TXT record v=DMARC1 (RFC 7489 7.1)`
    }
  return {
    address: PLACEHOLDER_RUA,
    note: `${domain} takes no mail: replace ${PLACEHOLDER_DOMAIN} with a domain that receives mail before publishing`
  }
}

/**
 * The generator's input from the current record and the issue. Pure.
 *
 * Enforcement is staged (RFC 7489 6.7): reports first, then quarantine, then reject. A step to a
 * stronger policy is proposed only when a report address is known to receive mail (`reach` of its
 * domain is "some"): without reports the owner cannot see the legitimate mail a stronger policy
 * would refuse. Otherwise the proposal keeps the policy and sets up the reports.
 */
export const planDmarc = (
  issue: IssueId,
  domain: Domain,
  current: string | undefined,
  rua: string | undefined,
  reach: ReadonlyMap<string, MailReach> = new Map(),
  /** This service's report receiver (the first of `REPORTS_DOMAINS`), if it has one. */
  receiver?: string
): { readonly input: DmarcGenerateInput; readonly changes: Array<string> } => {
  const changes: Array<string> = []
  const fallback = defaultRua(domain, reach, receiver)
  if (current === undefined) {
    const address = rua ?? fallback.address
    changes.push(`new record: p=none (monitoring first, RFC 7489 6.7) with aggregate reports to ${address}`)
    const note = rua === undefined ? fallback.note : unreachable(address, reach)
    if (note !== undefined) changes.push(note)
    return { input: { domain, policy: "none", rua: [address] }, changes }
  }
  // a record that starts with text before v=DMARC1 is read from v=DMARC1 on
  const text = current.slice(Math.max(0, current.search(/v\s*=\s*DMARC1/i)))
  if (text !== current) changes.push("the value now begins with v=DMARC1")
  const parsed = parseDmarc(text)
  const raw = (name: string) => parsed.tags.find((t) => t.name.toLowerCase() === name)?.value
  let p: Policy = parsed.p ?? policyLike(raw("p")) ?? "none"
  if (parsed.p === null && raw("p") !== undefined) changes.push(`p=${raw("p")} read as p=${p}`)
  // report addresses: mailto only; a bare address gets its mailto:; at most two (RFC 7489 6.2); one
  // in a domain that takes no mail is dropped, since its reports never arrive
  const addresses = (raw("rua") ?? "")
    .split(",")
    .map((u) => u.trim())
    .filter((u) => u !== "")
    .flatMap((u) => {
      if (/^mailto:/i.test(u)) return [u]
      if (/^[^\s:@]+@[^\s@]+$/.test(u)) {
        changes.push(`rua ${u} became mailto:${u}`)
        return [`mailto:${u}`]
      }
      changes.push(`removed rua ${u}: receivers need only support mailto:`)
      return []
    })
    .filter((address) => {
      const d = mailless(address, reach)
      if (d !== undefined)
        changes.push(
          `removed rua ${address}: ${d} takes no mail (no MX, or a null MX), so the reports never arrive`
        )
      return d === undefined
    })
  if (rua !== undefined && !addresses.includes(rua)) addresses.unshift(rua)
  if (addresses.length === 0) {
    addresses.push(fallback.address)
    changes.push(`added rua=${fallback.address}`)
    if (fallback.note !== undefined) changes.push(fallback.note)
  }
  if (addresses.length > 2) changes.push(`kept the first two of ${addresses.length} rua addresses`)
  for (const address of addresses.slice(0, 2)) {
    const note = unreachable(address, reach)
    if (note !== undefined) changes.push(note)
  }
  if (issue === "dmarc_policy_none" || issue === "dmarc_policy_quarantine") {
    // reports flow today only to a mailto: address the record already has, in a domain taking mail
    const reported = (raw("rua") ?? "")
      .split(",")
      .map((u) => u.trim())
      .some((u) => /^mailto:/i.test(u) && reach.get(mailboxDomain(u) ?? "") === "some")
    if (reported) {
      changes.push(
        `p=${p} became p=${STRONGER[p]}${STRONGER[p] === "quarantine" ? " (stage 2 of 3: move to p=reject once the reports show no legitimate mail failing)" : " (stage 3 of 3)"}`
      )
      p = STRONGER[p]
    } else
      changes.push(
        `kept p=${p} (stage 1 of 3, reports first): no report address is known to receive mail, so a stronger policy could refuse legitimate mail unseen; apply the stronger policy once reports arrive`
      )
  }
  const sp = issue === "dmarc_subdomain_policy_none" ? undefined : (parsed.sp ?? undefined)
  if (sp === undefined && parsed.sp !== null) changes.push("removed sp=none: subdomains now follow p")
  const pct = issue === "dmarc_pct_below_100" || parsed.pct === 100 ? undefined : (parsed.pct ?? undefined)
  if (parsed.pct !== null && pct === undefined && parsed.pct !== 100)
    changes.push(`removed pct=${parsed.pct}`)
  if (parsed.unknownTags.length > 0) changes.push(`removed unknown tags ${parsed.unknownTags.join(", ")}`)
  if (parsed.t === true) changes.push("removed t=y: the policy now applies fully")
  return {
    input: {
      domain,
      policy: p,
      rua: addresses.slice(0, 2),
      ruf: parsed.ruf.map((u) => u.uri),
      sp,
      np: parsed.np ?? undefined,
      pct,
      adkim: parsed.adkim ?? undefined,
      aspf: parsed.aspf ?? undefined,
      fo: parsed.fo?.join(":"),
      ri: parsed.ri ?? undefined
    },
    changes
  }
}

/**
 * The record the fix starts from: the domain's own at `_dmarc` (one inherited from the
 * organisational domain is not changed here), the first if there are several, and a near-record
 * (` v=DMARC1...`, issue dmarc_leading_space) when there is no proper one. undefined: none, or
 * the lookup failed (then nothing is kept that could not be read: the caller says so).
 */
const currentRecord = (domain: Domain) =>
  withFacts(
    domain,
    Effect.flatMap(Facts, (facts) =>
      facts.txt(dmarcName(domain)).pipe(
        Effect.map((all) => all.find(isDmarcRecord) ?? all.find(isNearDmarcRecord)),
        Effect.either
      )
    )
  )

/**
 * A domain without its own record that inherits the organisational domain's (RFC 7489 6.6.3): a
 * new record must not weaken what applies today, so it starts from the inherited policy (the
 * organisation's sp, else p) and report addresses.
 */
const inheritedStart = (domain: Domain) =>
  Effect.map(runCheck(Dmarc, domain), (result) => {
    if (!result.inherited || result.effectivePolicy === undefined) return undefined
    const rua = result.rua.length > 0 ? `; rua=${result.rua.join(",")}` : ""
    return {
      record: `v=DMARC1; p=${result.effectivePolicy}${rua}`,
      note: `started from the policy ${domain} inherits from ${result.organisationalDomain} today (p=${result.effectivePolicy})`
    }
  })

/** The DMARC check's verdict on `proposal` published at `_dmarc.<domain>` in place of the current. */
export const judgeDmarc = (domain: Domain, proposal: Proposal) =>
  withFacts(
    domain,
    Effect.gen(function* () {
      const facts = yield* Facts
      const txt = (name: string) =>
        name.toLowerCase().replace(/\.$/, "") === proposal.name
          ? facts.txt(name).pipe(
              Effect.orElseSucceed(() => [] as ReadonlyArray<string>),
              Effect.map((all) => [
                ...all.filter((t) => !isDmarcRecord(t) && !isNearDmarcRecord(t)),
                proposal.value
              ])
            )
          : facts.txt(name)
      const result = analyseDmarc(yield* gatherDmarc({ txt, mx: facts.mx }, domain))
      return { valid: result.valid, policy: result.policy ?? "none", issues: result.issues }
    })
  )

/**
 * Whether `domain` and the report destinations receive mail (the DMARC check's own test,
 * DmarcGather.ts `mailReach`), over `domain`'s Facts.
 */
const reachOf = (domain: Domain, destinations: ReadonlyArray<string>) =>
  withFacts(
    domain,
    Effect.flatMap(Facts, (facts) =>
      Effect.forEach(
        [...new Set([domain, ...destinations].map((d) => d.toLowerCase()))].slice(0, 4),
        (d) => mailReach(facts, d),
        {
          concurrency: 4
        }
      )
    )
  ).pipe(Effect.map((all) => new Map<string, MailReach>(all.map((r) => [r.domain, r.mx]))))

export const proposeDmarc = (
  issue: IssueId,
  domain: Domain,
  override: string | undefined,
  rua: string | undefined
) =>
  Effect.gen(function* () {
    const read = Either.map(
      override !== undefined ? Either.right(override) : yield* currentRecord(domain),
      (record) => (record === undefined ? undefined : { record, note: undefined })
    )
    if (Either.isLeft(read))
      return Either.left(`the DMARC record of ${domain} could not be read (${read.left._tag}); retry later`)
    const own = read.right ?? (yield* inheritedStart(domain))
    const reach = yield* reachOf(domain, [
      ...[rua, ...parseDmarc(own?.record ?? "").rua.map((u) => u.uri)].flatMap((u) => {
        const d = u === undefined ? undefined : mailboxDomain(u)
        return d === undefined ? [] : [d]
      })
    ])
    const { reportsDomains } = yield* AppConfig
    const { input, changes } = planDmarc(issue, domain, own?.record, rua, reach, reportsDomains[0])
    if (own?.note) changes.unshift(own.note)
    return Either.mapBoth(generateDmarc(input), {
      onLeft: (e) => e.message,
      onRight: (g): Proposal => ({
        name: dmarcName(domain),
        value: g.record,
        // the report authorisations are published by the destinations, not here: the warnings say so
        extra: [],
        changes,
        // the placeholder is replaced before publishing: what its destination must authorise is moot
        warnings: g.warnings.filter((w) => !w.includes(PLACEHOLDER_DOMAIN))
      })
    })
  })
