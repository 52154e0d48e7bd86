/**
 * `/api/docs`: the OpenAPI document as a page like the others, rendered here from the same document
 * `/api/openapi.json` serves. No script and nothing from another host, so it carries the pages'
 * security headers (a Content-Security-Policy without any script source); it weighs a fraction of
 * an interactive viewer that ships its own JavaScript and fonts. Each operation shows its method and
 * path, summary, description, parameters, request body, answers and its example answer (computed by
 * the service's own code, src/api/Examples.ts), cut short where it is long: the whole example is in
 * the OpenAPI document. Pure.
 */
import { type Html, html } from "./Html.ts"
import { page, table } from "./Layout.ts"
import type { Lang } from "./Text.ts"

/** The parts of an OpenAPI 3.1 document the page reads. */
export interface OpenApiDocument {
  readonly info: { readonly title: string; readonly version: string; readonly description?: string }
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  /** Examples several operations share are kept here (src/api/Examples.ts); `schemas` is not read. */
  readonly components?: {
    readonly schemas?: unknown
    readonly examples?: Readonly<Record<string, { readonly value?: unknown }>>
  }
}

interface Parameter {
  readonly name: string
  readonly in: string
  readonly required?: boolean
  readonly description?: string
  readonly schema?: { readonly description?: string }
}

interface Operation {
  readonly operationId?: string
  readonly tags?: ReadonlyArray<string>
  readonly summary?: string
  readonly description?: string
  readonly parameters?: ReadonlyArray<Parameter>
  readonly requestBody?: { readonly content?: Readonly<Record<string, unknown>> }
  readonly responses?: Readonly<
    Record<
      string,
      {
        readonly description?: string
        readonly content?: Readonly<
          Record<string, { readonly examples?: Readonly<Record<string, ExampleRef>> }>
        >
      }
    >
  >
}

interface ExampleRef {
  readonly summary?: string
  readonly value?: unknown
  readonly $ref?: string
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const

/** An example shown in full up to this many characters; the OpenAPI document has the rest. */
export const EXAMPLE_CHARS = 3_000

const anchorOf = (method: string, path: string) =>
  `op-${method}-${path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "")}`

/** The operations of `doc` in document order, with their method and path. */
const operationsOf = (doc: OpenApiDocument) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = item[method] as Operation | undefined
      return op === undefined ? [] : [{ method, path, op }]
    })
  )

/** The first example of the operation's success answer, as text (JSON indented), and its caption. */
const exampleOf = (doc: OpenApiDocument, op: Operation): { caption: string; text: string } | undefined => {
  const success = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith("2"))?.[1]
  for (const [mediaType, content] of Object.entries(success?.content ?? {})) {
    const [first] = Object.values(content.examples ?? {})
    if (first === undefined) continue
    const ref = first.$ref?.replace("#/components/examples/", "")
    const value = ref === undefined ? first.value : doc.components?.examples?.[ref]?.value
    if (value === undefined) continue
    const text = typeof value === "string" ? value : JSON.stringify(value, null, 2)
    return { caption: `${first.summary ?? "Example"} (${mediaType})`, text }
  }
  return undefined
}

const cut = (text: string) =>
  text.length <= EXAMPLE_CHARS
    ? text
    : `${text.slice(0, EXAMPLE_CHARS)}\n… (${text.length - EXAMPLE_CHARS} more characters in /api/openapi.json)`

const operationBlock = (doc: OpenApiDocument, method: string, path: string, op: Operation): Html => {
  const example = exampleOf(doc, op)
  const parameters = op.parameters ?? []
  return html`<section
    class="concern"
    id="${anchorOf(method, path)}"
    aria-labelledby="h-${anchorOf(method, path)}"
  >
    <h3 id="h-${anchorOf(method, path)}"><code>${method.toUpperCase()} ${path}</code></h3>
    ${op.summary ? html`<p><strong>${op.summary}</strong></p>` : ""}
    ${op.description ? html`<p>${op.description}</p>` : ""}
    ${
      parameters.length > 0
        ? table(
            `Parameters of ${method.toUpperCase()} ${path}`,
            ["Name", "In", "Required", "Description"],
            parameters.map((p) => [
              html`<code>${p.name}</code>`,
              p.in,
              p.required === true ? "yes" : "no",
              p.description ?? p.schema?.description ?? ""
            ])
          )
        : ""
    }
    ${
      op.requestBody?.content
        ? html`<p>
            Body:
            ${Object.keys(op.requestBody.content).map((t, i) => html`${i > 0 ? ", " : ""}<code>${t}</code>`)}
          </p>`
        : ""
    }
    ${table(
      `Answers of ${method.toUpperCase()} ${path}`,
      ["Status", "Meaning"],
      Object.entries(op.responses ?? {}).map(([status, r]) => [status, r.description ?? ""])
    )}
    ${
      example === undefined
        ? ""
        : html`<details>
            <summary>${example.caption}</summary>
            <pre>${cut(example.text)}</pre>
          </details>`
    }
  </section>`
}

/** The docs page of `doc`. */
export const apiDocsPage = (doc: OpenApiDocument, lang: Lang): Html => {
  const operations = operationsOf(doc)
  const tags = [...new Set(operations.map(({ op }) => op.tags?.[0] ?? "other"))]
  const body = html`<h1>${doc.info.title} <span class="note">${doc.info.version}</span></h1>
    ${doc.info.description ? html`<p>${doc.info.description}</p>` : ""}
    <p class="note">
      The same as <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1), for people. Every error is
      a JSON <code>{"error": "..."}</code> with its status.
    </p>
    <nav aria-label="Operations">
      <ul>
        ${tags.map(
          (tag) =>
            html`<li>
              ${tag}:
              ${operations
                .filter(({ op }) => (op.tags?.[0] ?? "other") === tag)
                .map(
                  ({ method, path }, i) =>
                    html`${i > 0 ? ", " : ""}<a href="#${anchorOf(method, path)}"
                        >${method.toUpperCase()} ${path}</a
                      >`
                )}
            </li>`
        )}
      </ul>
    </nav>
    ${tags.map(
      (tag) =>
        html`<section aria-label="${tag}">
          <h2>${tag}</h2>
          ${operations
            .filter(({ op }) => (op.tags?.[0] ?? "other") === tag)
            .map(({ method, path, op }) => operationBlock(doc, method, path, op))}
        </section>`
    )}`
  return page({ lang, title: `${doc.info.title}: API documentation`, path: "/api/docs", body })
}
