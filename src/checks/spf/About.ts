/** What the SPF check is and declares besides gather and analyse (kernel/Declaration.ts). */
import { item } from "../../kernel/Nis2Evidence.ts"
import { findingIssues, findings } from "./Findings.ts"
import { declared } from "../../kernel/Declaration.ts"
import type { Served } from "../../kernel/Served.ts"
import { SpfResult } from "./SpfResult.ts"
import { guidance } from "./Guidance.ts"
import { advice, issues } from "./Issues.ts"
import { SPF_SPECS, rules } from "./Rules.ts"
import { spfSectionExtra } from "./Section.ts"

export const about = declared({
  id: "spf",
  title: "SPF",
  category: "email",
  result: SpfResult,
  rules,
  issues,
  advice,
  guidance,
  section: {
    key: "spf",
    title: "SPF",
    titleNl: "SPF",
    rank: 50,
    sources: ["rfc7208"],
    facts: [
      "status",
      "exists",
      "valid",
      "record",
      "policy",
      "includes",
      "lookups",
      "lookupLimit",
      "voidLookups",
      "warnings",
      "issues"
    ],
    generator: "POST /email/spf/generate",
    extra: spfSectionExtra
  },
  columns: [{ name: "spf", rank: 10, records: [SPF_SPECS.spfValid.id, SPF_SPECS.spfPolicy.id] }],
  nis2: [
    {
      measure: "g",
      record: SPF_SPECS.spfValid.id,
      weight: 2,
      rank: 10,
      text: item(
        { en: "Valid SPF record", nl: "Geldig SPF-record" },
        { en: "One SPF record without errors (RFC 7208).", nl: "Eén SPF-record zonder fouten (RFC 7208)." }
      )
    },
    {
      measure: "g",
      record: SPF_SPECS.spfPolicy.id,
      weight: 2,
      passAt: 0.75,
      rank: 20,
      text: item(
        { en: "SPF rejects unlisted senders", nl: "SPF weigert niet-vermelde afzenders" },
        { en: "The SPF record ends in -all or ~all.", nl: "Het SPF-record eindigt op -all of ~all." }
      )
    }
  ],
  deepScans: ["mail"],
  findings,
  findingIds: findingIssues
})

/** Served alone: `GET /api/email/spf?domain=` (kernel/Served.ts). */
export const served: Served = {
  group: "email",
  name: "spf",
  path: "/email/spf",
  summary: "Check the SPF record",
  description:
    "Reads the domain's SPF record, evaluates its include and redirect tree with the lookup count of RFC 7208 4.6.4, and reports the lookup graph, void lookups, the all mechanism, findings and a flattened equivalent when the record is over the limit.",
  cost: "costly",
  example: "mx, a /24 and a provider's include, -all",
  rank: 20
}
