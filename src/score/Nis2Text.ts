/**
 * The one translation table of the NIS2 scorecard: every string a person reads, in English and
 * Dutch. `test/score/nis2Text.test.ts` fails when a key lacks a language or a text is empty.
 *
 * Measure descriptions quote Article 21(2) of Directive (EU) 2022/2555: the English and the Dutch
 * language versions as published in the Official Journal (OJ L 333, 27.12.2022). They were written
 * down without network access and must be checked against EUR-Lex (CELEX 32022L2555) before a
 * release; docs/nis2.md "Sources" says which lines were seen verbatim elsewhere. The Dutch
 * Cyberbeveiligingswet repeats the list under its own duty of care (zorgplicht; reported as art. 21
 * lid 3, to be verified against the enacted text), so the scorecard cites only the Directive.
 *
 * Fix texts are the issue catalogue's (English) with Dutch in `Nis2Fixes.ts`.
 */
import type { MeasureId } from "./Nis2Mapping.ts"

export const Languages = ["en", "nl"] as const
export type Lang = (typeof Languages)[number]

/** One text in every language. */
export type Text = { readonly [L in Lang]: string }

export interface MeasureText {
  /** A short name (our wording, taken from the official text). */
  readonly label: Text
  /** The Directive's own words for the point, Article 21(2)(x). */
  readonly description: Text
  /** What a domain scan can and cannot show of this measure. */
  readonly scope: Text
}

