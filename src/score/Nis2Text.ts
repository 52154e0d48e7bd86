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
 * Fix texts are the issue catalogue's, in English and Dutch (`checks/<check>/Issues.ts`); the texts of each
 * evidence item are declared with it, by the check whose rule it reads (`checks/<check>/About.ts`).
 */
import { type Lang, type Text } from "../kernel/Nis2Evidence.ts"
import type { MeasureId } from "./Nis2Mapping.ts"

export { type EvidenceText, type Lang, Languages, type Text } from "../kernel/Nis2Evidence.ts"

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

/**
 * What the scorecard measured, said as such: the measures with a verdict (not those not
 * applicable) and how many pass. Never "compliant": a scan of public DNS, mail and web settings
 * evidences some controls of NIS2 Article 21(2), it does not assess compliance (the caveat).
 */
export const measuredSentence = (
  measures: ReadonlyArray<{ readonly status: string }>,
  lang: Lang
): string => {
  const measured = measures.filter((m) => m.status !== "not-applicable")
  const met = measured.filter((m) => m.status === "pass").length
  const n = measured.length
  if (lang === "nl")
    return met === n
      ? `Voldoet aan de ${n} gemeten maatregelen.`
      : `Voldoet aan ${met} van de ${n} gemeten maatregelen.`
  return met === n ? `Meets the ${n} measured controls.` : `Meets ${met} of the ${n} measured controls.`
}
