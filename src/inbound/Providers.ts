/**
 * Who a sending source belongs to: the provider whose SPF include of the domain covers its address,
 * or whose name its PTR carries. And which sources are forwarders (mail re-sent on a recipient's
 * behalf fails SPF and often DKIM through no fault of the domain: RFC 7489 10.4, RFC 7960). Pure.
 */
import type { SpfNode } from "../checks/spf/SpfNode.ts"
import { type Cidr, contains, parseCidr, parseIp } from "../records/IpAddress.ts"

export interface KnownProvider {
  /** A DNS suffix the provider's PTR names or SPF includes end in. */
  readonly suffix: string
  readonly name: string
  /** Mail from it that fails DMARC is most often forwarded mail (a mailbox or alias service). */
  readonly forwarder: boolean
}

/** Mail providers by the names in their PTRs and SPF includes. */
export const KNOWN_PROVIDERS: ReadonlyArray<KnownProvider> = [
  { suffix: "google.com", name: "Google", forwarder: true },
  { suffix: "googlemail.com", name: "Google", forwarder: true },
  { suffix: "outlook.com", name: "Microsoft", forwarder: true },
  { suffix: "protection.outlook.com", name: "Microsoft 365", forwarder: true },
  { suffix: "hotmail.com", name: "Microsoft", forwarder: true },
  { suffix: "yahoo.com", name: "Yahoo", forwarder: true },
  { suffix: "yahoodns.net", name: "Yahoo", forwarder: true },
  { suffix: "icloud.com", name: "Apple iCloud", forwarder: true },
  { suffix: "me.com", name: "Apple iCloud", forwarder: true },
  { suffix: "pobox.com", name: "Pobox", forwarder: true },
  { suffix: "forwardemail.net", name: "Forward Email", forwarder: true },
  { suffix: "improvmx.com", name: "ImprovMX", forwarder: true },
  { suffix: "fastmail.com", name: "Fastmail", forwarder: true },
  { suffix: "messagingengine.com", name: "Fastmail", forwarder: true },
  { suffix: "amazonses.com", name: "Amazon SES", forwarder: false },
  { suffix: "sendgrid.net", name: "SendGrid", forwarder: false },
  { suffix: "mailgun.org", name: "Mailgun", forwarder: false },
  { suffix: "mailgun.net", name: "Mailgun", forwarder: false },
  { suffix: "mcsv.net", name: "Mailchimp", forwarder: false },
  { suffix: "mcdlv.net", name: "Mailchimp", forwarder: false },
  { suffix: "mandrillapp.com", name: "Mailchimp Transactional", forwarder: false },
  { suffix: "sparkpostmail.com", name: "SparkPost", forwarder: false },
  { suffix: "postmarkapp.com", name: "Postmark", forwarder: false },
  { suffix: "mtasv.net", name: "Postmark", forwarder: false },
  { suffix: "zoho.com", name: "Zoho", forwarder: false },
  { suffix: "zoho.eu", name: "Zoho", forwarder: false },
  { suffix: "pphosted.com", name: "Proofpoint", forwarder: false },
  { suffix: "mimecast.com", name: "Mimecast", forwarder: false },
  { suffix: "messagelabs.com", name: "Broadcom Email Security", forwarder: false },
  { suffix: "salesforce.com", name: "Salesforce", forwarder: false },
  { suffix: "freshdesk.com", name: "Freshdesk", forwarder: false },
  { suffix: "zendesk.com", name: "Zendesk", forwarder: false },
  { suffix: "hubspotemail.net", name: "HubSpot", forwarder: false }
]

const bare = (name: string) => name.toLowerCase().replace(/\.$/, "")

/** The known provider a host name belongs to (the longest matching suffix). */
export const providerOfName = (name: string): KnownProvider | undefined => {
  const host = bare(name)
  let best: KnownProvider | undefined
  for (const p of KNOWN_PROVIDERS)
    if (
      (host === p.suffix || host.endsWith(`.${p.suffix}`)) &&
      (best === undefined || p.suffix.length > best.suffix.length)
    )
      best = p
  return best
}

export interface SpfProvider {
  /** The include's domain (or the provider's name when it is a known one). */
  readonly name: string
  readonly cidrs: ReadonlyArray<Cidr>
}

const networksOf = (node: SpfNode): Array<Cidr> => {
  const out: Array<Cidr> = []
  const visit = (n: SpfNode) => {
    // ip4: and ip6: terms of the node's record (RFC 7208 5.6), then a / mx networks resolved
    for (const m of (n.record ?? "").matchAll(/(?:^|\s)[+?~-]?ip[46]:(\S+)/gi)) {
      const cidr = parseCidr(m[1]!)
      if (cidr) out.push(cidr)
    }
    for (const text of n.networks ?? []) {
      const cidr = parseCidr(text)
      if (cidr) out.push(cidr)
    }
    n.children.forEach(visit)
  }
  visit(node)
  return out
}

/** Each `include:` (and `redirect=`) of the domain's SPF record with the networks its subtree authorises. */
export const spfProviders = (root: SpfNode): ReadonlyArray<SpfProvider> =>
  root.children
    .filter((c) => (c.type === "include" || c.type === "redirect") && c.domain !== null)
    .map((c) => ({ name: providerOfName(c.domain!)?.name ?? c.domain!, cidrs: networksOf(c) }))

/** The first SPF provider whose networks cover `ip`. */
export const spfProviderOf = (providers: ReadonlyArray<SpfProvider>, ip: string): string | undefined => {
  const parsed = parseIp(ip)
  if (!parsed) return undefined
  return providers.find((p) => p.cidrs.some((c) => contains(c, parsed)))?.name
}
