/**
 * Example responses for the OpenAPI document (`/api/docs`): computed by the code that answers the
 * operation (the checks' analysis over the example domain, the scoring, the report builders, the
 * history chain, the report parsers and summaries, the generators), so an example is what the
 * service really says for its request, never a hand-written copy that drifts. The example domain
 * and its scans are in examples/; test/api/OpenApiDocs.test.ts requires an example on every
 * operation with a JSON success response and decodes each with that operation's success schema.
 */
import { Schema } from "effect"
import { AiApi } from "./Ai.ts"
import { DnsApi } from "./Dns.ts"
import { DomainsApi } from "./Domains.ts"
import { EmailApi } from "./Email.ts"
import { HistoryApi } from "./History.ts"
import { ReportsApi } from "./Inbound.ts"
import { MiscApi } from "./Misc.ts"
import { MonitorsApi } from "./Monitoring.ts"
import { ReportApi } from "./Report.ts"
import { ScanApi } from "./Scan.ts"
import { SigningKeysApi } from "./SigningKeys.ts"
import { WebApi } from "./WebSecurity.ts"
import { dnsEmailExamples } from "./examples/DnsEmailExamples.ts"
import { domainExamples } from "./examples/DomainExamples.ts"
import type { Example } from "./examples/Example.ts"
import { exampleKeySet } from "./examples/ExampleSigningKey.ts"
import { historyExamples } from "./examples/HistoryExamples.ts"
import { inboundExamples } from "./examples/InboundExamples.ts"
import { scanExamples } from "./examples/ScanExamples.ts"
import { webAiExamples } from "./examples/WebAiExamples.ts"
import { servedIn } from "./ServedChecks.ts"
import { ServedGroups } from "../kernel/Served.ts"

export type { Example } from "./examples/Example.ts"

/** A check served alone: its declared request, answered by its own example (its Example.ts). */
const servedExamples = ServedGroups.flatMap((group) =>
  servedIn(group).map(({ served, example }): readonly [string, Example] => [
    `${group}.${served.name}`,
    { request: served.example, answer: example }
  ])
)

export const examples: Readonly<Record<string, Example>> = {
  ...Object.fromEntries(servedExamples),
  ...dnsEmailExamples,
  ...scanExamples,
  ...webAiExamples,
  ...historyExamples,
  ...inboundExamples,
  ...domainExamples,
  "signingKeys.signingKeys": { request: "the service's public signing keys", answer: exampleKeySet }
}

/** What the examples read of a group (its endpoints with middleware of their own make the union of the groups too wide to infer). */
interface ExampleGroup {
  readonly identifier: string
  readonly endpoints: Readonly<
    Record<string, { readonly name: string; readonly successSchema: Schema.Schema.Any }>
  >
}

const groups: ReadonlyArray<ExampleGroup> = [
  DnsApi,
  EmailApi,
  ScanApi,
  ReportApi,
  WebApi,
  AiApi,
  MiscApi,
  HistoryApi,
  ReportsApi,
  MonitorsApi,
  DomainsApi,
  SigningKeysApi
]

/** Each operation's success schema, by operation id (`group.endpoint`). */
const successSchemas: ReadonlyMap<string, Schema.Schema.Any> = new Map(
  groups.flatMap((group) =>
    Object.values(group.endpoints).map(
      (endpoint) => [`${group.identifier}.${endpoint.name}`, endpoint.successSchema] as const
    )
  )
)

/** An answer as the operation sends it: encoded with its success schema, as JSON carries it. */
export const exampleJson = (operationId: string): unknown => {
  const answer = examples[operationId]?.answer
  if (answer === undefined) return undefined
  const schema = successSchemas.get(operationId)
  // An endpoint's success schema carries its middleware in its context type; encoding needs none.
  const encoded =
    schema === undefined ? answer() : Schema.encodeUnknownSync(schema as Schema.Schema.AnyNoContext)(answer())
  return JSON.parse(JSON.stringify(encoded))
}

/**
 * The OpenAPI document with each example set on its operation's success response: the JSON answer,
 * and the text form (markdown, SVG) where the operation answers one (`OpenApi.Transform` of the
 * whole API, src/Api.ts). An example several operations share (a snapshot created, read, or created
 * by the deprecated GET) is written once under `components.examples` and referenced.
 */
export const withExamples = (spec: Record<string, any>): Record<string, any> => {
  const operations = Object.values<Record<string, any>>(spec["paths"] ?? {}).flatMap((item) =>
    Object.values<Record<string, any>>(item).filter((op) => examples[op["operationId"]] !== undefined)
  )
  /** The operations showing each example, in document order. */
  const users = new Map<Example, Array<string>>()
  for (const op of operations) {
    const example = examples[op["operationId"]]!
    users.set(example, [...(users.get(example) ?? []), op["operationId"]])
  }
  const components = (spec["components"] ??= {})
  const place = (example: Example, name: string, value: () => unknown) => {
    const entry = { summary: example.request, value: value() }
    if (users.get(example)!.length < 2) return { [example.request]: entry }
    ;(components["examples"] ??= {})[name] ??= entry
    return { [example.request]: { $ref: `#/components/examples/${name}` } }
  }
  for (const op of operations) {
    const example = examples[op["operationId"]]!
    const status = Object.keys(op["responses"] ?? {}).find((code) => code.startsWith("2"))
    const content = status === undefined ? undefined : op["responses"][status]["content"]
    if (content === undefined) continue
    const name = users.get(example)![0]!
    if (example.answer !== undefined && content["application/json"] !== undefined)
      content["application/json"]["examples"] = place(example, name, () => exampleJson(name))
    if (example.text !== undefined)
      content[example.text.mediaType] = {
        schema: content[example.text.mediaType]?.["schema"] ?? { type: "string" },
        examples: place(example, `${name}.text`, example.text.answer)
      }
  }
  return spec
}
