/**
 * What a domain owner does about each SPF issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). SPF is one TXT record at the domain itself listing every server allowed to
 * send its mail (RFC 7208); the providers' notes name the include each of them needs.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

const GENERATOR = "POST /email/spf/generate"

/** The include each provider documents, for the steps that list senders. */
const SENDERS = {
  "google-workspace": "Mail sent through Google Workspace needs include:_spf.google.com.",
  "microsoft-365": "Mail sent through Microsoft 365 needs include:spf.protection.outlook.com.",
  "route53-ses":
    "Amazon SES sends from its own MAIL FROM domain by default: set a custom MAIL FROM subdomain (SES > Verified identities > your domain > Custom MAIL FROM domain) and publish the MX and the SPF record v=spf1 include:amazonses.com ~all that SES shows there, so SPF aligns with your From for DMARC.",
  cloudflare:
    "Cloudflare DNS holds the record; Cloudflare Email Routing, if used, needs include:_spf.mx.cloudflare.net."
} as const

/** The include each provider documents, in Dutch. */
const SENDERS_NL = {
  "google-workspace": "Mail die via Google Workspace gaat, heeft include:_spf.google.com nodig.",
  "microsoft-365": "Mail die via Microsoft 365 gaat, heeft include:spf.protection.outlook.com nodig.",
  "route53-ses":
    "Amazon SES verstuurt standaard vanaf zijn eigen MAIL FROM-domein: stel een eigen MAIL FROM-subdomein in (SES > Verified identities > je domein > Custom MAIL FROM domain) en publiceer de MX en het SPF-record v=spf1 include:amazonses.com ~all die SES daar toont, zodat SPF voor DMARC aansluit bij je From.",
  cloudflare:
    "Cloudflare DNS bewaart het record; Cloudflare Email Routing heeft, als je het gebruikt, include:_spf.mx.cloudflare.net nodig."
} as const

