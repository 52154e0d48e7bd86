/**
 * The guidance on every catalogue issue (docs/guidance.md): why it matters, the steps, the provider
 * notes, the record and its generator, the sources. Each check declares it beside the issue
 * (`checks/<check>/Guidance.ts`, typed over its issue ids so none is left out); this is the one
 * accessor the PDF, the markdown, `/ai/explain` and the pages read, so they all show the same text.
 * Pure.
 */
import type { Guidance, GuidanceEntry } from "../kernel/Declaration.ts"
import { registry } from "../checks/index.ts"
import { catalogue, type IssueId } from "./Catalogue.ts"
import type { Lang } from "./Nis2Text.ts"

export {
  Guidance,
  providerNames,
  Providers,
  type Provider,
  type ProviderNote
} from "../kernel/Declaration.ts"

const declared: Readonly<Record<IssueId, GuidanceEntry>> = Object.fromEntries(
  registry.flatMap((c) => Object.entries(c.about.guidance))
)

/** The ids whose check declares guidance for them (every catalogue id: test/score/guidance.test.ts). */
export const guidedIds: ReadonlyArray<IssueId> = Object.keys(declared)

/** The domain the text names when it is read without one (docs, `/ai/explain`). */
export const EXAMPLE_DOMAIN = "example.com"

/**
 * The guidance on catalogue issue `id` in `lang` (the prose: why, steps, provider notes; the record
 * and the sources are the same in every language), its `{domain}` placeholders naming `domain` (or
 * example.com). An id outside the catalogue has none.
 */
export const guidanceOf = (
  id: IssueId,
  domain: string = EXAMPLE_DOMAIN,
  lang: Lang = "en"
): Guidance | undefined => {
  if (!Object.hasOwn(catalogue, id) || !Object.hasOwn(declared, id)) return undefined
  const g = declared[id]!
  const prose = lang === "nl" ? g.nl : g
  const named = (text: string) => text.replaceAll("{domain}", domain)
  return {
    why: named(prose.why),
    steps: prose.steps.map(named),
    providers: prose.providers.map((p) => ({ provider: p.provider, note: named(p.note) })),
    record: g.record === null ? null : named(g.record),
    generator: g.generator,
    references: g.references
  }
}
