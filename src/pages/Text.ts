/**
 * Every word the pages themselves say, in English and Dutch, and how a request picks its language:
 * `?lang=` when it names one we have, else the best of the `Accept-Language` list (RFC 9110
 * §12.5.4: the highest quality first, ties in the order given), else English.
 *
 * The findings' names and their guidance are in the page's language (each check declares them in
 * English and Dutch); the checks' details are written once, in English, and a Dutch page says so. The NIS2 scorecard is translated by the score (Nis2Text.ts).
 */
import { Languages, type Lang } from "../score/Nis2Text.ts"
import { receivedWords } from "./ReceivedText.ts"

export { type Lang } from "../score/Nis2Text.ts"

const isLang = (value: string): value is Lang => (Languages as ReadonlyArray<string>).includes(value)

/** The language of a request: the `lang` query value, else the Accept-Language header, else en. */
export const pickLang = (query: string | undefined, acceptLanguage: string | undefined): Lang => {
  const asked = query?.trim().toLowerCase()
  if (asked !== undefined && isLang(asked)) return asked
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .slice(0, 20)
    .map((item, index) => {
      const [range = "", ...params] = item.trim().split(";")
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)).find((m) => m !== null)
      return { tag: range.trim().toLowerCase().split("-")[0]!, q: q ? Number(q[1]) : 1, index }
    })
    .filter((r) => r.q > 0 && isLang(r.tag))
    .sort((a, b) => b.q - a.q || a.index - b.index)
  const best = ranked[0]?.tag
  return best !== undefined && isLang(best) ? best : "en"
}