export const MEASURE_TEXT: { readonly [M in MeasureId]: MeasureText } = {
  a: {
    label: {
      en: "Risk analysis and information system security policies",
      nl: "Risicoanalyse- en informatiebeveiligingsbeleid"
    },
    description: {
      en: "policies on risk analysis and information system security",
      nl: "beleid inzake risicoanalyse en beveiliging van informatiesystemen"
    },
    scope: {
      en: "Policies are documents and decisions inside the organisation: a domain scan cannot see them.",
      nl: "Beleid bestaat uit documenten en besluiten binnen de organisatie: een domeinscan kan die niet zien."
    }
  },
  b: {
    label: { en: "Incident handling", nl: "Incidentenbehandeling" },
    description: { en: "incident handling", nl: "incidentenbehandeling" },
    scope: {
      en: "We see only whether the domain asks for reports of spoofed mail (DMARC rua) and failed encrypted deliveries (TLS-RPT), which feed incident detection; the incident process itself is invisible.",
      nl: "We zien alleen of het domein rapporten vraagt over vervalste mail (DMARC rua) en mislukte versleutelde afleveringen (TLS-RPT), die incidentdetectie voeden; het incidentproces zelf is onzichtbaar."
    }
  },
  c: {
    label: { en: "Business continuity and crisis management", nl: "Bedrijfscontinuïteit en crisisbeheer" },
    description: {
      en: "business continuity, such as backup management and disaster recovery, and crisis management",
      nl: "bedrijfscontinuïteit, zoals back-upbeheer en noodvoorzieningsplannen, en crisisbeheer"
    },
    scope: {
      en: "We see only the redundancy of the domain's name servers and whether its DNS and mail routing resolve; backups, recovery plans and crisis management are invisible.",
      nl: "We zien alleen de redundantie van de nameservers van het domein en of de DNS en de mailroutering werken; back-ups, herstelplannen en crisisbeheer zijn onzichtbaar."
    }
  },
  d: {
    label: { en: "Supply chain security", nl: "Beveiliging van de toeleveringsketen" },
    description: {
      en: "supply chain security, including security-related aspects concerning the relationships between each entity and its direct suppliers or service providers",
      nl: "beveiliging van de toeleveringsketen, met inbegrip van beveiligingsgerelateerde aspecten met betrekking tot de relaties tussen elke entiteit en haar rechtstreekse leveranciers of dienstverleners"
    },
    scope: {
      en: "We see only whether the domain restricts which certificate authorities (suppliers of its certificates) may issue for it; supplier contracts and assessments are invisible.",
      nl: "We zien alleen of het domein beperkt welke certificaatautoriteiten (leveranciers van zijn certificaten) voor het domein mogen uitgeven; contracten met en beoordelingen van leveranciers zijn onzichtbaar."
    }
  },
  e: {
    label: {
      en: "Security in acquisition, development and maintenance",
      nl: "Beveiliging bij verwerving, ontwikkeling en onderhoud"
    },
    description: {
      en: "security in network and information systems acquisition, development and maintenance, including vulnerability handling and disclosure",
      nl: "beveiliging bij het verwerven, ontwikkelen en onderhouden van netwerk- en informatiesystemen, met inbegrip van de behandeling en bekendmaking van kwetsbaarheden"
    },
    scope: {
      en: "We see maintenance signals of the public services: DNSSEC signatures kept fresh with current algorithms, and the web site's hardening headers; the development process and vulnerability handling are invisible.",
      nl: "We zien onderhoudssignalen van de publieke diensten: DNSSEC-handtekeningen die tijdig vernieuwd worden met actuele algoritmen, en de beveiligingsheaders van de website; het ontwikkelproces en de behandeling van kwetsbaarheden zijn onzichtbaar."
    }
  },
  f: {
    label: {
      en: "Assessing the effectiveness of measures",
      nl: "Beoordeling van de effectiviteit van maatregelen"
    },
    description: {
      en: "policies and procedures to assess the effectiveness of cybersecurity risk-management measures",
      nl: "beleid en procedures om de effectiviteit van maatregelen voor het beheer van cyberbeveiligingsrisico's te beoordelen"
    },
    scope: {
      en: "How an organisation assesses its own measures cannot be seen from outside.",
      nl: "Hoe een organisatie haar eigen maatregelen beoordeelt, is van buitenaf niet te zien."
    }
  },
  g: {
    label: { en: "Basic cyber hygiene and training", nl: "Basale cyberhygiëne en opleiding" },
    description: {
      en: "basic cyber hygiene practices and cybersecurity training",
      nl: "basispraktijken op het gebied van cyberhygiëne en opleiding op het gebied van cyberbeveiliging"
    },
    scope: {
      en: "We see the basic hygiene of the public domain: SPF, DKIM and an enforced DMARC policy, reverse DNS, and mail servers kept off blocklists; training is invisible.",
      nl: "We zien de basale hygiëne van het publieke domein: SPF, DKIM en een afgedwongen DMARC-beleid, reverse DNS, en mailservers die niet op blokkadelijsten staan; opleiding is onzichtbaar."
    }
  },
  h: {
    label: { en: "Cryptography and encryption", nl: "Cryptografie en encryptie" },
    description: {
      en: "policies and procedures regarding the use of cryptography and, where appropriate, encryption",
      nl: "beleid en procedures inzake het gebruik van cryptografie en, in voorkomend geval, encryptie"
    },
    scope: {
      en: "We see the cryptography the public services use: HTTPS with HSTS, STARTTLS with valid certificates on every mail server, and DNSSEC; the policies and key management behind them are invisible.",
      nl: "We zien de cryptografie die de publieke diensten gebruiken: HTTPS met HSTS, STARTTLS met geldige certificaten op elke mailserver, en DNSSEC; het beleid en het sleutelbeheer daarachter zijn onzichtbaar."
    }
  },
  i: {
    label: {
      en: "Human resources security, access control and asset management",
      nl: "Personeelsbeveiliging, toegangsbeleid en beheer van activa"
    },
    description: {
      en: "human resources security, access control policies and asset management",
      nl: "beveiligingsaspecten ten aanzien van personeel, toegangsbeleid en beheer van activa"
    },
    scope: {
      en: "Personnel security, access control and asset management cannot be seen from outside.",
      nl: "Personeelsbeveiliging, toegangsbeleid en beheer van activa zijn van buitenaf niet te zien."
    }
  },
  j: {
    label: {
      en: "Multi-factor authentication and secured communications",
      nl: "Multifactorauthenticatie en beveiligde communicatie"
    },
    description: {
      en: "the use of multi-factor authentication or continuous authentication solutions, secured voice, video and text communications and secured emergency communication systems within the entity, where appropriate",
      nl: "het gebruik van multifactorauthenticatie of continue authenticatieoplossingen, beveiligde spraak-, video- en tekstcommunicatie en beveiligde noodcommunicatiesystemen binnen de entiteit, waar passend"
    },
    scope: {
      en: "We see only whether mail to the domain must travel encrypted (MTA-STS in enforce mode, DANE); multi-factor authentication, voice, video and emergency communication are invisible.",
      nl: "We zien alleen of mail aan het domein versleuteld moet reizen (MTA-STS in enforce-modus, DANE); multifactorauthenticatie, spraak, video en noodcommunicatie zijn onzichtbaar."
    }
  }
}

export interface EvidenceText {
  readonly label: Text
  /** The detail of a passing item. */
  readonly pass: Text
  /** The detail of an item that does not apply to this domain (why). */
  readonly notApplicable: Text
}

