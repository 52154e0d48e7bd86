/**
 * The fixes of the NIS2 scorecard: the issue catalogue's entries (`Catalogue.ts`, English) as one
 * line each, with a Dutch title and description per issue id for `lang=nl`. The table is typed over
 * every catalogue id, so an issue added to the catalogue without Dutch text does not compile;
 * `test/score/nis2Text.test.ts` also checks that no text is empty.
 */
import { catalogue, type IssueId } from "./Catalogue.ts"
import type { Lang } from "./Nis2Text.ts"

import { DEPENDENCY_ISSUES, type Dutch, nl } from "./Nis2FixesDependencies.ts"

export const DUTCH_ISSUES: { readonly [I in IssueId]: Dutch } = {
  ...DEPENDENCY_ISSUES,
  dns_no_such_domain: nl(
    "Domein bestaat niet",
    "De nameservers van het domein antwoorden NXDOMAIN: elke controle op basis van DNS faalt."
  ),
  ns_single: nl(
    "Minder dan twee nameservers",
    "RFC 1034 4.1 en RFC 2182 vragen om minstens twee nameservers, zodat één storing het domein niet onbereikbaar maakt."
  ),
  soa_missing: nl("Geen SOA-record", "De top van de zone geeft geen SOA-record (RFC 1035 3.3.13)."),
  ns_one_network: nl(
    "Nameservers delen één netwerk",
    "Alle adressen van de nameservers liggen in één IPv4-/24 (of één IPv6-/48): één netwerkstoring legt ze allemaal plat (RFC 2182 3.1)."
  ),
  ns_lame: nl(
    "Kreupele delegatie",
    "Een opgegeven nameserver van het domein antwoordt niet met autoriteit voor de zone (RFC 1912 2.8): resolvers die hem vragen falen of wachten."
  ),
  ns_inconsistent: nl(
    "Nameservers spreken elkaar tegen",
    "De nameservers geven verschillende SOA-serienummers of NS-sets, of hun NS-set wijkt af van de delegatie in de bovenliggende zone (RFC 1034 4.2.2)."
  ),
  ns_no_tcp: nl(
    "Nameserver antwoordt niet via TCP",
    "Elke gezaghebbende server moet via TCP antwoorden (RFC 7766 5); grote antwoorden zoals DNSSEC-sleutels hebben het nodig."
  ),
  ns_open_recursion: nl(
    "Nameserver is een open resolver",
    "Een nameserver beantwoordt recursieve vragen van iedereen en is zo bruikbaar voor reflectieaanvallen en cachevergiftiging (RFC 5358)."
  ),
  ns_no_ipv6: nl(
    "Geen nameserver via IPv6",
    "Geen nameserver van het domein antwoordt op een IPv6-adres (RFC 3596), dus resolvers met alleen IPv6 kunnen het niet opzoeken."
  ),
  mx_unresolvable: nl(
    "Namen van mailservers zijn niet vindbaar",
    "Een MX-doel heeft geen A- of AAAA-adres, dus mail daarheen kan niet worden afgeleverd (RFC 5321 5.1)."
  ),
  null_mx_missing: nl(
    "Geen MX en geen null MX",
    "Het domein heeft geen MX-record, dus afzenders bezorgen op het eigen adres (RFC 5321 5.1), waar geen mailserver antwoordt; een null MX (RFC 7505) zegt dat het geen mail ontvangt."
  ),
  ptr_missing: nl(
    "Adres van een mailserver heeft geen PTR",
    "Ontvangers weigeren of benadelen mail van adressen zonder reverse DNS (RFC 1912 2.1, M3AAWG)."
  ),
  fcrdns_mismatch: nl(
    "Reverse DNS is niet voorwaarts bevestigd",
    "De PTR-naam van een mailserveradres verwijst niet terug naar dat adres."
  ),
  caa_missing: nl(
    "Geen CAA-record",
    "Zonder CAA mag elke certificaatautoriteit certificaten voor het domein uitgeven (RFC 8659)."
  ),
  spf_missing: nl(
    "Geen SPF-record",
    "Iedereen kan mail versturen die zegt van dit domein te komen (RFC 7208)."
  ),
  spf_invalid: nl(
    "SPF-record is ongeldig",
    "Het SPF-record geeft een permerror (syntaxis, meerdere records of een kapotte include), dus ontvangers negeren het (RFC 7208 4.6)."
  ),
  spf_multiple_records: nl(
    "Meerdere SPF-records",
    "Meer dan één v=spf1-record is een permerror (RFC 7208 4.5)."
  ),
  spf_too_many_lookups: nl(
    "SPF heeft meer dan 10 DNS-opvragingen nodig",
    "De evaluatie stopt met een permerror na 10 opvragingen (RFC 7208 4.6.4); maak includes plat."
  ),
  spf_too_many_void_lookups: nl(
    "SPF heeft meer dan 2 lege opvragingen",
    "Termen die naar namen zonder records wijzen tellen als lege opvragingen; meer dan 2 is een permerror (RFC 7208 4.6.4)."
  ),
  spf_plus_all: nl(
    "SPF eindigt op +all",
    "+all staat elke server op internet toe om namens dit domein te versturen."
  ),
  spf_neutral_all: nl(
    "SPF eindigt op ?all of heeft geen all",
    "Een neutraal resultaat geeft ontvangers geen instructie voor niet-vermelde servers."
  ),
  spf_softfail_all: nl(
    "SPF eindigt op ~all",
    "~all vraagt ontvangers niet-vermelde afzenders te accepteren maar te markeren; -all is sterker zodra DMARC wordt afgedwongen."
  ),
  spf_lookups_near_limit: nl(
    "SPF dicht bij de grens van 10 opvragingen",
    "Eén include meer kan de evaluatie over de grens van RFC 7208 4.6.4 duwen."
  ),
  spf_loop: nl(
    "SPF-include-lus",
    "Een include of redirect leidt terug naar zichzelf: permerror (RFC 7208 4.6.4)."
  ),
  spf_include_broken: nl(
    "Kapotte SPF-include",
    "Een geïncludeerd of doorverwezen domein heeft geen bruikbaar SPF-record of faalt zelf (RFC 7208 5.2)."
  ),
  spf_include_pass_all: nl(
    "Een SPF-include staat iedereen toe",
    "Een geïncludeerd record eindigt op +all, dus de include past op elke afzender."
  ),
  spf_mx_too_many: nl(
    "SPF-mx met te veel adressen",
    "Een mx-mechanisme noemt meer dan 10 mailservers: permerror (RFC 7208 4.6.4)."
  ),
  spf_ptr_mechanism: nl(
    "SPF gebruikt ptr",
    "RFC 7208 5.5: het ptr-mechanisme zou niet gebruikt moeten worden (traag en onbetrouwbaar)."
  ),
  spf_answer_too_large: nl(
    "SPF-antwoord te groot",
    "Het TXT-antwoord is groter dan 512 bytes en kan TCP vereisen, wat sommige ontvangers niet opnieuw proberen (RFC 7208 3.4)."
  ),
  dmarc_missing: nl(
    "Geen DMARC-record",
    "Zonder DMARC hebben ontvangers geen beleid voor mail die niet slaagt voor SPF en DKIM (RFC 7489)."
  ),
  dmarc_invalid: nl(
    "DMARC-record bevat fouten",
    "Het DMARC-record heeft syntaxisfouten; ontvangers kunnen het geheel of gedeeltelijk negeren (RFC 7489 6.3)."
  ),
  dmarc_multiple_records: nl(
    "Meerdere DMARC-records",
    "Meer dan één DMARC-record: ontvangers passen er geen toe (RFC 7489 6.6.3)."
  ),
  dmarc_subdomain_policy_none: nl(
    "DMARC laat subdomeinen onbeschermd",
    "sp=none terwijl p afdwingt: vervalste mail van subdomeinen wordt nog steeds afgeleverd."
  ),
  dmarc_testing: nl(
    "DMARC in testmodus",
    "t=y vraagt ontvangers het beleid niet volledig toe te passen (DMARCbis)."
  ),
  dmarc_leading_space: nl(
    "DMARC-record begint niet met v=DMARC1",
    "Een TXT-record op _dmarc dat met een spatie of andere tekst vóór v=DMARC1 begint, is geen DMARC-record (RFC 7489 6.6.3): ontvangers negeren het."
  ),
  dmarc_spf_at_dmarc: nl(
    "SPF-record gepubliceerd op _dmarc",
    "Een SPF-record op _dmarc wordt nooit als SPF gelezen (RFC 7208 3 plaatst het op het domein zelf); meestal zijn de records verwisseld."
  ),
  dmarc_too_many_rua: nl(
    "Meer dan twee DMARC-rapportadressen",
    "Ontvangers hoeven verzamelrapporten alleen naar de eerste twee rua-URI's te sturen (RFC 7489 6.2); latere krijgen mogelijk niets."
  ),
  dmarc_rua_no_mx: nl(
    "DMARC-rapportadres kan geen mail ontvangen",
    "Het domein van een rua-adres ontvangt geen mail (een null-MX, of MX noch adres), dus verzamelrapporten komen daar nooit aan."
  ),
  dmarc_unknown_tag: nl(
    "Onbekende DMARC-tag",
    "Ontvangers negeren onbekende tags (RFC 7489 6.3); vaak een tikfout."
  ),
  dmarc_non_mailto_uri: nl(
    "DMARC-rapportadres is geen mailto:",
    "Ontvangers hoeven alleen mailto:-URI's te ondersteunen (RFC 7489 6.2)."
  ),
  dmarc_policy_none: nl(
    "DMARC-beleid is none",
    "p=none monitort alleen: vervalste mail wordt nog steeds afgeleverd."
  ),
  dmarc_policy_quarantine: nl(
    "DMARC-beleid is quarantine",
    "p=quarantine stuurt vervalste mail naar de spammap; p=reject weigert die."
  ),
  dmarc_pct_below_100: nl(
    "DMARC geldt voor een deel van de mail",
    "pct onder 100 past het beleid toe op slechts een deel van de falende mail."
  ),
  dmarc_no_rua: nl(
    "Geen DMARC-verzamelrapporten",
    "Zonder rua ontvangt u geen rapporten en ziet u niet wie namens u verstuurt."
  ),
  dmarc_external_rua_unauthorised: nl(
    "Extern DMARC-rapportadres niet gemachtigd",
    "Het ontvangende domein heeft geen _report._dmarc-record dat de rapporten toestaat (RFC 7489 7.1)."
  ),
  dkim_weak_key: nl(
    "Zwakke DKIM-sleutel",
    "Een RSA-sleutel onder 2048 bits is zwak (RFC 8301 3.2 eist minstens 1024 en raadt 2048 aan)."
  ),
  mta_sts_missing: nl(
    "Geen MTA-STS",
    "Zonder MTA-STS vallen verzenders terug op onversleutelde aflevering als STARTTLS wordt weggefilterd (RFC 8461)."
  ),
  mta_sts_testing: nl("MTA-STS in testmodus", "mode=testing rapporteert fouten maar dwingt TLS niet af."),
  mta_sts_invalid: nl(
    "MTA-STS-beleid is kapot",
    "Het _mta-sts-record is gepubliceerd, maar het beleid kan niet worden opgehaald, is ongeldig of dekt de MX-hosts niet."
  ),
  tls_rpt_missing: nl(
    "Geen TLS-RPT-record",
    "Zonder _smtp._tls-rapporten hoort u niet van mislukte TLS-afleveringen (RFC 8460)."
  ),
  bimi_invalid: nl(
    "BIMI-record heeft problemen",
    "Het BIMI-logo of het bewijs van zeggenschap erover kan niet door mailboxaanbieders worden gebruikt."
  ),
  starttls_missing: nl(
    "Mailserver zonder STARTTLS",
    "Een mailserver biedt geen STARTTLS met TLS 1.2 of hoger, dus mail reist onversleuteld (RFC 3207)."
  ),
  mx_cert_invalid: nl(
    "Certificaat van een mailserver is niet geldig",
    "Het certificaat van een mailserver is verlopen, niet vertrouwd of noemt de host niet."
  ),
  mx_tls_version_outdated: nl(
    "Mailserver accepteert TLS 1.0 of 1.1",
    "Een mailserver accepteert nog TLS 1.0 of 1.1, verouderd volgens RFC 8996 en volgens de NCSC-TLS-richtlijnen uit te faseren."
  ),
  mx_tls_cipher_weak: nl(
    "Mailserver accepteert zwakke cipher suites",
    "Een mailserver accepteert cipher suites die de NCSC-TLS-richtlijnen uit te faseren (RSA-sleuteluitwisseling, 3DES) of onvoldoende (RC4, NULL, EXPORT, DES) noemen."
  ),
  mx_tls_key_exchange_weak: nl(
    "Mailserver gebruikt een zwakke sleuteluitwisseling",
    "De sleuteluitwisseling van een mailserver gebruikt een eindige-veldgroep onder 3072 bits of een curve die de NCSC-TLS-richtlijnen niet goed noemen."
  ),
  dane_invalid: nl(
    "DANE-TLSA valideert niet",
    "TLSA-records passen niet bij het certificaat of zijn niet met DNSSEC ondertekend (RFC 7672)."
  ),
  dane_missing: nl("Geen DANE", "Geen TLSA-record voor de mailservers in een ondertekende zone (RFC 7672)."),
  blocklisted: nl(
    "Mailserver op een blokkadelijst",
    "Een adres van een mailserver staat op een DNS-blokkadelijst met hoge ernst."
  ),
  https_missing: nl(
    "Geen werkende HTTPS",
    "De website antwoordt niet via HTTPS met een vertrouwd certificaat."
  ),
  https_certificate_invalid: nl(
    "HTTPS-certificaat verlopen of niet vertrouwd",
    "Browsers weigeren de site: het certificaat is verlopen, niet vertrouwd of voor een andere naam."
  ),
  hsts_missing: nl(
    "Geen HSTS",
    "Zonder Strict-Transport-Security kunnen browsers worden teruggedwongen naar HTTP (RFC 6797)."
  ),
  hsts_weak: nl("Zwakke HSTS", "max-age korter dan een jaar of zonder includeSubDomains."),
  web_tls_version_outdated: nl(
    "Webserver accepteert TLS 1.0 of 1.1",
    "TLS 1.0 en 1.1 zijn verouderd (RFC 8996) en volgens de NCSC-TLS-richtlijnen uit te faseren; accepteer alleen TLS 1.2 en 1.3."
  ),
  web_tls_cipher_weak: nl(
    "Webserver accepteert zwakke cipher suites",
    "De webserver accepteert cipher suites die de NCSC-TLS-richtlijnen uit te faseren (RSA-sleuteluitwisseling, 3DES) of onvoldoende (RC4, NULL, EXPORT, DES) noemen."
  ),
  web_tls_key_exchange_weak: nl(
    "Webserver gebruikt een zwakke sleuteluitwisseling",
    "De sleuteluitwisseling gebruikt een eindige-veldgroep onder 3072 bits of een curve die de NCSC-TLS-richtlijnen niet goed noemen."
  ),
  web_tls_certificate_weak: nl(
    "Webcertificaat met zwakke sleutel of handtekening",
    "De sleutel (RSA onder 2048 bits, een ongebruikelijke curve) of handtekening (SHA-1, MD5) van het webcertificaat voldoet niet aan de NCSC-TLS-richtlijnen."
  ),
  https_record_mismatch: nl(
    "HTTPS-record klopt niet met de server",
    "Het HTTPS-record (RFC 9460) noemt een protocol dat de server niet onderhandelt of een adreshint die niet van de site is."
  ),
  cookies_insecure: nl(
    "Onveilige cookies",
    "Een cookie zonder Secure, een sessiecookie zonder HttpOnly of met een ongeldige SameSite (RFC 6265bis 4.1.2)."
  ),
  sri_missing: nl(
    "Scripts van andere sites zonder integriteitscontrole",
    "De pagina laadt een script van een andere site zonder integrity-attribuut of via gewoon HTTP (W3C Subresource Integrity)."
  ),
  cors_credentials_any_origin: nl(
    "Elke site kan de pagina lezen als de bezoeker",
    "De pagina herhaalt elke Origin met Access-Control-Allow-Credentials: true (WHATWG Fetch CORS)."
  ),
  xcto_missing: nl(
    "Geen X-Content-Type-Options",
    "Zonder nosniff kunnen browsers antwoorden als een ander inhoudstype behandelen."
  ),
  frame_protection_missing: nl(
    "Geen bescherming tegen clickjacking",
    "X-Frame-Options noch CSP frame-ancestors beperkt het insluiten in frames."
  ),
  referrer_policy_missing: nl(
    "Geen veilige Referrer-Policy",
    "URL's kunnen via de Referer-header naar andere sites lekken."
  ),
  csp_missing: nl(
    "Geen Content-Security-Policy",
    "Zonder CSP draait een geïnjecteerd script met de rechten van de pagina."
  ),
  csp_weak: nl(
    "Zwakke Content-Security-Policy",
    "De CSP staat unsafe-inline of unsafe-eval toe, of is alleen report-only."
  ),
  csp_unsafe: nl(
    "Content-Security-Policy beperkt scripts niet",
    "De CSP staat 'unsafe-inline'-scripts zonder nonce of hash toe, scripts van elke host, of zet geen script-src of default-src, dus een geïnjecteerd script draait nog steeds."
  ),
  dnssec_unsigned: nl(
    "DNSSEC niet ingeschakeld",
    "Het domein is niet ondertekend, dus DNS-antwoorden kunnen worden vervalst (RFC 4033)."
  ),
  dnssec_bogus: nl(
    "DNSSEC-validatie faalt",
    "Validerende resolvers antwoorden SERVFAIL: het domein is voor hen onbereikbaar (kapotte keten, RFC 4035 5.5)."
  ),
  dnssec_weak_algorithm: nl(
    "Verouderd DNSSEC-algoritme",
    "De zone is ondertekend met een algoritme dat RFC 8624 afraadt; gebruik 13 (ECDSA P-256) of 8."
  ),
  dnssec_rsa_key_short: nl(
    "DNSSEC-RSA-sleutel korter dan 2048 bits",
    "Een RSA-DNSKEY onder 2048 bits is zwakker dan NIST SP 800-57 aanbeveelt; rol over naar een sleutel van 2048 bits of naar algoritme 13."
  ),
  dnssec_nsec3_iterations: nl(
    "NSEC3 met extra iteraties of salt",
    "RFC 9276 3.1: iteraties moeten 0 zijn en de salt hoort leeg te zijn."
  ),
  dnssec_rrsig_expiring: nl(
    "DNSSEC-handtekeningen verlopen binnenkort",
    "Een RRSIG verloopt binnen 7 dagen of is verlopen; onderteken de zone opnieuw."
  ),
  ipv6_mx_missing: nl("Mailservers zonder IPv6", "Geen enkele mailserver heeft een AAAA-adres."),
  ipv6_web_missing: nl("Website zonder IPv6", "Het domein heeft geen AAAA-record."),
  http_no_redirect: nl(
    "Onversleuteld HTTP stuurt niet door naar HTTPS",
    "http:// op poort 80 toont de site onversleuteld in plaats van door te sturen naar https:// (RFC 9110 15.4)."
  ),
  http_redirect_off_host: nl(
    "HTTP stuurt eerst door naar een andere host",
    "http:// stuurt eerst door naar https:// op een andere host (bijvoorbeeld van het domein naar www), zodat browsers het HSTS-beleid van de host zelf nooit ontvangen (RFC 6797 7.2, 8.1)."
  ),
  http_redirect_via_http: nl(
    "HTTP stuurt eerst door via onversleuteld HTTP",
    "http:// stuurt eerst door naar een ander http://-adres voordat HTTPS volgt: een extra onversleutelde stap die een aanvaller kan herschrijven."
  ),
  http_redirect_not_https: nl(
    "Doorsturen vanaf HTTP eindigt niet op HTTPS",
    "De keten van doorverwijzingen vanaf http:// eindigt op onversleuteld HTTP, loopt rond of breekt af voordat een HTTPS-pagina antwoordt."
  ),
  www_inconsistent: nl(
    "www gedraagt zich anders dan het domein",
    "www.<domein> stuurt onversleuteld HTTP niet door naar HTTPS op dezelfde host, of stuurt geen HSTS terwijl het domein dat wel doet."
  ),
  security_txt_missing: nl(
    "Geen security.txt",
    "Er is geen /.well-known/security.txt die zegt waar een kwetsbaarheid gemeld kan worden (RFC 9116)."
  ),
  security_txt_expired: nl(
    "security.txt verlopen",
    "De Expires-datum van de security.txt is verstreken, dus de contactgegevens gelden als verouderd (RFC 9116 2.5.5)."
  ),
  security_txt_invalid: nl(
    "security.txt ongeldig",
    "De security.txt mist een verplicht veld (Contact, Expires), gebruikt een onversleutelde HTTP-link, wordt niet als text/plain geleverd, of de Canonical noemt het eigen adres niet (RFC 9116)."
  ),
  security_txt_legacy_location: nl(
    "security.txt alleen op de oude plek",
    "Het bestand staat op /security.txt maar niet op /.well-known/security.txt, waar RFC 9116 3 het plaatst."
  ),
  security_txt_redirect_elsewhere: nl(
    "security.txt stuurt door naar een andere host",
    "/.well-known/security.txt stuurt door buiten de host (of buiten HTTPS), dus het bestand spreekt niet voor dit domein (RFC 9116 3)."
  )
}

/** The title of an issue in a language. */
export const issueTitle = (id: IssueId, lang: Lang): string =>
  ((lang === "nl" ? DUTCH_ISSUES[id] : undefined) ?? catalogue[id]!).title

/** One fix line: the issue's title and description, and its id (the key of /ai/fix and docs/issues.md). */
export const fixText = (id: IssueId, lang: Lang): string => {
  // An issue without a Dutch entry is shown in English rather than not at all.
  const text = (lang === "nl" ? DUTCH_ISSUES[id] : undefined) ?? catalogue[id]!
  return `${text.title} (${id}): ${text.description}`
}
