/**
 * What a domain owner does about each DNSSEC issue (kernel/Declaration.ts `Guidance`,
 * docs/guidance.md). The chain of trust runs from the registrar's DS record to the DNS host's keys,
 * so most steps happen in two places: where the zone is hosted, and where the domain is registered.
 */
import { guide, type Guidance } from "../../kernel/Declaration.ts"
import type { issues } from "./Issues.ts"

export const guidance = {
  dnssec_unsigned: guide({
    why: "Without DNSSEC an attacker who can answer DNS questions for your visitors or for other mail servers can send them to a server of their choosing, and nobody can tell. Signing the zone lets resolvers reject forged answers; it is also what DANE for mail builds on.",
    steps: [
      "Turn on DNSSEC signing for the zone at your DNS host, choosing algorithm 13 (ECDSA P-256 SHA-256) if asked.",
      "Copy the DS record (key tag, algorithm 13, digest type 2 and the digest) that the DNS host shows once signing is on.",
      "Add that DS record at your registrar, in the domain's DNSSEC settings.",
      "After the registry publishes it (minutes to a day), scan the domain again: DNSSEC should show as signed and valid."
    ],
    providers: {
      cloudflare:
        "DNS > Settings > Enable DNSSEC signs the zone in one click and shows the DS record. If Cloudflare is also the registrar, it adds the DS for you; otherwise paste it at your registrar.",
      "route53-ses":
        "In the hosted zone, DNSSEC signing > Enable DNSSEC signing asks for a key-signing key backed by a customer-managed KMS key (ECC_NIST_P256, in us-east-1). Then View information to create DS record; for a domain registered with Route 53, add it under Registered domains > DNSSEC keys.",
      "generic-dns":
        "If your DNS host cannot sign zones, move the zone to one that can before anything else; a DS at the registrar without signatures makes the domain unreachable."
    },
    references: ["rfc4033", "rfc4035", "rfc9904"],
    nl: {
      why: "Zonder DNSSEC kan een aanvaller die DNS-vragen van je bezoekers of van andere mailservers kan beantwoorden, hen naar een server van zijn keuze sturen, zonder dat iemand het merkt. Met DNSSEC-ondertekening van de zone kunnen resolvers vervalste antwoorden weigeren; ook DANE voor mail bouwt erop.",
      steps: [
        "Zet bij je DNS-host DNSSEC-ondertekening aan voor de zone en kies, als daarom wordt gevraagd, algoritme 13 (ECDSA P-256 SHA-256).",
        "Kopieer het DS-record (key tag, algoritme 13, digesttype 2 en de digest) dat de DNS-host toont zodra de ondertekening aan staat.",
        "Voeg dat DS-record toe bij je registrar, in de DNSSEC-instellingen van het domein.",
        "Scan het domein opnieuw nadat de registry het heeft gepubliceerd (minuten tot een dag): DNSSEC hoort dan ondertekend en geldig te zijn."
      ],
      providers: {
        cloudflare:
          "DNS > Settings > Enable DNSSEC ondertekent de zone met één klik en toont het DS-record. Is Cloudflare ook de registrar, dan voegt het de DS zelf toe; plak die anders bij je registrar.",
        "route53-ses":
          "In de hosted zone vraagt DNSSEC signing > Enable DNSSEC signing om een key-signing key op basis van een door jezelf beheerde KMS-sleutel (ECC_NIST_P256, in us-east-1). Kies daarna View information to create DS record; voor een domein dat bij Route 53 is geregistreerd, voeg je het toe onder Registered domains > DNSSEC keys.",
        "generic-dns":
          "Kan je DNS-host geen zones ondertekenen, verhuis de zone dan eerst naar een host die dat wel kan; een DS bij de registrar zonder handtekeningen maakt het domein onbereikbaar."
      }
    }
  }),
  dnssec_bogus: guide({
    why: "Resolvers that validate DNSSEC (used by a large share of internet users, including many ISPs, Google Public DNS and Cloudflare 1.1.1.1) cannot find your domain at all: web site and mail stop working for them.",
    steps: [
      "Compare the DS record at the registrar with the DNSKEY records the DNS host publishes: the DS must match a current key-signing key.",
      "If the keys changed (new DNS host, key rollover), replace the DS at the registrar with the one the DNS host shows now.",
      "If the zone is no longer signed, or you cannot fix the keys quickly, remove the DS record at the registrar: the domain becomes reachable again, unsigned, once the old DS expires from caches.",
      "Scan again once the registry has published the change."
    ],
    providers: {
      cloudflare:
        "Moving a signed zone to Cloudflare breaks validation unless the old DS is removed or replaced by the DS that DNS > Settings > DNSSEC shows.",
      "route53-ses":
        "If the KMS key behind the key-signing key was disabled or deleted, Route 53 stops signing: re-enable the key, or remove the DS before disabling DNSSEC signing."
    },
    references: ["rfc4035", "rfc6781"],
    nl: {
      why: "Resolvers die DNSSEC valideren (gebruikt door een groot deel van de internetgebruikers, waaronder veel internetproviders, Google Public DNS en Cloudflare 1.1.1.1) kunnen je domein helemaal niet vinden: website en mail werken voor hen niet meer.",
      steps: [
        "Vergelijk het DS-record bij de registrar met de DNSKEY-records die de DNS-host publiceert: de DS moet passen bij een actuele key-signing key.",
        "Zijn de sleutels veranderd (nieuwe DNS-host, sleutelwissel), vervang de DS bij de registrar dan door de DS die de DNS-host nu toont.",
        "Is de zone niet meer ondertekend, of kun je de sleutels niet snel herstellen, verwijder dan het DS-record bij de registrar: het domein wordt weer bereikbaar, zonder ondertekening, zodra de oude DS uit de caches is verlopen.",
        "Scan opnieuw zodra de registry de wijziging heeft gepubliceerd."
      ],
      providers: {
        cloudflare:
          "Een ondertekende zone naar Cloudflare verhuizen breekt de validatie, tenzij de oude DS wordt verwijderd of vervangen door de DS die DNS > Settings > DNSSEC toont.",
        "route53-ses":
          "Is de KMS-sleutel achter de key-signing key uitgeschakeld of verwijderd, dan stopt Route 53 met ondertekenen: schakel de sleutel weer in, of verwijder de DS voordat je DNSSEC-ondertekening uitzet."
      }
    }
  }),
  dnssec_weak_algorithm: guide({
    why: "The zone is signed with an algorithm that is being retired. Validators increasingly treat such zones as unsigned, and the signatures give weaker protection than current ones.",
    steps: [
      "Ask your DNS host to roll the zone to algorithm 13 (ECDSA P-256 SHA-256); many hosts do this as an option in the DNSSEC settings.",
      "During an algorithm rollover, new keys and signatures are published first; only then is the DS at the registrar replaced with the new key's DS.",
      "Remove the old keys only after the old DS has left caches (at least its TTL, usually a day or two)."
    ],
    providers: {
      cloudflare:
        "Cloudflare signs with algorithm 13 already: disable and re-enable is not needed; re-check the DS at the registrar.",
      "route53-ses":
        "Route 53 signs with algorithm 13 (ECDSA P-256): moving the zone's signing to Route 53 is the rollover."
    },
    references: ["rfc9904", "rfc9905", "rfc6781"],
    nl: {
      why: "De zone is ondertekend met een algoritme dat wordt uitgefaseerd. Validators behandelen zulke zones steeds vaker als niet-ondertekend, en de handtekeningen beschermen minder goed dan de huidige.",
      steps: [
        "Vraag je DNS-host de zone over te zetten op algoritme 13 (ECDSA P-256 SHA-256); veel hosts bieden dat als optie in de DNSSEC-instellingen.",
        "Bij een algoritmewissel worden eerst nieuwe sleutels en handtekeningen gepubliceerd; pas daarna wordt de DS bij de registrar vervangen door de DS van de nieuwe sleutel.",
        "Verwijder de oude sleutels pas als de oude DS uit de caches is (minstens zijn TTL, meestal een of twee dagen)."
      ],
      providers: {
        cloudflare:
          "Cloudflare ondertekent al met algoritme 13: uit- en weer aanzetten is niet nodig; controleer de DS bij de registrar opnieuw.",
        "route53-ses":
          "Route 53 ondertekent met algoritme 13 (ECDSA P-256): de ondertekening van de zone naar Route 53 verplaatsen is de wissel."
      }
    }
  }),
  dnssec_rsa_key_short: guide({
    why: "An RSA key shorter than 2048 bits may be broken by a well-funded attacker, who could then sign forged answers that resolvers accept as genuine.",
    steps: [
      "Roll the zone's keys to 2048-bit RSA, or better to algorithm 13 (ECDSA P-256), at your DNS host.",
      "If the key-signing key changes, publish its new DS record at the registrar and remove the old DS after a day or two."
    ],
    references: ["nist_sp800_57", "rfc9904"],
    nl: {
      why: "Een RSA-sleutel korter dan 2048 bits kan door een aanvaller met veel middelen worden gekraakt, die dan vervalste antwoorden kan ondertekenen die resolvers als echt accepteren.",
      steps: [
        "Wissel de sleutels van de zone bij je DNS-host naar RSA van 2048 bits, of beter naar algoritme 13 (ECDSA P-256).",
        "Verandert de key-signing key, publiceer dan het nieuwe DS-record bij de registrar en verwijder de oude DS na een of twee dagen."
      ]
    }
  }),
  dnssec_no_ds: guide({
    why: "Your DNS host signs the zone, but the registrar has no DS record for it, so resolvers never learn which keys to trust: the signatures protect nothing until the DS is published.",
    steps: [
      "Copy the DS record (key tag, algorithm, digest type 2 and the digest) that your DNS host shows for the zone.",
      "Add that DS record at your registrar, in the domain's DNSSEC settings.",
      "After the registry publishes it (minutes to a day), scan again: DNSSEC should show as valid."
    ],
    references: ["rfc4035", "rfc4034"],
    nl: {
      why: "Je DNS-host ondertekent de zone, maar de registrar heeft er geen DS-record voor, dus resolvers weten niet welke sleutels ze moeten vertrouwen: de handtekeningen beschermen niets tot de DS is gepubliceerd.",
      steps: [
        "Kopieer het DS-record (key tag, algoritme, digesttype 2 en de digest) dat je DNS-host voor de zone toont.",
        "Voeg dat DS-record toe bij je registrar, in de DNSSEC-instellingen van het domein.",
        "Scan opnieuw nadat de registry het heeft gepubliceerd (minuten tot een dag): DNSSEC hoort dan geldig te zijn."
      ]
    }
  }),
  dnssec_insecure: guide({
    why: "The zone is signed and the registrar has a DS, yet validating resolvers do not accept the chain: the DS points at no current key, or the algorithm or digest is one they no longer accept (SHA-1, RFC 9905). They treat the domain as unsigned, so forged answers go undetected.",
    steps: [
      "Compare the DS record at the registrar with the key-signing key your DNS host publishes now; replace a DS that matches no key.",
      "If the zone is signed with algorithm 5 or 7 (RSA with SHA-1), roll it to algorithm 13 or 15 at your DNS host (an algorithm rollover, RFC 6781 4.1.4).",
      "Publish the new key's DS with digest type 2 (SHA-256) and remove the old DS once the new one is live.",
      "Scan again: DNSSEC should show as valid."
    ],
    references: ["rfc4035", "rfc9905", "rfc6781"],
    nl: {
      why: "De zone is ondertekend en de registrar heeft een DS, maar validerende resolvers aanvaarden de keten niet: de DS wijst naar geen huidige sleutel, of het algoritme of de digest is er een die ze niet meer aanvaarden (SHA-1, RFC 9905). Ze behandelen het domein als niet-ondertekend, dus vervalste antwoorden vallen niet op.",
      steps: [
        "Vergelijk het DS-record bij de registrar met de key-signing key die je DNS-host nu publiceert; vervang een DS die bij geen sleutel past.",
        "Is de zone ondertekend met algoritme 5 of 7 (RSA met SHA-1), wissel dan bij je DNS-host naar algoritme 13 of 15 (een algoritmewissel, RFC 6781 4.1.4).",
        "Publiceer de DS van de nieuwe sleutel met digesttype 2 (SHA-256) en verwijder de oude DS zodra de nieuwe actief is.",
        "Scan opnieuw: DNSSEC hoort dan geldig te zijn."
      ]
    }
  }),
  dnssec_weak_digest: guide({
    why: "The registrar's DS record is the link from the parent zone to your keys. With only a SHA-1 digest that link rests on a hash with practical collisions, and validators that stop accepting SHA-1 DS records will treat your domain as unsigned.",
    steps: [
      "At your DNS host, look up the DS record of the key-signing key with digest type 2 (SHA-256).",
      "Add that DS record at your registrar, beside the SHA-1 one.",
      "After a day (the DS TTL), remove the DS record with digest type 1 at the registrar.",
      "Scan again: the DS should show digest type 2 only."
    ],
    references: ["rfc9904", "rfc4034"],
    nl: {
      why: "Het DS-record bij de registrar is de schakel van de bovenliggende zone naar je sleutels. Met alleen een SHA-1-digest rust die schakel op een hash waarvoor botsingen haalbaar zijn, en validators die geen SHA-1-DS-records meer accepteren behandelen je domein als niet-ondertekend.",
      steps: [
        "Zoek bij je DNS-host het DS-record van de key-signing key op met digesttype 2 (SHA-256).",
        "Voeg dat DS-record toe bij je registrar, naast het SHA-1-record.",
        "Verwijder na een dag (de TTL van de DS) het DS-record met digesttype 1 bij de registrar.",
        "Scan opnieuw: de DS hoort alleen nog digesttype 2 te tonen."
      ]
    }
  }),
  dnssec_nsec3_iterations: guide({
    why: "Extra NSEC3 iterations and salt add no real protection but cost every resolver work; current validators may treat such answers as unsigned.",
    steps: [
      "In the zone's DNSSEC settings, set NSEC3 iterations to 0 and the salt to empty (or switch to NSEC).",
      "Let the DNS host re-sign the zone; no change at the registrar is needed."
    ],
    providers: {
      "generic-dns":
        "On BIND: dnssec-policy with nsec3param iterations 0 optout no salt-length 0. On PowerDNS: pdnsutil set-nsec3 <zone> '1 0 0 -'."
    },
    references: ["rfc9276"],
    nl: {
      why: "Extra NSEC3-iteraties en salt voegen geen echte bescherming toe, maar kosten elke resolver werk; huidige validators kunnen zulke antwoorden als niet-ondertekend behandelen.",
      steps: [
        "Zet in de DNSSEC-instellingen van de zone het aantal NSEC3-iteraties op 0 en de salt op leeg (of stap over op NSEC).",
        "Laat de DNS-host de zone opnieuw ondertekenen; bij de registrar hoeft niets te veranderen."
      ],
      providers: {
        "generic-dns":
          "In BIND: dnssec-policy met nsec3param iterations 0 optout no salt-length 0. In PowerDNS: pdnsutil set-nsec3 <zone> '1 0 0 -'."
      }
    }
  }),
  dnssec_rrsig_expiring: guide({
    why: "The zone's signatures are about to expire or have expired. When they do, validating resolvers treat the whole domain as broken and stop answering for it: web site and mail go down for their users.",
    steps: [
      "Re-sign the zone at the DNS host now.",
      "Find out why automatic re-signing stopped (a stopped signer, an expired key, a hidden primary no longer transferring) and fix it.",
      "Scan again: every signature should be valid for more than 7 days."
    ],
    references: ["rfc4035"],
    nl: {
      why: "De handtekeningen van de zone verlopen binnenkort of zijn verlopen. Gebeurt dat, dan zien validerende resolvers het hele domein als kapot en geven ze er geen antwoord meer op: website en mail liggen eruit voor hun gebruikers.",
      steps: [
        "Onderteken de zone nu opnieuw bij de DNS-host.",
        "Zoek uit waarom het automatisch opnieuw ondertekenen stopte (een gestopte signer, een verlopen sleutel, een verborgen primaire server die niet meer overdraagt) en herstel dat.",
        "Scan opnieuw: elke handtekening hoort nog meer dan 7 dagen geldig te zijn."
      ]
    }
  }),
  dnssec_rrsig_soa_expire: guide({
    why: "Secondary name servers keep answering for your zone for as long as the SOA expire value says, even when they can no longer reach the primary. Their copy carries the signatures they last received: if those expire sooner, the secondaries keep answering with signatures that validating resolvers reject, and your domain goes dark for those resolvers without any server being down.",
    steps: [
      "Look up the zone's SOA expire value (the sixth number of the SOA record, in seconds) and the signature validity of your signer.",
      "Have the signer keep every signature valid longer than the SOA expire: a longer signature lifetime, or re-signing while more than the expire is left (BIND: sig-validity-interval and its refresh; Knot: rrsig-lifetime and rrsig-refresh; PowerDNS: the signature validity period).",
      "Or lower the SOA expire (2 to 4 weeks is common) below what the signatures have left.",
      "Scan again: the signatures should outlive the SOA expire."
    ],
    references: ["rfc6781", "rfc1035"],
    nl: {
      why: "Secundaire nameservers blijven je zone beantwoorden zolang de SOA-expire aangeeft, ook als ze de primaire server niet meer bereiken. Hun kopie bevat de handtekeningen die ze het laatst kregen: verlopen die eerder, dan blijven de secundaire servers antwoorden met handtekeningen die validerende resolvers weigeren, en is je domein voor die resolvers onbereikbaar zonder dat er een server uitvalt.",
      steps: [
        "Zoek de SOA-expire van de zone op (het zesde getal van het SOA-record, in seconden) en de geldigheidsduur van de handtekeningen van je signer.",
        "Laat de signer elke handtekening langer geldig houden dan de SOA-expire: een langere geldigheidsduur, of opnieuw ondertekenen terwijl er nog meer dan de expire over is (BIND: sig-validity-interval en de verversing ervan; Knot: rrsig-lifetime en rrsig-refresh; PowerDNS: de geldigheidsperiode van handtekeningen).",
        "Of verlaag de SOA-expire (2 tot 4 weken is gebruikelijk) tot onder wat de handtekeningen nog over hebben.",
        "Scan opnieuw: de handtekeningen horen de SOA-expire te overleven."
      ]
    }
  })
} satisfies { readonly [I in keyof typeof issues]: Guidance }
