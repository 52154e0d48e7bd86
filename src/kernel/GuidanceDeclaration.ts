/**
 * What a domain owner is told to do about an issue, as each check declares it (`checks/<check>/
 * Guidance.ts`, docs/guidance.md): why it matters, the steps, the notes for the providers most
 * domains sit on, the record and its generator, the sources; the prose in English and in Dutch.
 */
import { Schema } from "effect"

/**
 * The DNS hosts and mail providers whose steps guidance spells out where they differ from the
 * generic ones: most domains sit on one of these.
 */
export const Providers = [
  "google-workspace",
  "microsoft-365",
  "cloudflare",
  "route53-ses",
  "generic-dns"
] as const
export const Provider = Schema.Literal(...Providers)
export type Provider = typeof Provider.Type

/** How each provider is named to a reader. */
export const providerNames: { readonly [P in Provider]: string } = {
  "google-workspace": "Google Workspace",
  "microsoft-365": "Microsoft 365",
  cloudflare: "Cloudflare DNS",
  "route53-ses": "Amazon Route 53 / SES",
  "generic-dns": "Other DNS hosts"
}

/** What differs at one provider: where its console does the step, or what it does for you. */
export const ProviderNote = Schema.Struct({ provider: Provider, note: Schema.String })
export type ProviderNote = typeof ProviderNote.Type

/**
 * What a domain owner needs to resolve an issue (docs/guidance.md), declared by the check beside
 * the catalogue entry. `why` and `steps` are written for the owner or their manager: plain
 * words, no API paths. Where this service can write the record, `generator` names the endpoint
 * (shown apart, to whoever runs the change), and `record` shows its shape.
 */
export const Guidance = Schema.Struct({
  /** Why it matters, in plain words: what goes wrong for mail or visitors while it stays. */
  why: Schema.String,
  /** What to do, in order. */
  steps: Schema.Array(Schema.String),
  /** Where a provider's steps differ from `steps` (none when they do not). */
  providers: Schema.Array(ProviderNote),
  /** The record or header to publish, `{domain}` standing for the domain; null when there is none. */
  record: Schema.NullOr(Schema.String),
  /** The endpoint of this service that writes the record for the domain (`POST /email/dmarc/generate`). */
  generator: Schema.NullOr(Schema.String),
  /** Citation keys (report/Citations.ts, `rfc7489`) or https URLs of the sources. */
  references: Schema.Array(Schema.String)
})
export type Guidance = typeof Guidance.Type

/** A provider's note for each provider whose steps differ, as a check writes them. */
export type ProviderNotes = Partial<Readonly<Record<Provider, string>>>

/** The notes in the order of `Providers`, each provider at most once. */
const notesOf = (notes: ProviderNotes | undefined): ReadonlyArray<ProviderNote> =>
  Providers.flatMap((provider) => {
    const note = notes?.[provider]
    return note === undefined ? [] : [{ provider, note }]
  })

/**
 * The prose of a guidance entry in another language: why, the steps, the provider notes. The record,
 * the generator and the sources are not prose and stay as they are in every language.
 */
export interface GuidanceProse {
  readonly why: string
  readonly steps: ReadonlyArray<string>
  readonly providers: ReadonlyArray<ProviderNote>
}

/**
 * A check's guidance on an issue: the English `Guidance`, and its prose in Dutch (`nl`). Every issue
 * has both, so a Dutch page, PDF or markdown never falls back to English advice.
 */
export interface GuidanceEntry extends Guidance {
  readonly nl: GuidanceProse
}

/** A guidance entry as a check writes it: providers, record and generator may be left out. */
export const guide = (g: {
  readonly why: string
  readonly steps: ReadonlyArray<string>
  readonly providers?: ProviderNotes
  readonly record?: string
  readonly generator?: string
  readonly references: ReadonlyArray<string>
  /** The same why, steps and provider notes in Dutch (the pages, PDF and markdown with `lang=nl`). */
  readonly nl: {
    readonly why: string
    readonly steps: ReadonlyArray<string>
    readonly providers?: ProviderNotes
  }
}): GuidanceEntry => ({
  why: g.why,
  steps: g.steps,
  providers: notesOf(g.providers),
  record: g.record ?? null,
  generator: g.generator ?? null,
  references: g.references,
  nl: { why: g.nl.why, steps: g.nl.steps, providers: notesOf(g.nl.providers) }
})
