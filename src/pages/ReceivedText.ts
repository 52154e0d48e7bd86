/**
 * The words of the report page's "Reports received" section (ReceivedBlock.ts), in English and
 * Dutch; Text.ts gives them to every page as `words(lang).received`.
 */

const en = {
  title: "Reports received",
  intro: (from: string, to: string) =>
    `What the reports mail receivers sent to this service say about this domain's mail, from ${from} to ${to}. A scan sees what the domain publishes; these reports show what happened to its mail.`,
  dmarcTitle: "DMARC aggregate reports",
  tlsTitle: "TLS reports (SMTP TLS Reporting)",
  reports: "Reports",
  from: "from",
  messages: "Messages",
  passing: "Passing DMARC",
  sources: "Sending sources",
  source: "Source",
  ptr: "Reverse name (PTR)",
  provider: "Provider",
  forwarder: "forwarder",
  ofTotal: (shown: number, total: number) => `The busiest ${shown} of ${total} sources.`,
  readyTitle: "Ready for p=reject?",
  ready:
    "Yes. Every source whose mail failed DMARC in this period is unknown (most likely spoofing) or a forwarder: a policy of p=reject would have lost no legitimate mail seen here.",
  notReady: (n: number) =>
    `Not yet. ${n} legitimate-looking source${n === 1 ? "" : "s"} send${n === 1 ? "s" : ""} mail that fails DMARC; under p=reject receivers would refuse it. Align ${n === 1 ? "it" : "them"} first:`,
  readyAtReject:
    "Yes, and it publishes p=reject already: no legitimate-looking source had its mail fail DMARC in this period.",
  notReadyAtReject: (n: number) =>
    `It publishes p=reject already, so receivers refuse this mail now: ${n} legitimate-looking source${n === 1 ? "" : "s"} send${n === 1 ? "s" : ""} mail that fails DMARC. Align ${n === 1 ? "it" : "them"}:`,
  noData: "Not known: no report counted any message in this period.",
  blockers: "Sources that block p=reject",
  align: "What to align",
  sessions: "TLS sessions",
  successful: "successful",
  failed: "failed",
  failuresByType: "Failures by result type",
  resultType: "Result type",
  failuresByMx: "Failures by mail server",
  policies: "By policy",
  policy: "Policy",
  fullDmarc: "The full DMARC summary",
  fullTls: "The full TLS summary",
  successfulHead: "Successful",
  failedHead: "Failed",
  noneDmarc: "No DMARC aggregate report for this period reached this service.",
  noneTls: "No TLS report for this period reached this service.",
  failureReports: (n: number) => `DMARC failure reports in this period: ${n}.`,
  failureSummary: "The failure report summary",
  askedAt: "The domain asks for them at:",
  askedAtHint: "Point one of these addresses at this service to see them here.",
  howDmarc: (domain: string) =>
    `Its DMARC record asks for none. Add rua=mailto: with an address whose mail reaches this service to the record at _dmarc.${domain}; receivers then send a report a day.`,
  howTls: (domain: string) =>
    `It publishes no TLS-RPT record. Publish v=TLSRPTv1; rua=mailto: with an address whose mail reaches this service at _smtp._tls.${domain}; sending servers then report on their TLS sessions daily.`,
  orPost: "Reports can also be posted to this service:",
  qualityTitle: "Report quality",
  quality: (repaired: number, conflicts: number, unclassified: number) =>
    `${repaired} report${repaired === 1 ? "" : "s"} needed a repair to be read; ${conflicts} report identit${conflicts === 1 ? "y" : "ies"} arrived with differing contents (kept and counted: a forgery or a corrected re-send); ${unclassified} source${unclassified === 1 ? "" : "s"} whose mail fails DMARC could not be classified because a look-up failed.`,
  noDataLookups: (n: number) =>
    `Not known: reports were received, but ${n} source${n === 1 ? "" : "s"} whose mail fails DMARC could not be classified because the look-ups that tell a legitimate sender from a spoofer failed (PTR, SPF includes). No verdict until they answer.`,
  unclassified: "Sources that could not be classified",
  why: "Why",
  byHeaderFrom: "Mail by header-from domain",
  headerFrom: "Header From",
  failingHead: "Failing DMARC",
  daily: "Day by day (UTC)",
  day: "Day",
  failingIdentities: "Identities that failed, per source",
  method: "Method",
  domain: "Domain",
  selector: "Selector",
  result: "Result",
  policySeen: "Policy as receivers saw it published",
  policyDisagree:
    "Receivers disagree: the policy changed during the period, or one of them used a stale copy.",
  reporters: "Reporters",
  failureDetails: "Failures as senders described them",
  reasonCode: "Reason code",
  sendingMta: "Sending server",
  receivingMx: "Receiving MX",
  helo: "MX HELO name",
  receivingIp: "Receiving IP",
  exceeding: (reportId: string, reporter: string, details: number, total: number) =>
    `Not to be taken at its word: report ${reportId} from ${reporter} details ${details} failed sessions, more than the ${total} it counts in all (RFC 8460 4.3).`,
  tlsConflicts: (n: number) =>
    `${n} report identit${n === 1 ? "y" : "ies"} arrived with differing contents (kept and counted): a forgery or a corrected re-send.`,
  private:
    "The reports received for this domain are private: only its owners read them. An owner (an account that has verified the domain) may publish them here."
}