export const guidance = {
  spf_missing: guide({
    why: "Without SPF, receivers cannot tell your mail servers from a forger's. Gmail, Yahoo and Microsoft now junk or reject unauthenticated mail, so your own mail suffers too.",
    steps: [
      "List every service that sends mail with your domain in the From: your mailbox provider, newsletter tool, invoicing system, web shop, ticketing system.",
      "Write one TXT record at the domain that starts with v=spf1, names each of those (an include for a provider, ip4/ip6 for your own servers) and ends in ~all.",
      "Publish it at the domain itself (host @ or blank), as the only TXT record starting with v=spf1.",
      "After a few weeks of DMARC reports show all your mail passing, change ~all to -all."
    ],
    providers: SENDERS,
    record: '{domain} TXT "v=spf1 include:_spf.google.com ~all"',
    generator: GENERATOR,
    references: ["rfc7208", "google_senders"],
    nl: {
      why: "Zonder SPF kunnen ontvangers je mailservers niet onderscheiden van die van een vervalser. Gmail, Yahoo en Microsoft zetten niet-geauthenticeerde mail inmiddels bij de spam of weigeren die, dus ook je eigen mail lijdt eronder.",
      steps: [
        "Zet elke dienst op een rij die mail verstuurt met jouw domein in de From: je mailboxprovider, nieuwsbrieftool, facturatiesysteem, webwinkel, ticketsysteem.",
        "Schrijf één TXT-record bij het domein dat begint met v=spf1, elk daarvan noemt (een include voor een provider, ip4/ip6 voor je eigen servers) en eindigt op ~all.",
        "Publiceer het bij het domein zelf (host @ of leeg), als enige TXT-record dat met v=spf1 begint.",
        "Verander ~all in -all zodra een paar weken DMARC-rapporten laten zien dat al je mail slaagt."
      ],
      providers: SENDERS_NL
    }
  }),
  spf_invalid: guide({
    why: "The SPF record has an error, so receivers ignore it: your mail is treated as if you had no SPF, and fails DMARC wherever DKIM does not carry it.",
    steps: [
      "Read the error the report shows for the SPF record (its position in the record is given).",
      "Correct the mistake: common ones are a missing space, 'ip4:' with an IPv6 address, a mechanism written twice, or text after 'all'.",
      "Keep exactly one record starting with v=spf1, then scan again."
    ],
    generator: GENERATOR,
    references: ["rfc7208"],
    nl: {
      why: "Het SPF-record bevat een fout, dus ontvangers negeren het: je mail wordt behandeld alsof je geen SPF hebt, en faalt voor DMARC overal waar DKIM haar niet draagt.",
      steps: [
        "Lees de fout die het rapport voor het SPF-record toont (met de plaats in het record).",
        "Herstel de vergissing: veelvoorkomend zijn een ontbrekende spatie, 'ip4:' met een IPv6-adres, een mechanisme dat twee keer staat, of tekst na 'all'.",
        "Houd precies één record dat met v=spf1 begint, en scan dan opnieuw."
      ]
    }
  }),
  spf_multiple_records: guide({
    why: "The domain publishes more than one SPF record. Receivers then apply none of them, so SPF protects nothing and your mail fails SPF everywhere.",
    steps: [
      "List the TXT records at the domain that start with v=spf1.",
      "Combine their mechanisms into one record (each include and address once, one 'all' at the end).",
      "Publish the combined record and delete the others."
    ],
    providers: {
      cloudflare:
        "DNS > Records, filter on TXT: each v=spf1 line is a separate record; edit one, delete the rest.",
      "generic-dns":
        "Some panels add an SPF record when you activate a service: that is often where the second one comes from."
    },
    generator: GENERATOR,
    references: ["rfc7208"],
    nl: {
      why: "Het domein publiceert meer dan één SPF-record. Ontvangers passen er dan geen enkele toe, dus SPF beschermt niets en je mail faalt overal voor SPF.",
      steps: [
        "Zet de TXT-records bij het domein op een rij die met v=spf1 beginnen.",
        "Voeg hun mechanismen samen in één record (elke include en elk adres één keer, één 'all' aan het eind).",
        "Publiceer het samengevoegde record en verwijder de andere."
      ],
      providers: {
        cloudflare:
          "DNS > Records, filter op TXT: elke regel met v=spf1 is een apart record; bewerk er een en verwijder de rest.",
        "generic-dns":
          "Sommige panelen voegen een SPF-record toe als je een dienst activeert: daar komt het tweede vaak vandaan."
      }
    }
  }),
  spf_too_many_lookups: guide({
    why: "Checking your SPF record takes more than the 10 DNS look-ups the standard allows, so strict receivers stop and treat it as broken: all your mail then fails SPF.",
    steps: [
      "Remove includes of services that no longer send for you.",
      "Replace a and mx mechanisms with the ip4/ip6 addresses of those servers when they rarely change.",
      "If still over 10, move the senders of one service to a subdomain (for example news.{domain}) with its own SPF record, or replace a nested include by the addresses it lists and review them regularly.",
      "Scan again: the report counts the look-ups."
    ],
    generator: GENERATOR,
    references: ["rfc7208"],
    nl: {
      why: "Het controleren van je SPF-record kost meer dan de 10 DNS-opvragingen die de standaard toestaat, dus strenge ontvangers stoppen en zien het als kapot: al je mail faalt dan voor SPF.",
      steps: [
        "Verwijder includes van diensten die niet meer namens jou versturen.",
        "Vervang a- en mx-mechanismen door de ip4/ip6-adressen van die servers als die zelden veranderen.",
        "Zit je nog boven de 10, verplaats dan de afzenders van één dienst naar een subdomein (bijvoorbeeld news.{domain}) met een eigen SPF-record, of vervang een geneste include door de adressen die hij noemt en controleer die regelmatig.",
        "Scan opnieuw: het rapport telt de opvragingen."
      ]
    }
  }),
  spf_too_many_void_lookups: guide({
    why: "The SPF record points at names that do not exist. After two such dead ends receivers treat the whole record as broken.",
    steps: [
      "Find the terms the report marks as void (an include, a or mx naming a domain without records).",
      "Remove them, or correct a misspelt name.",
      "Scan again."
    ],
    generator: GENERATOR,
    references: ["rfc7208"],
    nl: {
      why: "Het SPF-record wijst naar namen die niet bestaan. Na twee van zulke doodlopende opvragingen zien ontvangers het hele record als kapot.",
      steps: [
        "Zoek de termen die het rapport als leeg (void) markeert (een include, a of mx met een domein zonder records).",
        "Verwijder ze, of verbeter een verkeerd gespelde naam.",
        "Scan opnieuw."
      ]
    }
  }),
  spf_plus_all: guide({
    why: "The record ends in +all, which declares every server on the internet allowed to send as you. It is worse than no SPF: forged mail passes.",
    steps: [
      "List the services that really send your mail, as for a new record.",
      "Replace +all with ~all, with those services named before it.",
      "Move to -all once DMARC reports show all your mail passing."
    ],
    providers: SENDERS,
    generator: GENERATOR,
    references: ["rfc7208"],
    nl: {
      why: "Het record eindigt op +all en verklaart daarmee elke server op internet bevoegd om namens jou te versturen. Dat is erger dan geen SPF: vervalste mail slaagt.",
      steps: [
        "Zet de diensten op een rij die echt je mail versturen, zoals voor een nieuw record.",
        "Vervang +all door ~all, met die diensten ervoor genoemd.",
        "Stap over op -all zodra DMARC-rapporten laten zien dat al je mail slaagt."
      ],
      providers: SENDERS_NL
    }
  }),
  spf_neutral_all: guide({
    why: "The record ends in ?all or has no 'all' at all, telling receivers nothing about servers it does not list: forged mail is treated as if you had no SPF.",
    steps: [
      "End the record with ~all now.",
      "Change it to -all once DMARC reports show every legitimate sender passing."
    ],
    generator: GENERATOR,
    references: ["rfc7208"],
    nl: {
      why: "Het record eindigt op ?all of heeft helemaal geen 'all', en zegt ontvangers dus niets over servers die het niet noemt: vervalste mail wordt behandeld alsof je geen SPF hebt.",
      steps: [
        "Laat het record nu eindigen op ~all.",
        "Verander het in -all zodra DMARC-rapporten laten zien dat elke legitieme afzender slaagt."
      ]
    }
  }),
  spf_softfail_all: guide({
    why: "The ~all term asks receivers to accept but mark mail from unlisted servers. With an enforcing DMARC policy this matters little; without one, some receivers still deliver forged mail.",
    steps: [
      "Check in DMARC aggregate reports that all your legitimate mail passes SPF or DKIM.",
      "Then change ~all at the end of the record to -all."
    ],
    generator: GENERATOR,
    references: ["rfc7208"],
    nl: {
      why: "De term ~all vraagt ontvangers mail van niet-genoemde servers te accepteren maar te markeren. Met een handhavend DMARC-beleid maakt dat weinig uit; zonder zo'n beleid leveren sommige ontvangers vervalste mail toch af.",
      steps: [
        "Controleer in de DMARC-aggregaatrapporten dat al je legitieme mail slaagt voor SPF of DKIM.",
        "Verander daarna ~all aan het eind van het record in -all."
      ]
    }
  }),
  spf_lookups_near_limit: guide({
    why: "The SPF record is close to the limit of 10 look-ups. One more service, or a provider changing its own record, pushes it over and breaks SPF for all your mail without any change by you.",
    steps: [
      "Remove includes of services you no longer use.",
      "Replace a and mx mechanisms with ip4/ip6 addresses where the servers rarely change.",
      "Keep at least two look-ups spare for the next service you add."
    ],
    generator: GENERATOR,
    references: ["rfc7208"],
    nl: {
      why: "Het SPF-record zit dicht bij de grens van 10 opvragingen. Eén dienst erbij, of een provider die zijn eigen record wijzigt, duwt het erover en breekt SPF voor al je mail, zonder dat jij iets veranderde.",
      steps: [
        "Verwijder includes van diensten die je niet meer gebruikt.",
        "Vervang a- en mx-mechanismen door ip4/ip6-adressen waar de servers zelden veranderen.",
        "Houd minstens twee opvragingen over voor de volgende dienst die je toevoegt."
      ]
    }
  }),
  spf_loop: guide({
    why: "The SPF record includes itself, directly or through another record, so checking it never ends: receivers stop with an error and all your mail fails SPF.",
    steps: [
      "Follow the include chain the report shows to the term that points back.",
      "Remove that include or redirect (a domain never needs to include itself), then scan again."
    ],
    references: ["rfc7208"],
    nl: {
      why: "Het SPF-record neemt zichzelf op, direct of via een ander record, dus het controleren ervan houdt nooit op: ontvangers stoppen met een fout en al je mail faalt voor SPF.",
      steps: [
        "Volg de keten van includes die het rapport toont tot de term die terugwijst.",
        "Verwijder die include of redirect (een domein hoeft zichzelf nooit op te nemen) en scan opnieuw."
      ]
    }
  }),
  spf_include_broken: guide({
    why: "One of the SPF record's includes points at a domain with no usable SPF record. Receivers then give up on your whole record, so your own mail fails SPF.",
    steps: [
      "Find the broken include in the report.",
      "If the service still sends for you, correct the name (check the provider's documentation; typos are common).",
      "If it no longer sends for you, remove the include."
    ],
    references: ["rfc7208"],
    nl: {
      why: "Een van de includes van het SPF-record wijst naar een domein zonder bruikbaar SPF-record. Ontvangers geven dan je hele record op, dus je eigen mail faalt voor SPF.",
      steps: [
        "Zoek de kapotte include in het rapport.",
        "Verstuurt de dienst nog namens jou, verbeter dan de naam (kijk in de documentatie van de provider; tikfouten komen vaak voor).",
        "Verstuurt hij niet meer namens jou, verwijder dan de include."
      ]
    }
  }),
  spf_include_pass_all: guide({
    why: "One of the included records allows every server on the internet, so through it your own record does too: forged mail passes SPF.",
    steps: [
      "Find the include the report names.",
      "Remove it, or ask its owner to correct their record; replace it by the exact addresses that service sends from if needed."
    ],
    references: ["rfc7208"],
    nl: {
      why: "Een van de opgenomen records staat elke server op internet toe, dus via dat record doet jouw record dat ook: vervalste mail slaagt voor SPF.",
      steps: [
        "Zoek de include die het rapport noemt.",
        "Verwijder hem, of vraag de eigenaar zijn record te corrigeren; vervang hem zo nodig door de precieze adressen waarvandaan die dienst verstuurt."
      ]
    }
  }),
  spf_mx_too_many: guide({
    why: "The mx term in the SPF record resolves to more than 10 mail servers, which the standard forbids: receivers treat the record as broken.",
    steps: [
      "Find which of the mail servers actually send mail (receiving-only servers need not be listed).",
      "Replace mx with ip4/ip6 terms for those senders, or with the include their provider documents."
    ],
    generator: GENERATOR,
    references: ["rfc7208"],
    nl: {
      why: "De term mx in het SPF-record levert meer dan 10 mailservers op, wat de standaard verbiedt: ontvangers zien het record als kapot.",
      steps: [
        "Zoek uit welke mailservers echt mail versturen (servers die alleen ontvangen, hoeven er niet in).",
        "Vervang mx door ip4/ip6-termen voor die afzenders, of door de include die hun provider documenteert."
      ]
    }
  }),
  spf_ptr_mechanism: guide({
    why: "The record uses the ptr mechanism, which the standard says not to use: it is slow and unreliable, and some receivers skip it, so mail from the servers it was meant to cover may fail.",
    steps: [
      "Find the servers ptr was meant to cover.",
      "Replace ptr with their ip4/ip6 addresses or an a term naming them."
    ],
    generator: GENERATOR,
    references: ["rfc7208"],
    nl: {
      why: "Het record gebruikt het mechanisme ptr, dat de standaard afraadt: het is traag en onbetrouwbaar en sommige ontvangers slaan het over, dus mail van de servers die het moest dekken, kan falen.",
      steps: [
        "Zoek uit welke servers ptr moest dekken.",
        "Vervang ptr door hun ip4/ip6-adressen of door een a-term die ze noemt."
      ]
    }
  }),
  spf_answer_too_large: guide({
    why: "The domain's TXT records together are too large for an ordinary DNS answer. Receivers whose resolvers do not retry over TCP cannot read the SPF record and defer or reject your mail.",
    steps: [
      "Shorten the SPF record: merge neighbouring ip4 addresses into ranges, drop unused terms.",
      "Remove TXT records at the domain that are no longer needed (old site verifications are common).",
      "Scan again: the report shows the answer's size."
    ],
    generator: GENERATOR,
    references: ["rfc7208"],
    nl: {
      why: "De TXT-records van het domein zijn samen te groot voor een gewoon DNS-antwoord. Ontvangers waarvan de resolver het niet opnieuw via TCP probeert, kunnen het SPF-record niet lezen en stellen je mail uit of weigeren die.",
      steps: [
        "Maak het SPF-record korter: voeg aangrenzende ip4-adressen samen tot reeksen en schrap ongebruikte termen.",
        "Verwijder TXT-records bij het domein die niet meer nodig zijn (oude siteverificaties komen vaak voor).",
        "Scan opnieuw: het rapport toont de grootte van het antwoord."
      ]
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
