/**
 * Example responses for the OpenAPI document (`/api/docs`): computed by the code that answers the
 * operation (the generators, the knowledge base, the scoring), so an example is what the service
 * really says for its request, never a hand-written copy that drifts. Each is encoded with the
 * operation's success schema; test/api/OpenApiDocs.test.ts decodes it back.
 */
import { Either } from "effect"
import { explainIssue } from "../ai/Knowledge.ts"
import { fail, partial } from "../checks/Declaration.ts"
import { scored } from "../score/Rules.ts"
import { DMARC_SPECS } from "../checks/dmarc/Rules.ts"
import { HEADERS_SPECS } from "../checks/headers/Rules.ts"
import { scoreRecords } from "../score/Score.ts"
import { generateDmarc } from "../generate/DmarcGenerator.ts"
import { generate as generateSpf } from "../generate/SpfGenerator.ts"
import { generate as generateHeaders } from "../records/SecurityHeaders.ts"

/** The example of an operation: its request in words, and the answer the code gives for it. */
export interface Example {
  readonly request: string
  readonly answer: () => unknown
}

const DOMAIN = "example.com"

const quick: Example = {
  request: "a domain with DMARC at p=none and no HSTS",
  answer: () =>
    scoreRecords(
      [
        scored(DMARC_SPECS.dmarcPolicy, partial(2, "p=none: reports only", "dmarc_policy_none")),
        scored(HEADERS_SPECS.hsts, fail("no Strict-Transport-Security header", "hsts_missing"))
      ],
      { domain: DOMAIN, timestamp: "2026-01-01T00:00:00.000Z", cached: false }
    )
}

export const examples: Readonly<Record<string, Example>> = {
  "email.spfGenerate": {
    request: "Google Workspace and one own server, softfail",
    answer: () =>
      Either.getOrThrow(
        generateSpf({
          mechanisms: [
            { type: "include", value: "_spf.google.com" },
            { type: "ip4", value: "192.0.2.10" }
          ],
          policy: "softfail",
          domain: DOMAIN
        })
      )
  },
  "email.dmarcGenerate": {
    request: "the first stage: p=none with aggregate reports",
    answer: () =>
      Either.getOrThrow(
        generateDmarc({ domain: DOMAIN, policy: "none", rua: [`mailto:dmarc-reports@${DOMAIN}`] })
      )
  },
  "web.headersGenerate": {
    request: "the recommended preset",
    answer: () => Either.getOrThrow(generateHeaders({ preset: "recommended" }))
  },
  "ai.explain": {
    request: "issue_type dmarc_policy_none, no model configured",
    answer: () => {
      const kb = explainIssue("dmarc_policy_none")
      return {
        success: true,
        explanation: kb.explanation,
        severity: kb.severity,
        impact: kb.impact,
        recommendation: kb.recommendation,
        guidance: kb.guidance,
        source: "knowledge-base"
      }
    }
  },
  "scan.quick": quick,
  "scan.full": quick,
  "misc.health": {
    request: "a healthy service",
    answer: () => ({
      status: "healthy",
      timestamp: "2026-01-01T00:00:00.000Z",
      uptime: 3600,
      services: { database: { status: "healthy" }, resolver: { status: "healthy" } }
    })
  },
  "scan.deep": {
    request: "a mail deep scan",
    answer: () => ({ success: true, scan_id: "ds_01J9Z3X7Q4", status: "running", estimated_time: 60 })
  },
  "misc.hallOfFame": {
    request: "one A+ domain",
    answer: () => ({
      entries: [{ domain: "perfect.com", score: 100, grade: "A+", addedAt: 1767225600000 }],
      total: 1
    })
  }
}

/** An answer as JSON carries it (what the operation's success schema encodes to). */
export const exampleJson = (operationId: string): unknown =>
  examples[operationId] === undefined ? undefined : JSON.parse(JSON.stringify(examples[operationId].answer()))

/**
 * The OpenAPI document with each example set on its operation's success response
 * (`OpenApi.Transform` of the whole API, src/Api.ts).
 */
export const withExamples = (spec: Record<string, any>): Record<string, any> => {
  for (const item of Object.values<Record<string, any>>(spec["paths"] ?? {}))
    for (const op of Object.values<Record<string, any>>(item)) {
      const example = examples[op["operationId"]]
      if (example === undefined) continue
      const status = Object.keys(op["responses"] ?? {}).find((code) => code.startsWith("2"))
      const content =
        status === undefined ? undefined : op["responses"][status]["content"]?.["application/json"]
      if (content === undefined) continue
      content["examples"] = {
        [example.request]: { summary: example.request, value: exampleJson(op["operationId"]) }
      }
    }
  return spec
}
