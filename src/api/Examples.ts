/**
 * Example responses for the OpenAPI document (`/api/docs`): computed by the code that answers the
 * operation (the checks' analysis over the example domain, the scoring, the report builders, the
 * history chain, the report parsers and summaries, the generators), so an example is what the
 * service really says for its request, never a hand-written copy that drifts. The example domain
 * and its scans are in examples/; test/api/OpenApiDocs.test.ts requires an example on every
 * operation with a JSON success response and decodes each with that operation's success schema.
 */
import { dnsEmailExamples } from "./examples/DnsEmailExamples.ts"
import type { Example } from "./examples/Example.ts"
import { historyExamples } from "./examples/HistoryExamples.ts"
import { inboundExamples } from "./examples/InboundExamples.ts"
import { scanExamples } from "./examples/ScanExamples.ts"
import { webAiExamples } from "./examples/WebAiExamples.ts"

export type { Example } from "./examples/Example.ts"

export const examples: Readonly<Record<string, Example>> = {
  ...dnsEmailExamples,
  ...scanExamples,
  ...webAiExamples,
  ...historyExamples,
  ...inboundExamples
}

/** An answer as JSON carries it (what the operation's success schema encodes to). */
export const exampleJson = (operationId: string): unknown => {
  const answer = examples[operationId]?.answer
  return answer === undefined ? undefined : JSON.parse(JSON.stringify(answer()))
}

/**
 * The OpenAPI document with each example set on its operation's success response: the JSON answer,
 * and the text form (markdown, SVG) where the operation answers one (`OpenApi.Transform` of the
 * whole API, src/Api.ts).
 */
export const withExamples = (spec: Record<string, any>): Record<string, any> => {
  for (const item of Object.values<Record<string, any>>(spec["paths"] ?? {}))
    for (const op of Object.values<Record<string, any>>(item)) {
      const example = examples[op["operationId"]]
      if (example === undefined) continue
      const status = Object.keys(op["responses"] ?? {}).find((code) => code.startsWith("2"))
      const content = status === undefined ? undefined : op["responses"][status]["content"]
      if (content === undefined) continue
      const shown = (value: unknown) => ({ [example.request]: { summary: example.request, value } })
      if (example.answer !== undefined && content["application/json"] !== undefined)
        content["application/json"]["examples"] = shown(exampleJson(op["operationId"]))
      if (example.text !== undefined)
        content[example.text.mediaType] = {
          schema: content[example.text.mediaType]?.["schema"] ?? { type: "string" },
          examples: shown(example.text.answer())
        }
    }
  return spec
}
