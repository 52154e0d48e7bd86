/**
 * The example domain the OpenAPI examples describe: example.com as its DNS zone, answered by the
 * in-memory resolver engine (net/ResolverFake.ts, the Resolver's semantics without a socket), and
 * the certificate its mail server presents. The inputs are hand-made and realistic (documentation
 * addresses of RFC 5737 and RFC 3849, a real EC P-256 key pair and certificate); every verdict
 * drawn from them is computed by the checks' own code.
 */
import { Clock, Effect, Either } from "effect"
import { type CertificateFacts, certificateFacts } from "../../net/Certificate.ts"
import type { DnsAnswer, DnsError, RecordType } from "../../net/DnsTypes.ts"
import { type FakeZone, makeFake } from "../../net/ResolverFake.ts"
import { type Domain, normaliseDomain } from "../../records/DomainName.ts"
import { once } from "./Once.ts"

/** example.com, as the edge decodes it: a `Domain`. */
export const DOMAIN: Domain = Either.getOrThrow(normaliseDomain("example.com"))
export const MX_HOST = "mx1.example.com"
export const MX_V4 = "192.0.2.25"
export const MX_V6 = "2001:db8::25"

/** The instant every example is computed at (the certificate and the signatures are valid then). */
export const NOW = new Date("2026-12-01T09:00:00.000Z")
export const NOW_ISO = NOW.toISOString()

/** The examples' clock: always `NOW`; nothing the examples run waits, so a sleep never ends. */
const clock: Clock.Clock = {
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  unsafeCurrentTimeMillis: () => NOW.getTime(),
  currentTimeMillis: Effect.sync(() => NOW.getTime()),
  unsafeCurrentTimeNanos: () => BigInt(NOW.getTime()) * 1_000_000n,
  currentTimeNanos: Effect.sync(() => BigInt(NOW.getTime()) * 1_000_000n),
  sleep: () => Effect.never
}

/** Runs `effect`, which waits for nothing, at `NOW`: what it measures or stamps is the same every time. */
export const runAtNow = <A, E>(effect: Effect.Effect<A, E>): A =>
  Effect.runSync(Effect.withClock(effect, clock))

/** A day before `NOW`: the earlier scan of the history and diff examples. */
export const BEFORE_ISO = new Date(NOW.getTime() - 86_400_000).toISOString()

/** The certificate of mx1.example.com (EC P-256, issued by "Example Issuing CA", 90 days). */
const MX_CERTIFICATE_PEM = `-----BEGIN CERTIFICATE-----
MIIB3jCCAYWgAwIBAgIETyqcETAKBggqhkjOPQQDAjA1MRYwFAYDVQQKDA1FeGFt
cGxlIFRydXN0MRswGQYDVQQDDBJFeGFtcGxlIElzc3VpbmcgQ0EwHhcNMjYxMTI1
MjM0MzA1WhcNMjcwMjIzMjM0MzA1WjAaMRgwFgYDVQQDDA9teDEuZXhhbXBsZS5j
b20wWTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAQpwGTCg2i+V6QA8+GiVELBQuBu
0dNcN+zzR5fJhBCe4/xFr7J07nXHCDtevL1AtlRRhkuxDWF+O4Nf++iPybKgo4Gd
MIGaMCsGA1UdEQQkMCKCD214MS5leGFtcGxlLmNvbYIPbXgyLmV4YW1wbGUuY29t
MAkGA1UdEwQCMAAwCwYDVR0PBAQDAgeAMBMGA1UdJQQMMAoGCCsGAQUFBwMBMB0G
A1UdDgQWBBT6ukupjpuSotqFh3eneJpMr3GhRjAfBgNVHSMEGDAWgBSXXQTUQMrl
tNpdP2vrJZIUxC1R5jAKBggqhkjOPQQDAgNHADBEAiAUnCRS+50sxbKW7hHnFA/h
3MD8LWH9SjCfESRQpgcNbAIgT4JbEM9YfjNUNKYx6XtQY6zhoYjd6YOr/237uyMJ
RGU=
-----END CERTIFICATE-----
`

/** The mail server's public key alone (the TLSA generator's example input). */
export const MX_PUBLIC_KEY_PEM = `-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEKcBkwoNovlekAPPholRCwULgbtHT
XDfs80eXyYQQnuP8Ra+ydO51xwg7Xry9QLZUUYZLsQ1hfjuDX/voj8myoA==
-----END PUBLIC KEY-----
`

const der = (pem: string) => Buffer.from(pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, ""), "base64")

/** What the mail server presents over STARTTLS, read by the same code as a live probe. */
export const mxCertificate: () => CertificateFacts = once(() => certificateFacts(der(MX_CERTIFICATE_PEM)))

const KSK =
  "257 3 13 VKU/WmYkSafTB1Mr5Z6EmaF6+f6dicnPKlUW4ThGJ8eFEfcUuet97tukRm6LCokMZ110TADZWNQFDzsVNLaYBA=="
const ZSK =
  "256 3 13 jt2BVFdmu/22ILdV5gLY+NZaSRwcmMdf69y0R21z5T8c9DMZ3mC9B1egeeaU/0+WqyMvg+LnQQ8hURWmNzj1Lg=="
