/** An SVG parsed by htmlparser2 in XML mode: its elements, texts, ids and url(#id) references. */
import { parseDocument } from "htmlparser2"

interface Node {
  readonly type: string
  readonly name?: string
  readonly attribs?: Record<string, string>
  readonly data?: string
  readonly children?: ReadonlyArray<Node>
}

const walk = (node: Node): Array<Node> => [node, ...(node.children ?? []).flatMap(walk)]

/** Parse as XML (errors are thrown by the checks below, not swallowed): the elements and texts. */
export const parseSvg = (svg: string) => {
  const doc = parseDocument(svg, { xmlMode: true }) as unknown as Node
  const nodes = walk(doc)
  const elements = nodes.filter((n) => n.type === "tag")
  const root = elements[0]
  return {
    root,
    elements,
    texts: elements
      .filter((e) => e.name === "text")
      .map((e) => (e.children ?? []).map((c) => c.data).join("")),
    ids: elements.flatMap((e) => (e.attribs?.id ? [e.attribs.id] : [])),
    references: elements.flatMap((e) =>
      Object.values(e.attribs ?? {}).flatMap((v) => [...v.matchAll(/url\(#([^)]+)\)/g)].map((m) => m[1]!))
    )
  }
}
