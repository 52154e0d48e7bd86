/**
 * The guidance on every catalogue issue (docs/guidance.md): why it matters, the steps, the provider
 * notes, the record and its generator, the sources. Each check declares it beside the issue
 * (`checks/<check>/Guidance.ts`); this is the one accessor the PDF, the markdown, `/ai/explain` and
 * the pages read, so they all show the same text. Pure.
 */
import { type Guidance, guide } from "../checks/Declaration.ts"
import { registry } from "../checks/index.ts"
import { catalogue, type IssueId } from "./Catalogue.ts"

export {
  Guidance,
  providerNames,
  Providers,
  type Provider,
  type ProviderNote
} from "../checks/Declaration.ts"

const declared: Readonly<Record<IssueId, Guidance>> = Object.fromEntries(
  registry.flatMap((c) => Object.entries(c.about.guidance ?? {}))
)

const advised = Object.fromEntries(registry.flatMap((c) => Object.entries(c.about.advice)))

/** The ids whose check declares guidance for them (every catalogue id, docs/guidance.md). */
export const guidedIds: ReadonlyArray<IssueId> = Object.keys(declared)

/** An issue without declared guidance is guided by its knowledge-base advice, never left blank. */
const fromAdvice = (id: IssueId): Guidance => {
  const a = advised[id]
  return guide({
    why: a?.impact ?? catalogue[id]?.description ?? "",
    steps: a === undefined ? [] : [a.recommendation],
    references: []
  })
}

/**
 * The guidance on catalogue issue `id`; with `domain`, its record names the domain (`{domain}` is
 * replaced). An id outside the catalogue has none.
 */
export const guidanceOf = (id: IssueId, domain?: string): Guidance | undefined => {
  if (!Object.hasOwn(catalogue, id)) return undefined
  const g = Object.hasOwn(declared, id) ? declared[id]! : fromAdvice(id)
  return domain === undefined || g.record === null
    ? g
    : { ...g, record: g.record.replaceAll("{domain}", domain) }
}