const DS = "43196 13 2 6cba96899c9ad22dd18bb458d83b8cd566ef810530452cf4a94d633df542a832"
const SIGNATURE = "kUOQ6ibKf3x1sE8hXcUHTO/2m3QZxvT9Ph+ABqpVzPaC1M4lQ9H6bJjX3o2L7yRr8a0WcvE5xYfNtGqDsIuKzA=="
const rrsig = (type: string, keyTag: number, labels = 2) =>
  `${type} 13 ${labels} 3600 20261222000000 20261124000000 ${keyTag} example.com. ${SIGNATURE}`

/** A validated answer: the AD bit set, its signature alongside (the DO bit). */
const signed = (type: string, rdata: ReadonlyArray<string>, keyTag = 19947, labels = 2) => ({
  rdata,
  ad: true,
  ttl: 3600,
  rrsig: [rrsig(type, keyTag, labels)]
})

export const DKIM_KEY =
  "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAul94p5ij8xVfJ+pEO3GbpJPLR33k8r3T8kG8T//dGYe/2Zyg7BerhUs9i16F4hVaHDIv5/iBLCDSYYYtnXcl2LRXYQIUOrYhsiBEl/jH1raO7NsUQ1x9MYHgDO/HtV+5W42dJLvpgCM0GXeU4EPrU+pfwpKFTuKZ7a2BhqOlu5mDNfZSTPTryodtgRwQ+aql3SewTETpOq9NkklNetvws4OnMfc2QrBYj4MfuIzHpF9Kz3vbmMUNEYLnTn4vc/+p/uzNFXw6JOnb8p7wFBOyX91vnjx3ky2ub0h8tM5N4kOovWWcYlFIyP+8h/wYUDSN/WNOmiiF32sqCf4f1nVqvwIDAQAB"

/** The Content-Security-Policy www.example.com sends (CSP3): strict, with the framing and base-uri set. */
export const SITE_CSP =
  "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'"

export const SPF_RECORD = "v=spf1 mx ip4:192.0.2.0/24 include:_spf.mail.example.net -all"
export const DMARC_RECORD = "v=DMARC1; p=reject; rua=mailto:dmarc-reports@example.com; adkim=s"
export const mtaStsPolicy = (mode: "testing" | "enforce") =>
  `version: STSv1\nmode: ${mode}\nmx: mx1.example.com\nmax_age: 604800\n`

/** example.com as its name servers would serve it: signed, with mail, SPF, DMARC, DKIM, MTA-STS, DANE. */
export const zone = (): FakeZone => ({
  "example.com SOA": signed("SOA", [
    "ns1.example.com. hostmaster.example.com. 2026112401 7200 3600 1209600 3600"
  ]),
  "example.com NS": signed("NS", ["ns1.example.com.", "ns2.example.net."]),
  "example.com A": signed("A", ["192.0.2.80"]),
  "example.com AAAA": signed("AAAA", ["2001:db8::80"]),
  "example.com MX": signed("MX", [`10 ${MX_HOST}.`]),
  "example.com TXT": signed("TXT", [SPF_RECORD]),
  "example.com CAA": signed("CAA", ['0 issue "letsencrypt.org"', '0 iodef "mailto:security@example.com"']),
  "example.com DNSKEY": signed("DNSKEY", [KSK, ZSK], 43196),
  "example.com DS": signed("DS", [DS]),
  "example.com NSEC3PARAM": signed("NSEC3PARAM", ["1 0 0 -"]),
  "www.example.com A": signed("A", ["192.0.2.80"], 19947, 3),
  "status.example.com CNAME": signed("CNAME", ["example.statuspage.io."], 19947, 3),
  "example.statuspage.io A": ["203.0.113.40"],
  [`${MX_HOST} A`]: signed("A", [MX_V4], 19947, 3),
  [`${MX_HOST} AAAA`]: signed("AAAA", [MX_V6], 19947, 3),
  [`_25._tcp.${MX_HOST} TLSA`]: signed("TLSA", [`3 1 1 ${mxCertificate().spkiSha256}`], 19947, 5),
  "_dmarc.example.com TXT": signed("TXT", [DMARC_RECORD], 19947, 3),
  "selector1._domainkey.example.com TXT": signed("TXT", [`v=DKIM1; k=rsa; p=${DKIM_KEY}`], 19947, 4),
  "_mta-sts.example.com TXT": signed("TXT", ["v=STSv1; id=20261124T000000"], 19947, 3),
  "_smtp._tls.example.com TXT": signed("TXT", ["v=TLSRPTv1; rua=mailto:tls-reports@example.com"], 19947, 4),
  "_spf.mail.example.net TXT": ["v=spf1 ip4:198.51.100.0/24 ip6:2001:db8:5::/48 ~all"],
  "25.2.0.192.in-addr.arpa PTR": [`${MX_HOST}.`],
  "5.2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa PTR": [`${MX_HOST}.`]
})

/** The in-memory resolver over the example zone; its answers come at once, so they run synchronously. */
export const dns = once(() => makeFake(zone()))

/** The answer to one question, or the failure the resolver would give. */
export const ask = (name: string, type: RecordType): Either.Either<DnsAnswer, DnsError> =>
  runAtNow(Effect.either(dns().query(name, type)))