const en = {
  siteName: "domain-audit",
  skip: "Skip to content",
  navHome: "Check a domain",
  navDocs: "API documentation",
  /** The language switch's label: the other language, in its own words. */
  language: "Nederlands",
  homeTitle: "Check a domain",
  homeIntro:
    "One scan looks at a domain's DNS and DNSSEC, its e-mail authentication (SPF, DKIM, DMARC, BIMI), how its mail servers encrypt, and its web security headers, then grades it and says what to fix.",
  domainLabel: "Domain name",
  domainHint: "For example example.com; a URL works too.",
  check: "Check",
  hallTitle: "Recently graded A+",
  hallEmpty: "No domain has reached A+ here yet.",
  reportTitle: "Security report",
  liveNote: "Live report, from checks that ran at",
  grade: "Grade",
  score: "Score",
  categories: "Categories",
  category: "Category",
  points: "Points",
  status: "Status",
  summary: "Summary",
  sections: "Sections",
  section: "Section",
  findings: "Findings",
  issues: "What to fix",
  noIssues: "Nothing to fix: every check that could run passed.",
  fixOrder: "Most points regained first, then the most severe.",
  forInformation: "For information",
  requiredBy: "Required of bulk senders by",
  severity: "Severity",
  why: "Why it matters",
  steps: "What to do",
  providers: "Notes for your provider",
  record: "The record to publish",
  generator: "This service writes it for you",
  sources: "Sources",
  facts: "What we saw",
  fact: "Item",
  value: "Value",
  checks: "Checks",
  check_: "Check",
  detail: "Detail",
  notFinished: "This check could not finish:",
  evidence: "Evidence",
  records: "DNS records",
  recordType: "Type",
  recordData: "Value",
  spfTree: "SPF include tree",
  spfNone: "No SPF record was found.",
  lookups: "lookups",
  dnssecChain: "DNSSEC chain of trust",
  dnssecNone: "The zone publishes no DNSSEC keys.",
  mxTls: "Mail servers and their encryption",
  mxNone: "No mail server was found.",
  server: "Server",
  address: "Address",
  tls: "TLS",
  certificate: "Certificate",
  validUntil: "valid until",
  keyRole: "Role",
  keyTag: "Key tag",
  algorithm: "Algorithm",
  dsMatch: "Matches DS",
  yes: "yes",
  no: "no",
  actions: "Keep this report",
  snapshotCreate: "Create a snapshot",
  snapshotHelp:
    "A snapshot stores this report as it is now, with a content hash, at a permanent address you can send to others.",
  permalink: "Permalink to this live report",
  formats: "Other formats",
  json: "JSON",
  pdf: "PDF",
  markdown: "Markdown",
  nis2Link: "NIS2 readiness",
  snapshotTitle: "Snapshot",
  snapshotOf: "Stored snapshot of the report for",
  snapshotCreated: "Stored at",
  contentHash: "Content hash",
  snapshotId: "Snapshot id",
  verifyTitle: "How to verify this snapshot",
  verifyIntro:
    "The hash covers the report's JSON without its evidence block, in RFC 8785 canonical form. Anyone can recompute it:",
  verifyStep1: "Download the snapshot's JSON:",
  verifyStep2: "Remove the top-level evidence member.",
  verifyStep3: "Serialise the rest with RFC 8785 (JSON Canonicalization Scheme).",
  verifyStep4: "Compute SHA-256 over the UTF-8 bytes; it must equal the content hash above.",
  verifyRecipe:
    "Or run these lines (Node 18 or later, nothing to install); they print verified or MISMATCH. The command domain-audit verify does the same with a URL or a saved copy.",
  verifySignature:
    "The snapshot is also signed by this service (Ed25519, a JWS with detached payload over the same bytes as the hash). The domain-audit command checks the hash and the signature against the keys this service publishes; a copy changed or signed by another key fails:",
  retention: "Retention",
  nis2Title: "NIS2 readiness",
  nis2Total: "Total",
  measure: "Measure",
  weight: "Weight",
  criticalGaps: "Critical gaps",
  noGaps: "None",
  result: "Result",
  fixes: "Fixes",
  historyTitle: "History",
  historyChart: "Score over time",
  chainValid: "The hash chain of this history verifies.",
  chainInvalid: "The hash chain does not verify from entry",
  scannedAt: "Scanned at",
  changes: "What changed",
  noChanges: "Nothing changed between the scans kept.",
  whichChecks: "Which checks",
  unchangedScans: (n: number) => `${n} scans, nothing changed`,
  englishOnly: "",
  notFoundTitle: "Page not found",
  notFoundText: "There is no page at this address.",
  invalidTitle: "Not a domain we can check",
  nxTitle: "This domain does not exist",
  nxText: "The DNS says the name does not exist (NXDOMAIN), so there is nothing to grade.",
  unscannableTitle: "This domain could not be checked",
  unscannableText:
    "The scan could not finish. Nothing is known to be wrong with the domain; try again later.",
  reason: "Reason",
  busyTitle: "Too busy right now",
  busyText: "The service is handling as much as it can. Try again in a little while.",
  rateTitle: "Too many requests",
  rateText: "You have asked for more than the service allows from one address. Try again in",
  seconds: "seconds",
  historyMissingTitle: "No history for this domain",
  historyMissingText:
    "The service keeps the history of the domains someone monitors or has verified (and, where the operator chose, of every domain checked); this domain has none yet.",
  historyPrivateTitle: "This history is private",
  historyPrivateText: (domain: string) =>
    `The history of ${domain} belongs to whoever has verified the domain. Read it over the API with an API key that has the history scope (GET /api/history/${domain}).`,
  snapshotMissingTitle: "No such snapshot",
  errorTitle: "Something went wrong",
  tryAgain: "Check another domain",
  received: receivedWords.en,
  statusWord: {
    pass: "Pass",
    partial: "Partly",
    fail: "Fail",
    "not-applicable": "Not applicable",
    unknown: "Unknown",
    warning: "Warning",
    missing: "Missing",
    compliant: "Compliant",
    "non-compliant": "Not compliant",
    unscannable: "Not scannable"
  } as Readonly<Record<string, string>>,
  severityWord: {
    critical: "Critical",
    high: "High",
    medium: "Medium",
    low: "Low",
    info: "Information"
  } as Readonly<Record<string, string>>
}

export type Words = typeof en

