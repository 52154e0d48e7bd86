/**
 * The Dutch title and description of the issues of the checks of what a domain depends on, part of
 * the NIS2 scorecard's table (`Nis2Fixes.ts`, which spreads them in).
 */
export interface Dutch {
  readonly title: string
  readonly description: string
}

export const nl = (title: string, description: string): Dutch => ({ title, description })

/** The issues of the checks of what a domain depends on: registration, takeover, CAA and RPKI. */
export const DEPENDENCY_ISSUES = {
  registration_expiring: nl(
    "Registratie van het domein verloopt binnenkort",
    "Volgens RDAP (RFC 9083) verloopt de registratie van het domein binnen 30 dagen, of staat ze op hold of pending delete."
  ),
  registration_expired: nl(
    "Registratie van het domein is verlopen",
    "Volgens RDAP (RFC 9083) ligt de vervaldatum van de registratie in het verleden: het register kan het domein verwijderen en iedereen kan het registreren."
  ),
  dependency_expiring: nl(
    "Een domein waarvan dit domein afhangt verloopt binnenkort",
    "Een domein dat de NS-, MX-, SPF-, DMARC-, TLS-RPT-, BIMI- of CNAME-records noemen verloopt volgens RDAP (RFC 9083) binnen 30 dagen; wie het daarna registreert, beheert dat deel van dit domein."
  ),
  cname_dangling: nl(
    "CNAME naar een naam die niet bestaat",
    "Een CNAME van het domein wijst naar een naam die niet bestaat (NXDOMAIN, RFC 1034 3.6.2): wie die naam aanmaakt, publiceert inhoud onder dit domein."
  ),
  cname_unclaimed: nl(
    "CNAME naar een niet-geclaimde hostingsite",
    "Een CNAME van het domein wijst naar een hostingdienst die meldt dat er voor die naam geen site is: iedereen met een account daar kan de naam claimen (can-i-take-over-xyz)."
  ),
  dependency_unregistered: nl(
    "Een domein waarvan dit domein afhangt is niet geregistreerd",
    "Een domein dat de NS-, MX-, SPF-, DMARC-, TLS-RPT-, BIMI- of CNAME-records noemen is niet geregistreerd (RDAP 404, RFC 9083) of bestaat niet in DNS: iedereen kan het registreren en dat deel van dit domein overnemen."
  ),
  dependency_unresolvable: nl(
    "Een domein waarvan dit domein afhangt antwoordt niet",
    "De nameservers van een domein dat de records van dit domein noemen falen (SERVFAIL, RFC 1035 4.1.1): wat het levert is niet op te vragen, en een vervallen delegatie kan worden overgenomen."
  ),
  caa_forbids_issuer: nl(
    "CAA verbiedt de CA die een gebruikt certificaat uitgaf",
    "De CAA-records die voor een hostnaam gelden staan de certificaatautoriteit niet toe waarvan de host het certificaat gebruikt (RFC 8659), dus die CA moet de volgende verlenging weigeren."
  ),
  rpki_invalid: nl(
    "Route naar een server is RPKI-ongeldig",
    "De route naar een adres van een web-, mail- of nameserver wordt aangekondigd door een AS, of met een prefixlengte, die de ROA's niet toestaan (RFC 6811): netwerken die routes valideren laten haar vallen."
  ),
  rpki_not_found: nl(
    "Route naar een server heeft geen ROA",
    "Geen ROA dekt de route naar een adres van een web-, mail- of nameserver (RFC 6811 not-found), dus een kaping van die route is niet van de echte te onderscheiden."
  )
}
