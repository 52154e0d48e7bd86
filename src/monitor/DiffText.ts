/**
 * A diff line's sentence in Dutch, built from the change's kind and values (Change.ts): the grade,
 * a check's status, an issue opened or resolved (named by the Dutch title its check declares), and
 * the checks of an area that no longer apply; a DNS record, a certificate and a blocklist listing
 * in DiffFactsText.ts. Pure.
 */
import { recordTitle } from "../report/ReportText.ts"
import { catalogue } from "../score/Catalogue.ts"
import type { Lang } from "../score/Nis2Text.ts"
import type { Change } from "./Change.ts"
import type { Area } from "./CheckAreas.ts"
import { factSentenceNl } from "./DiffFactsText.ts"

const STATUS_NL: Readonly<Record<string, string>> = {
  pass: "geslaagd",
  partial: "deels",
  fail: "onvoldoende",
  unknown: "onbekend",
  "not-applicable": "niet van toepassing"
}

const status = (value: unknown) =>
  typeof value === "string" ? (Object.hasOwn(STATUS_NL, value) ? STATUS_NL[value]! : value) : "afwezig"

const issueTitle = (change: Change) => {
  const id = change.id.replace(/^issue\//, "")
  return Object.hasOwn(catalogue, id) ? catalogue[id]!.nl.title : null
}

/** The sentence of one change in `lang`: the diff's own in English, built from its values in Dutch. */
export const changeSentence = (change: Change, lang: Lang): string => {
  if (lang === "en") return change.summary
  switch (change.kind) {
    case "grade": {
      const percent = /\((\d+)% to (\d+)%\)/.exec(change.summary)
      const moved = `van ${String(change.before)} naar ${String(change.after)}${percent ? ` (${percent[1]}% naar ${percent[2]}%)` : ""}`
      if (/because the checks made changed/.test(change.summary))
        return `Het cijfer ging ${moved} doordat de controles veranderden, niet het domein: over de controles die beide scans maakten, is het gelijk.`
      return `Het cijfer ${/dropped/.test(change.summary) ? "daalde" : "steeg"} ${moved}.`
    }
    case "check": {
      const english = /^The "(.+)" check/.exec(change.summary)?.[1] ?? change.id.replace(/^check\//, "")
      const title = recordTitle(change.id.replace(/^check\//, ""), english, lang)
      if (change.before === null)
        return `De controle "${title}" werd toen niet gemaakt (de dienst heeft haar sindsdien toegevoegd); nu: ${status(change.after)}.`
      if (change.after === null)
        return `De controle "${title}" wordt niet meer gemaakt (de dienst heeft haar verwijderd); toen: ${status(change.before)}.`
      return `De controle "${title}" ging van ${status(change.before)} naar ${status(change.after)}.`
    }
    case "issue-opened": {
      const title = issueTitle(change)
      return title === null ? change.summary : `Nieuw probleem: ${title}.`
    }
    case "issue-closed": {
      const title = issueTitle(change)
      return title === null ? change.summary : `Opgelost: ${title}.`
    }
    default:
      return factSentenceNl(change) ?? change.summary
  }
}

const GONE_NL: Readonly<Record<Area["key"], string | undefined>> = {
  web: "De website is verdwenen",
  mail: "Het domein heeft geen mailserver meer",
  dnssec: undefined,
  other: undefined
}

const NOUN_NL: Readonly<Record<Area["key"], string>> = {
  web: "webcontrole",
  mail: "mailcontrole",
  dnssec: "DNSSEC-controle",
  other: "controle"
}

/** "De website is verdwenen: 11 webcontroles zijn niet meer van toepassing." and its kin. */
export const groupSentence = (
  area: Area,
  n: number,
  gone: boolean,
  othersToo: boolean,
  lang: Lang
): string => {
  if (lang === "en") {
    const noun = area.key === "other" && othersToo ? "other" : area.noun
    const count = `${n} ${noun === "" ? "" : `${noun} `}check${n === 1 ? "" : "s"}`
    return gone && area.goneSentence !== undefined
      ? `${area.goneSentence}: ${count} no longer apply.`
      : `No longer applicable: ${count}.`
  }
  const noun = area.key === "other" && othersToo ? "andere controle" : NOUN_NL[area.key]
  const count = `${n} ${noun}${n === 1 ? "" : "s"}`
  const sentence = GONE_NL[area.key]
  return gone && sentence !== undefined
    ? `${sentence}: ${count} ${n === 1 ? "is" : "zijn"} niet meer van toepassing.`
    : `Niet meer van toepassing: ${count}.`
}