const nl: Words = {
  siteName: "domain-audit",
  skip: "Naar de inhoud",
  navHome: "Domein controleren",
  navDocs: "API-documentatie",
  language: "English",
  homeTitle: "Domein controleren",
  homeIntro:
    "Eén scan bekijkt de DNS en DNSSEC van een domein, de e-mailauthenticatie (SPF, DKIM, DMARC, BIMI), hoe de mailservers versleutelen en de beveiligingsheaders van de website, geeft een cijfer en zegt wat er te verbeteren is.",
  domainLabel: "Domeinnaam",
  domainHint: "Bijvoorbeeld example.nl; een URL mag ook.",
  check: "Controleren",
  hallTitle: "Onlangs A+ behaald",
  hallEmpty: "Nog geen enkel domein heeft hier A+ behaald.",
  reportTitle: "Beveiligingsrapport",
  liveNote: "Actueel rapport, van controles uitgevoerd op",
  grade: "Cijfer",
  score: "Score",
  categories: "Categorieën",
  category: "Categorie",
  points: "Punten",
  status: "Status",
  summary: "Samenvatting",
  sections: "Onderdelen",
  section: "Onderdeel",
  findings: "Bevindingen",
  issues: "Wat te verbeteren",
  noIssues: "Niets te verbeteren: elke controle die kon draaien, is geslaagd.",
  fixOrder: "Wat de meeste punten oplevert eerst, daarna het ernstigste.",
  forInformation: "Ter informatie",
  requiredBy: "Vereist voor bulkverzenders door",
  severity: "Ernst",
  why: "Waarom het ertoe doet",
  steps: "Wat te doen",
  providers: "Aanwijzingen per aanbieder",
  record: "Het record om te publiceren",
  generator: "Deze dienst schrijft het voor je",
  sources: "Bronnen",
  facts: "Wat we zagen",
  fact: "Onderdeel",
  value: "Waarde",
  checks: "Controles",
  check_: "Controle",
  detail: "Toelichting",
  notFinished: "Deze controle kon niet worden afgerond:",
  evidence: "Bewijs",
  records: "DNS-records",
  recordType: "Type",
  recordData: "Waarde",
  spfTree: "SPF-includeboom",
  spfNone: "Er is geen SPF-record gevonden.",
  lookups: "lookups",
  dnssecChain: "DNSSEC-vertrouwensketen",
  dnssecNone: "De zone publiceert geen DNSSEC-sleutels.",
  mxTls: "Mailservers en hun versleuteling",
  mxNone: "Er is geen mailserver gevonden.",
  server: "Server",
  address: "Adres",
  tls: "TLS",
  certificate: "Certificaat",
  validUntil: "geldig tot",
  keyRole: "Rol",
  keyTag: "Sleutellabel",
  algorithm: "Algoritme",
  dsMatch: "Past bij DS",
  yes: "ja",
  no: "nee",
  actions: "Dit rapport bewaren",
  snapshotCreate: "Momentopname maken",
  snapshotHelp:
    "Een momentopname bewaart dit rapport zoals het nu is, met een inhoudshash, op een vast adres dat je kunt doorsturen.",
  permalink: "Vaste link naar dit actuele rapport",
  formats: "Andere formaten",
  json: "JSON",
  pdf: "PDF",
  markdown: "Markdown",
  nis2Link: "NIS2-gereedheid",
  snapshotTitle: "Momentopname",
  snapshotOf: "Bewaarde momentopname van het rapport voor",
  snapshotCreated: "Bewaard op",
  contentHash: "Inhoudshash",
  snapshotId: "Id van de momentopname",
  verifyTitle: "Zo controleer je deze momentopname",
  verifyIntro:
    "De hash dekt de JSON van het rapport zonder het evidence-blok, in de canonieke vorm van RFC 8785. Iedereen kan hem narekenen:",
  verifyStep1: "Download de JSON van de momentopname:",
  verifyStep2: "Verwijder het evidence-onderdeel op het hoogste niveau.",
  verifyStep3: "Serialiseer de rest volgens RFC 8785 (JSON Canonicalization Scheme).",
  verifyStep4: "Bereken SHA-256 over de UTF-8-bytes; die moet gelijk zijn aan de inhoudshash hierboven.",
  verifyRecipe:
    "Of voer deze regels uit (Node 18 of nieuwer, niets te installeren); ze melden verified of MISMATCH. De opdracht domain-audit verify doet hetzelfde met een URL of een bewaarde kopie.",
  verifySignature:
    "De momentopname is ook ondertekend door deze dienst (Ed25519, een JWS met losse payload over dezelfde bytes als de hash). De opdracht domain-audit controleert de hash en de handtekening met de sleutels die deze dienst publiceert; een gewijzigde of met een andere sleutel ondertekende kopie faalt:",
  retention: "Bewaartermijn",
  nis2Title: "NIS2-gereedheid",
  nis2Total: "Totaal",
  measure: "Maatregel",
  weight: "Gewicht",
  criticalGaps: "Kritieke tekortkomingen",
  noGaps: "Geen",
  result: "Uitkomst",
  fixes: "Oplossingen",
  historyTitle: "Geschiedenis",
  historyChart: "Score in de tijd",
  chainValid: "De hashketen van deze geschiedenis klopt.",
  chainInvalid: "De hashketen klopt niet vanaf item",
  scannedAt: "Gescand op",
  changes: "Wat er veranderde",
  noChanges: "Tussen de bewaarde scans is niets veranderd.",
  whichChecks: "Welke controles",
  unchangedScans: (n: number) => `${n} scans, niets veranderd`,
  englishOnly:
    "De toelichting bij elke controle en de gemeten gegevens zijn alleen in het Engels beschikbaar.",
  notFoundTitle: "Pagina niet gevonden",
  notFoundText: "Op dit adres staat geen pagina.",
  invalidTitle: "Geen domein dat we kunnen controleren",
  nxTitle: "Dit domein bestaat niet",
  nxText: "Volgens de DNS bestaat deze naam niet (NXDOMAIN), dus er valt niets te beoordelen.",
  unscannableTitle: "Dit domein kon niet worden gecontroleerd",
  unscannableText:
    "De scan kon niet worden afgerond. Er is niets bekend dat mis is met het domein; probeer het later opnieuw.",
  reason: "Reden",
  busyTitle: "Het is nu te druk",
  busyText: "De dienst doet zoveel als hij kan. Probeer het over een poosje opnieuw.",
  rateTitle: "Te veel verzoeken",
  rateText: "Je vroeg meer dan de dienst vanaf één adres toestaat. Probeer het opnieuw over",
  seconds: "seconden",
  historyMissingTitle: "Geen geschiedenis voor dit domein",
  historyMissingText:
    "De dienst bewaart de geschiedenis van domeinen die iemand bewaakt of heeft geverifieerd (en, als de beheerder dat koos, van elk gecontroleerd domein); van dit domein is er nog geen.",
  historyPrivateTitle: "Deze geschiedenis is privé",
  historyPrivateText: (domain: string) =>
    `De geschiedenis van ${domain} hoort bij wie het domein heeft geverifieerd. Lees haar via de API met een API-sleutel met de scope history (GET /api/history/${domain}).`,
  snapshotMissingTitle: "Deze momentopname bestaat niet",
  errorTitle: "Er ging iets mis",
  tryAgain: "Een ander domein controleren",
  received: receivedWords.nl,
  statusWord: {
    pass: "Geslaagd",
    partial: "Gedeeltelijk",
    fail: "Onvoldoende",
    "not-applicable": "Niet van toepassing",
    unknown: "Onbekend",
    warning: "Waarschuwing",
    missing: "Ontbreekt",
    compliant: "Voldoet",
    "non-compliant": "Voldoet niet",
    unscannable: "Niet te scannen"
  },
  severityWord: {
    critical: "Kritiek",
    high: "Hoog",
    medium: "Middel",
    low: "Laag",
    info: "Informatie"
  }
}

/** The words of `lang`. */
export const words = (lang: Lang): Words => (lang === "nl" ? nl : en)