const NO_MAIL: Text = {
  en: "The domain receives no mail (null MX or no mail servers), so this does not apply.",
  nl: "Het domein ontvangt geen mail (null MX of geen mailservers), dus dit is niet van toepassing."
}
const UNSIGNED: Text = {
  en: "The zone is not DNSSEC-signed, so this does not apply (the lack of signing is judged under measure h).",
  nl: "De zone is niet met DNSSEC ondertekend, dus dit is niet van toepassing (het ontbreken van ondertekening telt bij maatregel h)."
}
const NO_WEB: Text = {
  en: "The domain has no web address (no A or AAAA record), so this does not apply.",
  nl: "Het domein heeft geen webadres (geen A- of AAAA-record), dus dit is niet van toepassing."
}
const NOT_APPLICABLE: Text = {
  en: "Does not apply to this domain.",
  nl: "Niet van toepassing op dit domein."
}

const item = (label: Text, pass: Text, notApplicable: Text = NOT_APPLICABLE): EvidenceText => ({
  label,
  pass,
  notApplicable
})

/** Keyed by the record ids of `Nis2Mapping.ts` (the evidence's `checkId`). */
export const EVIDENCE_TEXT: { readonly [checkId: string]: EvidenceText } = {
  "email.dmarc.reporting": item(
    { en: "DMARC aggregate reports (rua)", nl: "DMARC-verzamelrapporten (rua)" },
    {
      en: "The DMARC record asks for aggregate reports.",
      nl: "Het DMARC-record vraagt om verzamelrapporten."
    },
    NO_MAIL
  ),
  "email.tls_rpt": item(
    {
      en: "TLS-RPT reports of failed encrypted deliveries",
      nl: "TLS-RPT-rapporten over mislukte versleutelde afleveringen"
    },
    {
      en: "A valid _smtp._tls record asks for reports (RFC 8460).",
      nl: "Een geldig _smtp._tls-record vraagt om rapporten (RFC 8460)."
    },
    NO_MAIL
  ),
  "dns.ns.count": item(
    { en: "At least two name servers", nl: "Minstens twee nameservers" },
    {
      en: "The domain has two or more name servers (RFC 2182).",
      nl: "Het domein heeft twee of meer nameservers (RFC 2182)."
    }
  ),
  "dns.soa": item(
    { en: "SOA record of the zone", nl: "SOA-record van de zone" },
    { en: "The zone apex answers an SOA record.", nl: "De top van de zone geeft een SOA-record." }
  ),
  "dns.mx.resolvable": item(
    { en: "Mail servers resolve", nl: "Mailservers zijn vindbaar" },
    {
      en: "Every mail server name has an address, or a null MX says the domain takes no mail.",
      nl: "Elke mailservernaam heeft een adres, of een null MX zegt dat het domein geen mail ontvangt."
    },
    {
      en: "The domain publishes no MX records, so there is no mail routing to check.",
      nl: "Het domein publiceert geen MX-records, dus er is geen mailroutering te controleren."
    }
  ),
  "dns.caa": item(
    { en: "CAA restricts certificate suppliers", nl: "CAA beperkt de leveranciers van certificaten" },
    {
      en: "A CAA record names the certificate authorities allowed to issue (RFC 8659).",
      nl: "Een CAA-record noemt de certificaatautoriteiten die mogen uitgeven (RFC 8659)."
    }
  ),
  "dnssec.rrsig": item(
    { en: "DNSSEC signatures kept fresh", nl: "DNSSEC-handtekeningen tijdig vernieuwd" },
    {
      en: "No signature expires within 7 days.",
      nl: "Geen handtekening verloopt binnen 7 dagen."
    },
    UNSIGNED
  ),
  "dnssec.algorithm": item(
    { en: "Current DNSSEC algorithm", nl: "Actueel DNSSEC-algoritme" },
    {
      en: "The zone is signed with an algorithm RFC 8624 recommends.",
      nl: "De zone is ondertekend met een algoritme dat RFC 8624 aanbeveelt."
    },
    UNSIGNED
  ),
  "dnssec.nsec3": item(
    { en: "Current NSEC3 parameters", nl: "Actuele NSEC3-parameters" },
    {
      en: "NSEC, or NSEC3 without extra iterations or salt (RFC 9276).",
      nl: "NSEC, of NSEC3 zonder extra iteraties of salt (RFC 9276)."
    },
    UNSIGNED
  ),
  "security.headers.xcto": item(
    { en: "X-Content-Type-Options header", nl: "X-Content-Type-Options-header" },
    { en: "The web site sends nosniff.", nl: "De website stuurt nosniff." },
    NO_WEB
  ),
  "security.headers.frame": item(
    { en: "Clickjacking protection", nl: "Bescherming tegen clickjacking" },
    {
      en: "X-Frame-Options or CSP frame-ancestors restricts framing.",
      nl: "X-Frame-Options of CSP frame-ancestors beperkt het insluiten in frames."
    },
    NO_WEB
  ),
  "security.headers.referrer": item(
    { en: "Referrer-Policy header", nl: "Referrer-Policy-header" },
    { en: "A safe Referrer-Policy is set.", nl: "Er is een veilige Referrer-Policy ingesteld." },
    NO_WEB
  ),
  "security.csp": item(
    { en: "Content-Security-Policy", nl: "Content-Security-Policy" },
    {
      en: "An enforced, strong Content-Security-Policy.",
      nl: "Een afgedwongen, sterke Content-Security-Policy."
    },
    NO_WEB
  ),
  "email.spf.valid": item(
    { en: "Valid SPF record", nl: "Geldig SPF-record" },
    { en: "One SPF record without errors (RFC 7208).", nl: "Eén SPF-record zonder fouten (RFC 7208)." }
  ),
  "email.spf.policy": item(
    { en: "SPF rejects unlisted senders", nl: "SPF weigert niet-vermelde afzenders" },
    { en: "The SPF record ends in -all or ~all.", nl: "Het SPF-record eindigt op -all of ~all." }
  ),
  "email.dmarc.valid": item(
    { en: "Valid DMARC record", nl: "Geldig DMARC-record" },
    { en: "The DMARC record parses (RFC 7489).", nl: "Het DMARC-record is correct (RFC 7489)." }
  ),
  "email.dmarc.policy": item(
    { en: "DMARC enforces (quarantine or reject)", nl: "DMARC dwingt af (quarantine of reject)" },
    {
      en: "The DMARC policy quarantines or rejects spoofed mail.",
      nl: "Het DMARC-beleid zet vervalste mail in quarantaine of weigert die."
    }
  ),
  "email.dkim": item(
    { en: "DKIM signing key", nl: "DKIM-ondertekeningssleutel" },
    {
      en: "A valid DKIM key of 2048 bits or Ed25519 was found.",
      nl: "Er is een geldige DKIM-sleutel van 2048 bits of Ed25519 gevonden."
    },
    NO_MAIL
  ),
  "security.blocklist": item(
    { en: "Mail servers not blocklisted", nl: "Mailservers niet op blokkadelijsten" },
    {
      en: "No mail server address is on a DNS blocklist.",
      nl: "Geen adres van een mailserver staat op een DNS-blokkadelijst."
    },
    NO_MAIL
  ),
  "dns.ptr": item(
    { en: "Reverse DNS of the mail servers", nl: "Reverse DNS van de mailservers" },
    {
      en: "Every mail server address has a PTR record.",
      nl: "Elk adres van een mailserver heeft een PTR-record."
    },
    NO_MAIL
  ),
  "dns.fcrdns": item(
    { en: "Forward-confirmed reverse DNS", nl: "Voorwaarts bevestigde reverse DNS" },
    {
      en: "The PTR name of every mail server address resolves back to it.",
      nl: "De PTR-naam van elk adres van een mailserver verwijst terug naar dat adres."
    },
    NO_MAIL
  ),
  "security.web.https": item(
    { en: "HTTPS with a trusted certificate", nl: "HTTPS met een vertrouwd certificaat" },
    {
      en: "The web site answers over HTTPS with a trusted certificate.",
      nl: "De website antwoordt via HTTPS met een vertrouwd certificaat."
    },
    NO_WEB
  ),
  "security.web.hsts": item(
    { en: "HSTS (HTTPS enforced by browsers)", nl: "HSTS (HTTPS afgedwongen door browsers)" },
    {
      en: "Strict-Transport-Security of a year or more with includeSubDomains.",
      nl: "Strict-Transport-Security van een jaar of langer met includeSubDomains."
    },
    NO_WEB
  ),
  "security.mx.starttls": item(
    { en: "STARTTLS on every mail server", nl: "STARTTLS op elke mailserver" },
    {
      en: "Every mail server offers STARTTLS with TLS 1.2 or later.",
      nl: "Elke mailserver biedt STARTTLS met TLS 1.2 of hoger."
    },
    NO_MAIL
  ),
  "security.mx.cert": item(
    { en: "Valid mail server certificates", nl: "Geldige certificaten van de mailservers" },
    {
      en: "Every mail server certificate is trusted, names the host and is not expired.",
      nl: "Elk certificaat van een mailserver is vertrouwd, noemt de host en is niet verlopen."
    },
    {
      en: "No mail server offered TLS, or the domain receives no mail, so there is no certificate to judge.",
      nl: "Geen mailserver bood TLS aan, of het domein ontvangt geen mail, dus er is geen certificaat te beoordelen."
    }
  ),
  "dnssec.signed": item(
    { en: "DNSSEC signed", nl: "DNSSEC-ondertekend" },
    {
      en: "The zone has DNSSEC keys and a DS record in its parent.",
      nl: "De zone heeft DNSSEC-sleutels en een DS-record in de bovenliggende zone."
    }
  ),
  "dnssec.valid": item(
    { en: "DNSSEC validates", nl: "DNSSEC valideert" },
    {
      en: "Validating resolvers reach a secure answer.",
      nl: "Validerende resolvers komen tot een veilig (secure) antwoord."
    }
  ),
  "email.mta_sts": item(
    { en: "MTA-STS in enforce mode", nl: "MTA-STS in enforce-modus" },
    {
      en: "An MTA-STS policy in enforce mode covers every mail server (RFC 8461).",
      nl: "Een MTA-STS-beleid in enforce-modus dekt elke mailserver (RFC 8461)."
    },
    NO_MAIL
  ),
  "security.mx.dane": item(
    { en: "DANE for the mail servers", nl: "DANE voor de mailservers" },
    {
      en: "DNSSEC-signed TLSA records match every mail server (RFC 7672).",
      nl: "Met DNSSEC ondertekende TLSA-records passen bij elke mailserver (RFC 7672)."
    },
    {
      en: "The zone is not DNSSEC-signed or receives no mail, so DANE cannot apply.",
      nl: "De zone is niet met DNSSEC ondertekend of ontvangt geen mail, dus DANE kan niet van toepassing zijn."
    }
  )
}

