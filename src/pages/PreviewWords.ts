/** The words of the "what if" page (PreviewPage.ts), in English and Dutch (with "je", as every page). */
import type { Lang } from "./Text.ts"

const en = {
  title: "What if",
  intro:
    "Try records before you publish them: the domain is scanned as if these records replaced the live ones, everything else read live. Nothing is published and nothing is stored.",
  records: "Records to publish",
  recordsHelp:
    "One record per line: name TYPE value (for example _dmarc.example.com TXT v=DMARC1; p=reject). A record replaces every record of its type at its name. Prefilled with the live SPF, DMARC, MTA-STS, TLS-RPT and CAA records.",
  remove: "Records to remove",
  removeHelp: "One per line: name TYPE (for example www.example.com CNAME).",
  submit: "Preview",
  problem: "This cannot be previewed",
  result: "What publishing these records does",
  resultTitle: "Preview",
  previewNote: "Preview: the scan as it will be once the records above are published; not stored.",
  gradeChange: "Grade",
  live: "live",
  previewed: "previewed",
  fixed: "Issues fixed",
  created: "Issues created",
  changes: "All changes",
  none: "None.",
  nothingChanges: "Publishing these records changes nothing the scan sees.",
  notJudged:
    "DNSSEC: these records are taken as signed by the zone's signer once published; the preview cannot check their signatures:",
  liveReport: "The live report"
}

export type PreviewWords = typeof en

const nl: PreviewWords = {
  title: "Wat als",
  intro:
    "Probeer records uit voordat je ze publiceert: het domein wordt gescand alsof deze records de huidige vervangen, al het andere zoals het nu is. Er wordt niets gepubliceerd en niets bewaard.",
  records: "Te publiceren records",
  recordsHelp:
    "Eén record per regel: naam TYPE waarde (bijvoorbeeld _dmarc.example.com TXT v=DMARC1; p=reject). Een record vervangt alle records van zijn type bij zijn naam. Vooraf ingevuld met de huidige SPF-, DMARC-, MTA-STS-, TLS-RPT- en CAA-records.",
  remove: "Te verwijderen records",
  removeHelp: "Eén per regel: naam TYPE (bijvoorbeeld www.example.com CNAME).",
  submit: "Bekijk het effect",
  problem: "Dit kan niet worden bekeken",
  result: "Wat het publiceren van deze records doet",
  resultTitle: "Voorbeeld",
  previewNote:
    "Voorbeeld: de scan zoals hij wordt zodra de records hierboven zijn gepubliceerd; niet bewaard.",
  gradeChange: "Cijfer",
  live: "nu",
  previewed: "na publiceren",
  fixed: "Opgeloste problemen",
  created: "Nieuwe problemen",
  changes: "Alle wijzigingen",
  none: "Geen.",
  nothingChanges: "Het publiceren van deze records verandert niets aan wat de scan ziet.",
  notJudged:
    "DNSSEC: deze records worden na publicatie als ondertekend door de ondertekenaar van de zone beschouwd; het voorbeeld kan hun handtekeningen niet controleren:",
  liveReport: "Het actuele rapport"
}

export const previewWords = (lang: Lang): PreviewWords => (lang === "nl" ? nl : en)
