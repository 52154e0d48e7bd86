/**
 * What a domain owner does about each DMARC issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). DMARC is one TXT record at `_dmarc.<domain>`. Moving to enforcement is staged
 * (RFC 7489 6.7, DMARCbis): reports first, to a mailbox that can receive them, then quarantine,
 * then reject, so that legitimate mail that fails is found before it is refused.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

const GENERATOR = "POST /email/dmarc/generate"

/** The staged rollout, shared by every guidance that ends in an enforcing policy. */
const STAGES = [
  "Make sure the report address (rua) is a mailbox in a domain that receives mail, or a DMARC report service; reports sent to a domain without mail servers never arrive.",
  "Read the aggregate reports for two to four weeks and make every service that sends as you pass SPF or DKIM with your domain (see the provider notes).",
  "Change p=none to p=quarantine and keep reading reports for another two to four weeks.",
  "Change p=quarantine to p=reject once the reports show no legitimate mail failing."
]

/** Where each provider makes its mail pass DMARC: DKIM signing with the domain's own key. */
const ALIGN = {
  "google-workspace":
    "Turn on DKIM signing in the Admin console (Apps > Google Workspace > Gmail > Authenticate email) so Gmail's mail passes DMARC with your domain.",
  "microsoft-365":
    "Turn on DKIM signing for the domain in the Microsoft Defender portal (Email & collaboration > Policies > Email authentication settings > DKIM) after publishing its two selector CNAMEs.",
  "route53-ses":
    "Verify the domain in SES with Easy DKIM (three CNAME records) and set a custom MAIL FROM subdomain, so SES mail aligns on DKIM and SPF.",
  cloudflare:
    "Cloudflare's DMARC Management (Email > DMARC Management) receives and summarises aggregate reports for you."
} as const

/** The staged rollout in Dutch, step for step the same as `STAGES`. */
const STAGES_NL = [
  "Zorg dat het rapportadres (rua) een mailbox is in een domein dat mail ontvangt, of een DMARC-rapportagedienst; rapporten aan een domein zonder mailservers komen nooit aan.",
  "Lees twee tot vier weken de aggregaatrapporten en zorg dat elke dienst die namens jou verstuurt, met jouw domein slaagt voor SPF of DKIM (zie de providernotities).",
  "Verander p=none in p=quarantine en blijf nog twee tot vier weken rapporten lezen.",
  "Verander p=quarantine in p=reject zodra de rapporten geen legitieme mail meer laten falen."
]

/** Where each provider makes its mail pass DMARC, in Dutch. */
const ALIGN_NL = {
  "google-workspace":
    "Zet DKIM-ondertekening aan in de beheerdersconsole (Apps > Google Workspace > Gmail > E-mail verifiëren), zodat mail van Gmail met jouw domein slaagt voor DMARC.",
  "microsoft-365":
    "Zet DKIM-ondertekening voor het domein aan in de Microsoft Defender-portal (Email & collaboration > Policies > Email authentication settings > DKIM), nadat je de twee selector-CNAME's hebt gepubliceerd.",
  "route53-ses":
    "Verifieer het domein in SES met Easy DKIM (drie CNAME-records) en stel een eigen MAIL FROM-subdomein in, zodat mail van SES aansluit op DKIM en SPF.",
  cloudflare:
    "DMARC Management van Cloudflare (Email > DMARC Management) ontvangt de aggregaatrapporten en vat ze voor je samen."
} as const