/** The scorecard's fixed sentences. */
export const PHRASES = {
  caveat: {
    en: "Readiness indicator based only on externally observable DNS, e-mail and web configuration. It is not an audit, not a compliance assessment and not legal advice: it does not establish compliance with Directive (EU) 2022/2555 (NIS2) or national law. Organisational measures (a, f, i and most of b, c, d, j) cannot be assessed from outside.",
    nl: "Gereedheidsindicatie uitsluitend op basis van van buitenaf waarneembare DNS-, e-mail- en webconfiguratie. Dit is geen audit, geen nalevingsbeoordeling en geen juridisch advies: het stelt niet vast dat wordt voldaan aan Richtlijn (EU) 2022/2555 (NIS2) of de Cyberbeveiligingswet. Organisatorische maatregelen (a, f, i en grotendeels b, c, d, j) zijn van buitenaf niet te beoordelen."
  },
  notObservableLabel: { en: "Organisational measure", nl: "Organisatorische maatregel" },
  notObservable: {
    en: "Cannot be observed from outside the organisation: not scored (weight 0).",
    nl: "Niet waarneembaar van buiten de organisatie: niet meegeteld (gewicht 0)."
  },
  unknown: {
    en: "Could not be observed in this scan (a lookup or connection did not answer in time): left out of the score, not counted as missing.",
    nl: "Kon in deze scan niet worden waargenomen (een opvraging of verbinding gaf niet op tijd antwoord): buiten de score gelaten, niet als ontbrekend geteld."
  },
  /** An unknown the check itself settled on (DKIM: no key under the selectors known): its reason. */
  unsettled: {
    en: "Not settled by this scan, left out of the score and not counted as missing:",
    nl: "Niet vastgesteld in deze scan, buiten de score gelaten en niet als ontbrekend geteld:"
  },
  missing: { en: "Not present:", nl: "Niet aanwezig:" },
  fail: { en: "Does not pass:", nl: "Voldoet niet:" },
  passWithRemarks: { en: "Could be stronger:", nl: "Kan sterker:" },
  noSuchDomain: {
    en: "The domain does not exist (NXDOMAIN): nothing could be observed.",
    nl: "Het domein bestaat niet (NXDOMAIN): er kon niets worden waargenomen."
  },
  nothingScored: {
    en: "No evidence about the domain could be observed (its lookups did not answer, or nothing applies): no readiness can be shown.",
    nl: "Over het domein kon geen bewijs worden waargenomen (de opvragingen gaven geen antwoord, of niets is van toepassing): er is geen gereedheid te tonen."
  }
} as const satisfies Record<string, Text>