const nl: typeof en = {
  title: "Ontvangen rapporten",
  intro: (from: string, to: string) =>
    `Wat de rapporten die ontvangende mailservers naar deze dienst stuurden zeggen over de mail van dit domein, van ${from} tot ${to}. Een scan ziet wat het domein publiceert; deze rapporten tonen wat er met de mail gebeurde.`,
  dmarcTitle: "DMARC-verzamelrapporten",
  tlsTitle: "TLS-rapporten (SMTP TLS Reporting)",
  reports: "Rapporten",
  from: "van",
  messages: "Berichten",
  passing: "Slaagt voor DMARC",
  sources: "Verzendende bronnen",
  source: "Bron",
  ptr: "Omgekeerde naam (PTR)",
  provider: "Aanbieder",
  forwarder: "doorstuurder",
  ofTotal: (shown: number, total: number) => `De drukste ${shown} van ${total} bronnen.`,
  readyTitle: "Klaar voor p=reject?",
  ready:
    "Ja. Elke bron waarvan mail in deze periode niet door DMARC kwam, is onbekend (vrijwel zeker vervalsing) of een doorstuurder: met p=reject was hier geen legitieme mail verloren gegaan.",
  notReady: (n: number) =>
    `Nog niet. ${n} legitiem ogende bron${n === 1 ? "" : "nen"} ${n === 1 ? "verstuurt" : "versturen"} mail die niet door DMARC komt; met p=reject zouden ontvangers die weigeren. Breng ${n === 1 ? "die" : "ze"} eerst in lijn:`,
  readyAtReject:
    "Ja, en het publiceert al p=reject: van geen enkele legitiem ogende bron kwam in deze periode mail niet door DMARC.",
  notReadyAtReject: (n: number) =>
    `Het publiceert al p=reject, dus ontvangers weigeren deze mail nu: ${n} legitiem ogende bron${n === 1 ? "" : "nen"} ${n === 1 ? "verstuurt" : "versturen"} mail die niet door DMARC komt. Breng ${n === 1 ? "die" : "ze"} in lijn:`,
  noData: "Onbekend: geen rapport telde een bericht in deze periode.",
  blockers: "Bronnen die p=reject in de weg staan",
  align: "Wat in lijn te brengen",
  sessions: "TLS-sessies",
  successful: "geslaagd",
  failed: "mislukt",
  failuresByType: "Mislukkingen per soort",
  resultType: "Soort",
  failuresByMx: "Mislukkingen per mailserver",
  policies: "Per beleid",
  policy: "Beleid",
  fullDmarc: "Het volledige DMARC-overzicht",
  fullTls: "Het volledige TLS-overzicht",
  successfulHead: "Geslaagd",
  failedHead: "Mislukt",
  noneDmarc: "Er kwam voor deze periode geen DMARC-verzamelrapport bij deze dienst binnen.",
  noneTls: "Er kwam voor deze periode geen TLS-rapport bij deze dienst binnen.",
  failureReports: (n: number) => `DMARC-foutrapporten in deze periode: ${n}.`,
  failureSummary: "Het overzicht van de foutrapporten",
  askedAt: "Het domein vraagt ze aan op:",
  askedAtHint: "Laat een van deze adressen bij deze dienst uitkomen om ze hier te zien.",
  howDmarc: (domain: string) =>
    `Het DMARC-record vraagt er geen aan. Voeg rua=mailto: toe aan het record op _dmarc.${domain}, met een adres waarvan de mail bij deze dienst uitkomt; ontvangers sturen dan dagelijks een rapport.`,
  howTls: (domain: string) =>
    `Het domein publiceert geen TLS-RPT-record. Publiceer v=TLSRPTv1; rua=mailto: met een adres waarvan de mail bij deze dienst uitkomt op _smtp._tls.${domain}; verzendende servers rapporteren dan dagelijks over hun TLS-sessies.`,
  orPost: "Rapporten kunnen ook naar deze dienst worden gepost:",
  qualityTitle: "Kwaliteit van de rapporten",
  quality: (repaired: number, conflicts: number, unclassified: number) =>
    `${repaired} rapport${repaired === 1 ? "" : "en"} moest${repaired === 1 ? "" : "en"} worden hersteld om te kunnen lezen; ${conflicts} rapportidentiteit${conflicts === 1 ? "" : "en"} kwam${conflicts === 1 ? "" : "en"} met verschillende inhoud binnen (bewaard en meegeteld: een vervalsing of een verbeterde herzending); ${unclassified} bron${unclassified === 1 ? "" : "nen"} met mail die niet door DMARC komt, kon${unclassified === 1 ? "" : "den"} niet worden beoordeeld omdat een opzoeking mislukte.`,
  noDataLookups: (n: number) =>
    `Onbekend: er kwamen rapporten binnen, maar ${n} bron${n === 1 ? "" : "nen"} met mail die niet door DMARC komt, kon${n === 1 ? "" : "den"} niet worden beoordeeld omdat de opzoekingen die een legitieme afzender van een vervalser onderscheiden mislukten (PTR, SPF-includes). Geen oordeel tot ze antwoorden.`,
  unclassified: "Bronnen die niet te beoordelen waren",
  why: "Waarom",
  byHeaderFrom: "Mail per afzenderdomein (Header From)",
  headerFrom: "Afzenderdomein (Header From)",
  failingHead: "Zakt voor DMARC",
  daily: "Per dag (UTC)",
  day: "Dag",
  failingIdentities: "Mislukte identiteiten per bron",
  method: "Methode",
  domain: "Domein",
  selector: "Selector",
  result: "Resultaat",
  policySeen: "Beleid zoals ontvangers het gepubliceerd zagen",
  policyDisagree:
    "Ontvangers zijn het oneens: het beleid veranderde in deze periode, of een van hen gebruikte een verouderde kopie.",
  reporters: "Rapporteurs",
  failureDetails: "Mislukkingen zoals verzenders ze beschreven",
  reasonCode: "Redencode",
  sendingMta: "Verzendende server",
  receivingMx: "Ontvangende MX",
  helo: "HELO-naam van de MX",
  receivingIp: "Ontvangend IP-adres",
  exceeding: (reportId: string, reporter: string, details: number, total: number) =>
    `Niet op zijn woord te nemen: rapport ${reportId} van ${reporter} beschrijft ${details} mislukte sessies, meer dan de ${total} die het in totaal telt (RFC 8460 4.3).`,
  tlsConflicts: (n: number) =>
    `${n} rapportidentiteit${n === 1 ? "" : "en"} kwam${n === 1 ? "" : "en"} met verschillende inhoud binnen (bewaard en meegeteld): een vervalsing of een verbeterde herzending.`,
  private:
    "De ontvangen rapporten van dit domein zijn privé: alleen de eigenaren lezen ze. Een eigenaar (een account dat het domein heeft geverifieerd) kan ze hier publiceren."
}

export const receivedWords = { en, nl }
