/**
 * The Dutch sentence of a change to one of the facts DiffFacts.ts compares (a DNS record, a mail
 * server's certificate, a blocklist listing), built from the change's id and values as the English
 * one is: the history page, the evidence and a Dutch monitor's alerts read it. Pure.
 */
import type { Change, Json } from "./Change.ts"
import { sentence, show } from "./DiffFacts.ts"

const value = (v: Json | null) => show(v, "geen")

/** How a record's change id is named in Dutch (the English labels of DiffFacts.ts). */
const RECORD_NL: Readonly<Record<string, string>> = {
  "record/spf": "Het SPF-record",
  "record/dmarc": "Het DMARC-record",
  "record/mx": "De MX-set",
  "record/caa": "De CAA-recordset",
  "record/ns": "De nameserverset (NS)",
  "record/mta-sts-id": "Het id van het MTA-STS-beleid"
}

const recordLabel = (id: string): string | null =>
  id.startsWith("record/tlsa/")
    ? `Het TLSA-record van ${id.slice("record/tlsa/".length)}`
    : Object.hasOwn(RECORD_NL, id)
      ? RECORD_NL[id]!
      : null

/** Added, removed or changed, as DiffFacts.ts's `recordWords` says it in English. */
const recordSentence = (label: string, before: Json | null, after: Json | null) =>
  before === null
    ? sentence(`${label} is toegevoegd: ${value(after)}`)
    : after === null
      ? `${label} is verwijderd (was: ${value(before)}).`
      : sentence(`${label} is gewijzigd van ${value(before)} naar ${value(after)}`)

const dmarcPolicy = (before: Json | null, after: Json | null) =>
  before === null
    ? sentence(`Er is een DMARC-beleid gepubliceerd: ${value(after)}`)
    : after === null
      ? `Het DMARC-beleid is verwijderd (was: ${value(before)}).`
      : sentence(`Het DMARC-beleid ging van ${value(before)} naar ${value(after)}`)

const dkim = (selector: string, before: Json | null, after: Json | null) =>
  before === null
    ? `Er is een DKIM-sleutel gevonden onder selector ${selector}.`
    : after === null
      ? `De DKIM-sleutel onder selector ${selector} is verdwenen.`
      : `De DKIM-sleutel onder selector ${selector} is vervangen.`

const certificate = (id: string, before: Json | null, after: Json | null) => {
  const [, host, field] = id.split("/")
  return field === "issuer"
    ? `Het certificaat van ${host} is nu uitgegeven door ${value(after)} (was: ${value(before)}).`
    : `Het certificaat van ${host} verloopt nu op ${value(after).slice(0, 10)} (was: ${value(before).slice(0, 10)}).`
}

const isRecord = (v: Json | null): v is { readonly [key: string]: Json } =>
  v !== null && typeof v === "object" && !Array.isArray(v)

/** The list and host a listing names (DiffFacts.ts's blocklist facts). */
const listingOf = (v: Json | null): { readonly list: string; readonly host: string } | null =>
  isRecord(v) && typeof v.list === "string" && typeof v.host === "string"
    ? { list: v.list, host: v.host }
    : null

const blocklist = (id: string, before: Json | null, after: Json | null) => {
  const listing = listingOf(after) ?? listingOf(before)
  if (listing === null) return null
  const server = `mailserver ${listing.host} (${id.split("/")[1]})`
  return after === null
    ? `De ${server} staat niet meer op ${listing.list}.`
    : before === null
      ? `De ${server} staat nu op ${listing.list}.`
      : `De vermelding van de ${server} op ${listing.list} is gewijzigd.`
}

/** The Dutch sentence of a record, certificate or blocklist change; null for any other. */
export const factSentenceNl = (change: Change): string | null => {
  const { id, before, after } = change
  switch (change.kind) {
    case "record": {
      if (id === "record/dmarc-policy") return dmarcPolicy(before, after)
      if (id.startsWith("record/dkim/")) return dkim(id.slice("record/dkim/".length), before, after)
      const label = recordLabel(id)
      return label === null ? null : recordSentence(label, before, after)
    }
    case "certificate":
      return certificate(id, before, after)
    case "blocklist":
      return blocklist(id, before, after)
    default:
      return null
  }
}