export const guidance = {
  dmarc_missing: guide({
    why: "Without DMARC anyone can send mail with your domain in the From line and receivers have no instruction to stop it. Gmail and Yahoo require a DMARC record from bulk senders, and you get no reports about who uses your name.",
    steps: [
      "Choose a mailbox to receive DMARC reports, in a domain that receives mail (for example dmarc-reports@{domain}), or a DMARC report service.",
      "Publish a TXT record at _dmarc.{domain} with p=none and that address as rua.",
      ...STAGES.slice(1)
    ],
    providers: ALIGN,
    record: '_dmarc.{domain} TXT "v=DMARC1; p=none; rua=mailto:dmarc-reports@{domain}"',
    generator: GENERATOR,
    references: ["rfc7489", "dmarcbis", "google_senders", "yahoo_senders"],
    nl: {
      why: "Zonder DMARC kan iedereen mail versturen met jouw domein in de From-regel, en ontvangers hebben geen instructie om dat tegen te houden. Gmail en Yahoo eisen een DMARC-record van bulkverzenders, en je krijgt geen rapporten over wie je naam gebruikt.",
      steps: [
        "Kies een mailbox voor de DMARC-rapporten, in een domein dat mail ontvangt (bijvoorbeeld dmarc-reports@{domain}), of een DMARC-rapportagedienst.",
        "Publiceer een TXT-record op _dmarc.{domain} met p=none en dat adres als rua.",
        ...STAGES_NL.slice(1)
      ],
      providers: ALIGN_NL
    }
  }),
  dmarc_invalid: guide({
    why: "The DMARC record contains errors, so receivers may ignore it or the broken parts: the policy you meant may not apply.",
    steps: [
      "Read the errors the report lists for the DMARC record.",
      "Correct them: tags are name=value pairs separated by semicolons, starting with v=DMARC1; then p.",
      "Publish the corrected record at _dmarc.{domain} and scan again."
    ],
    generator: GENERATOR,
    references: ["rfc7489"],
    nl: {
      why: "Het DMARC-record bevat fouten, dus ontvangers negeren het misschien, of de kapotte delen: het beleid dat je bedoelde, geldt dan mogelijk niet.",
      steps: [
        "Lees de fouten die het rapport voor het DMARC-record noemt.",
        "Herstel ze: tags zijn paren naam=waarde, gescheiden door puntkomma's, te beginnen met v=DMARC1; en dan p.",
        "Publiceer het verbeterde record op _dmarc.{domain} en scan opnieuw."
      ]
    }
  }),
  dmarc_multiple_records: guide({
    why: "There is more than one DMARC record. Receivers then apply none of them, as if you had no DMARC at all.",
    steps: [
      "List the TXT records at _dmarc.{domain}.",
      "Keep the one with the policy you want (merge the report addresses into it) and delete the others."
    ],
    generator: GENERATOR,
    references: ["rfc7489"],
    nl: {
      why: "Er is meer dan één DMARC-record. Ontvangers passen er dan geen enkele toe, alsof je helemaal geen DMARC hebt.",
      steps: [
        "Zet de TXT-records op _dmarc.{domain} op een rij.",
        "Houd het record met het beleid dat je wilt (voeg de rapportadressen erin samen) en verwijder de andere."
      ]
    }
  }),
  dmarc_subdomain_policy_none: guide({
    why: "The record protects the domain but tells receivers to let through forged mail from its subdomains (such as billing.{domain}), which attackers use for exactly that reason.",
    steps: [
      "Check whether any subdomain sends mail; if it does, make it pass SPF or DKIM as the main domain does.",
      "Remove sp=none from the record so subdomains follow p, or set sp=quarantine or sp=reject."
    ],
    generator: GENERATOR,
    references: ["rfc7489"],
    nl: {
      why: "Het record beschermt het domein, maar vraagt ontvangers vervalste mail van de subdomeinen (zoals billing.{domain}) door te laten, en aanvallers gebruiken die juist daarom.",
      steps: [
        "Controleer of een subdomein mail verstuurt; zo ja, laat het net als het hoofddomein slagen voor SPF of DKIM.",
        "Haal sp=none uit het record zodat subdomeinen p volgen, of zet sp=quarantine of sp=reject."
      ]
    }
  }),
  dmarc_testing: guide({
    why: "The record has t=y (testing), which asks receivers to apply a weaker policy than the one it states.",
    steps: ["Check in the aggregate reports that legitimate mail passes.", "Remove t=y from the record."],
    generator: GENERATOR,
    references: ["dmarcbis"],
    nl: {
      why: "Het record heeft t=y (testen), en vraagt ontvangers daarmee een zwakker beleid toe te passen dan het noemt.",
      steps: ["Controleer in de aggregaatrapporten dat legitieme mail slaagt.", "Haal t=y uit het record."]
    }
  }),
  dmarc_leading_space: guide({
    why: "The record at _dmarc does not begin with v=DMARC1 (a space or other text comes first), so receivers do not recognise it: the domain is unprotected.",
    steps: [
      "Edit the TXT record at _dmarc.{domain} so that its value begins exactly with v=DMARC1; with nothing before it.",
      "Some DNS panels add quotes themselves: do not type extra quotes or spaces."
    ],
    generator: GENERATOR,
    references: ["rfc7489"],
    nl: {
      why: "Het record op _dmarc begint niet met v=DMARC1 (er staat een spatie of andere tekst voor), dus ontvangers herkennen het niet: het domein is onbeschermd.",
      steps: [
        "Pas het TXT-record op _dmarc.{domain} aan zodat de waarde precies begint met v=DMARC1; met niets ervoor.",
        "Sommige DNS-panelen zetten zelf aanhalingstekens: typ geen extra aanhalingstekens of spaties."
      ]
    }
  }),
  dmarc_spf_at_dmarc: guide({
    why: "An SPF record is published at _dmarc, where it is never read. It usually means the SPF and DMARC records were swapped, and the domain's own SPF may be missing.",
    steps: [
      "Move the v=spf1 record to the domain itself (host @).",
      "Keep only the v=DMARC1 record at _dmarc.{domain}."
    ],
    references: ["rfc7208", "rfc7489"],
    nl: {
      why: "Op _dmarc staat een SPF-record, waar het nooit wordt gelezen. Meestal zijn het SPF- en het DMARC-record verwisseld, en ontbreekt misschien het eigen SPF-record van het domein.",
      steps: [
        "Verplaats het record met v=spf1 naar het domein zelf (host @).",
        "Houd alleen het record met v=DMARC1 op _dmarc.{domain}."
      ]
    }
  }),
  dmarc_too_many_rua: guide({
    why: "Receivers need only send aggregate reports to the first two report addresses; the others may receive nothing.",
    steps: [
      "Keep at most two rua addresses.",
      "Forward reports within your organisation if more people need them."
    ],
    generator: GENERATOR,
    references: ["rfc7489"],
    nl: {
      why: "Ontvangers hoeven aggregaatrapporten alleen naar de eerste twee rapportadressen te sturen; de andere krijgen misschien niets.",
      steps: [
        "Houd hoogstens twee rua-adressen.",
        "Stuur rapporten binnen je organisatie door als meer mensen ze nodig hebben."
      ]
    }
  }),
  dmarc_rua_no_mx: guide({
    why: "The DMARC report address is in a domain that receives no mail, so the reports that show who sends as you never arrive, and moving to an enforcing policy becomes guesswork.",
    steps: [
      "Choose a report address in a domain that has mail servers (MX records), for example in {domain} itself, or a DMARC report service.",
      "Replace the rua address in the record with it.",
      "Wait a day and check that reports arrive before changing the policy."
    ],
    references: ["rfc7489"],
    nl: {
      why: "Het DMARC-rapportadres ligt in een domein dat geen mail ontvangt, dus de rapporten die laten zien wie namens jou verstuurt, komen nooit aan, en de stap naar een handhavend beleid wordt gokken.",
      steps: [
        "Kies een rapportadres in een domein met mailservers (MX-records), bijvoorbeeld in {domain} zelf, of een DMARC-rapportagedienst.",
        "Vervang het rua-adres in het record door dat adres.",
        "Wacht een dag en controleer dat er rapporten binnenkomen voordat je het beleid wijzigt."
      ]
    }
  }),
  dmarc_unknown_tag: guide({
    why: "The record contains a tag DMARC does not define. It has no effect, and if it is a typo, the setting you wanted is not applied.",
    steps: [
      "Find the unknown tag in the report.",
      "Correct its name (the tags are v, p, sp, np, rua, ruf, adkim, aspf, pct, fo, rf, ri, t) or remove it."
    ],
    generator: GENERATOR,
    references: ["rfc7489"],
    nl: {
      why: "Het record bevat een tag die DMARC niet kent. Die heeft geen effect, en is het een tikfout, dan wordt de instelling die je wilde niet toegepast.",
      steps: [
        "Zoek de onbekende tag in het rapport.",
        "Verbeter de naam (de tags zijn v, p, sp, np, rua, ruf, adkim, aspf, pct, fo, rf, ri, t) of verwijder hem."
      ]
    }
  }),
  dmarc_non_mailto_uri: guide({
    why: "A report address is not a mailto: address. Receivers only need to support mailto:, so reports there are usually not sent.",
    steps: ["Write every rua and ruf address as mailto:name@domain."],
    generator: GENERATOR,
    references: ["rfc7489"],
    nl: {
      why: "Een rapportadres is geen mailto:-adres. Ontvangers hoeven alleen mailto: te ondersteunen, dus rapporten daarheen worden meestal niet verstuurd.",
      steps: ["Schrijf elk rua- en ruf-adres als mailto:naam@domein."]
    }
  }),
  dmarc_policy_none: guide({
    why: "The policy p=none only collects reports: mail that fails DMARC, forged mail in your name included, is delivered as usual. It is the right first stage, not a place to stay.",
    steps: STAGES,
    providers: ALIGN,
    record: '_dmarc.{domain} TXT "v=DMARC1; p=quarantine; rua=mailto:dmarc-reports@{domain}"',
    generator: GENERATOR,
    references: ["rfc7489", "dmarcbis"],
    nl: {
      why: "Het beleid p=none verzamelt alleen rapporten: mail die faalt voor DMARC, ook vervalste mail op jouw naam, wordt gewoon afgeleverd. Het is de juiste eerste stap, geen plek om te blijven.",
      steps: STAGES_NL,
      providers: ALIGN_NL
    }
  }),
  dmarc_policy_quarantine: guide({
    why: "The policy p=quarantine sends forged mail to the spam folder, where some recipients still find and trust it; p=reject refuses it outright.",
    steps: [
      "Check in the aggregate reports of the last weeks that no legitimate mail fails DMARC.",
      "Change p=quarantine to p=reject.",
      "Keep reading the reports: a new sending service must be set up to pass before it goes live."
    ],
    providers: ALIGN,
    record: '_dmarc.{domain} TXT "v=DMARC1; p=reject; rua=mailto:dmarc-reports@{domain}"',
    generator: GENERATOR,
    references: ["rfc7489"],
    nl: {
      why: "Het beleid p=quarantine stuurt vervalste mail naar de spammap, waar sommige ontvangers haar nog vinden en vertrouwen; p=reject weigert haar meteen.",
      steps: [
        "Controleer in de aggregaatrapporten van de afgelopen weken dat geen legitieme mail faalt voor DMARC.",
        "Verander p=quarantine in p=reject.",
        "Blijf de rapporten lezen: een nieuwe verzendende dienst moet zo zijn ingericht dat hij slaagt voordat hij live gaat."
      ],
      providers: ALIGN_NL
    }
  }),
  dmarc_pct_below_100: guide({
    why: "A pct below 100 applies the policy to only part of the failing mail; the rest, forged mail included, is treated as under p=none.",
    steps: [
      "Raise pct step by step (for example 25, 50, 100) while the reports show no legitimate mail failing.",
      "Finally remove pct: 100 is the default, and the revised DMARC standard drops the tag."
    ],
    generator: GENERATOR,
    references: ["rfc7489", "dmarcbis"],
    nl: {
      why: "Een pct onder 100 past het beleid op maar een deel van de falende mail toe; de rest, vervalste mail inbegrepen, wordt behandeld als onder p=none.",
      steps: [
        "Verhoog pct stap voor stap (bijvoorbeeld 25, 50, 100) zolang de rapporten geen legitieme mail laten falen.",
        "Haal pct ten slotte weg: 100 is de standaardwaarde, en de herziene DMARC-standaard schrapt de tag."
      ]
    }
  }),
  dmarc_no_rua: guide({
    why: "Without a report address you receive no aggregate reports, so you cannot see which servers send as you, and moving to an enforcing policy risks blocking your own mail unnoticed.",
    steps: [
      "Choose a mailbox in a domain that receives mail (for example dmarc-reports@{domain}), or a DMARC report service.",
      "Add rua=mailto:<that address> to the record.",
      "Check a day later that reports arrive."
    ],
    providers: {
      cloudflare:
        "Email > DMARC Management adds a Cloudflare report address to the record and shows the reports in the dashboard."
    },
    record: '_dmarc.{domain} TXT "v=DMARC1; p=none; rua=mailto:dmarc-reports@{domain}"',
    generator: GENERATOR,
    references: ["rfc7489"],
    nl: {
      why: "Zonder rapportadres krijg je geen aggregaatrapporten, dus je ziet niet welke servers namens jou versturen, en met een handhavend beleid loop je het risico ongemerkt je eigen mail te blokkeren.",
      steps: [
        "Kies een mailbox in een domein dat mail ontvangt (bijvoorbeeld dmarc-reports@{domain}), of een DMARC-rapportagedienst.",
        "Voeg rua=mailto:<dat adres> toe aan het record.",
        "Controleer een dag later dat er rapporten binnenkomen."
      ],
      providers: {
        cloudflare:
          "Email > DMARC Management voegt een rapportadres van Cloudflare aan het record toe en toont de rapporten in het dashboard."
      }
    }
  }),
  dmarc_external_rua_unauthorised: guide({
    why: "Reports go to an address in another domain that has not declared it accepts them, so receivers drop them and you see nothing.",
    steps: [
      "Ask the owner of the report address's domain (often a report service) to publish the authorisation record for your domain.",
      "Or use a report address in your own domain."
    ],
    record: '{domain}._report._dmarc.<report domain> TXT "v=DMARC1"',
    references: ["rfc7489"],
    nl: {
      why: "Rapporten gaan naar een adres in een ander domein dat niet heeft verklaard ze te accepteren, dus ontvangers laten ze vallen en jij ziet niets.",
      steps: [
        "Vraag de eigenaar van het domein van het rapportadres (vaak een rapportagedienst) het machtigingsrecord voor jouw domein te publiceren.",
        "Of gebruik een rapportadres in je eigen domein."
      ]
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
