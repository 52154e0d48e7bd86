/**
 * Hosting services that answer a name nobody has claimed with a recognisable "no such site" page:
 * a CNAME to such a service whose page says so can be claimed by anybody who opens an account
 * there and adds the name. The list follows the services that can-i-take-over-xyz marks
 * vulnerable and dnsReaper's signatures (both maintained by the community; the sources below),
 * restricted to those that are recognised by their page rather than by a missing DNS name (that
 * case is a dangling CNAME, found without a signature). Keep it small and sourced: a signature that
 * goes stale produces false alarms.
 */

export interface HostingSignature {
  /** The service, as its users know it. */
  readonly service: string
  /** CNAME target suffixes of the service (a target equal to one, or ending in `.` + one). */
  readonly cnames: ReadonlyArray<string>
  /** The HTTP status of the unclaimed page, when it is fixed. */
  readonly status?: number
  /** Text the unclaimed page carries (matched case-sensitively in the first 64 KB). */
  readonly body: string
  /** Where the fingerprint comes from. */
  readonly source: string
}

const CAN_I = "https://github.com/EdOverflow/can-i-take-over-xyz"
const REAPER = "https://github.com/punk-security/dnsReaper"

/** The signatures of one source, each stamped with where it comes from. */
const from = (
  source: string,
  signatures: ReadonlyArray<Omit<HostingSignature, "source">>
): ReadonlyArray<HostingSignature> => signatures.map((signature) => ({ ...signature, source }))

export const HOSTING_SIGNATURES: ReadonlyArray<HostingSignature> = [
  ...from(CAN_I, [
    {
      service: "GitHub Pages",
      cnames: ["github.io"],
      status: 404,
      body: "There isn't a GitHub Pages site here."
    },
    {
      service: "Amazon S3",
      cnames: [
        "s3.amazonaws.com",
        "s3-website-us-east-1.amazonaws.com",
        "s3-website.eu-west-1.amazonaws.com"
      ],
      status: 404,
      body: "NoSuchBucket"
    },
    { service: "Bitbucket", cnames: ["bitbucket.io"], body: "Repository not found" },
    { service: "Surge.sh", cnames: ["surge.sh"], body: "project not found" },
    {
      service: "Pantheon",
      cnames: ["pantheonsite.io"],
      status: 404,
      body: "The gods are wise, but do not know of the site which you seek."
    },
    { service: "Ghost", cnames: ["ghost.io"], body: "Failed to resolve DNS path for this host" },
    {
      service: "Help Scout Docs",
      cnames: ["helpscoutdocs.com"],
      body: "No settings were found for this company:"
    },
    { service: "Helpjuice", cnames: ["helpjuice.com"], body: "We could not find what you're looking for." },
    {
      service: "ReadMe",
      cnames: ["readme.io"],
      body: "The creators of this project are still working on making everything perfect!"
    },
    { service: "WordPress.com", cnames: ["wordpress.com"], body: "Do you want to register" },
    { service: "Agile CRM", cnames: ["agilecrm.com"], body: "Sorry, this page is no longer available." },
    { service: "ngrok", cnames: ["ngrok.io"], body: ".ngrok.io not found" }
  ]),
  ...from(REAPER, [{ service: "Strikingly", cnames: ["s.strikinglydns.com"], body: "PAGE NOT FOUND." }])
]

const under = (name: string, suffix: string) => name === suffix || name.endsWith(`.${suffix}`)

/** The signature whose CNAME suffix the alias target falls under, if any. */
export const signatureFor = (
  target: string,
  signatures: ReadonlyArray<HostingSignature> = HOSTING_SIGNATURES
): HostingSignature | undefined => {
  const name = target.toLowerCase().replace(/\.$/, "")
  return signatures.find((s) => s.cnames.some((c) => under(name, c)))
}

/** Whether a response is the service's unclaimed page (pure). */
export const matchesSignature = (signature: HostingSignature, status: number, body: string): boolean =>
  (signature.status === undefined || signature.status === status) && body.includes(signature.body)
