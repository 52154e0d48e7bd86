/**
 * Reading strangers' XML safely: fast-xml-parser with every entity feature off. A DOCTYPE (the
 * door to entity expansion, "billion laughs", and to external entities) is refused before any
 * parser sees the text; no report format has one. What is left of entities are the five
 * predefined ones and character references (XML 1.0 4.1, 4.6), which cannot expand: they are
 * decoded here, one character each.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser"
import { refuse, type ReportRefused } from "./Refusal.ts"

const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" }

/** The predefined entities and character references of XML 1.0, and nothing else. */
export const decodeXmlText = (text: string): string =>
  text.includes("&")
    ? text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/gi, (whole, ref: string) => {
        if (ref[0] !== "#") return PREDEFINED[ref] ?? whole
        const code =
          ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
      })
    : text

/** One parser per set of array paths: building one costs more than parsing a small report. */
const parsers = new WeakMap<ReadonlySet<string>, XMLParser>()

const parserFor = (arrays: ReadonlySet<string>) => {
  let parser = parsers.get(arrays)
  if (parser === undefined) {
    parser = new XMLParser({
      processEntities: false,
      htmlEntities: false,
      ignoreAttributes: true,
      ignoreDeclaration: true,
      ignorePiTags: true,
      parseTagValue: false,
      trimValues: true,
      jPath: true,
      maxNestedTags: 32,
      isArray: (_name, path) => typeof path === "string" && arrays.has(path)
    })
    parsers.set(arrays, parser)
  }
  return parser
}

/**
 * Parse `text` into plain objects (text nodes as strings, attributes dropped), with the elements
 * named by `arrays` (dotted paths) always arrays. Refuses a DOCTYPE, an entity declaration and
 * anything not well-formed, naming where.
 */
export const parseXml = (
  text: string,
  arrays: ReadonlySet<string>
): Record<string, unknown> | ReportRefused => {
  if (/<!DOCTYPE/i.test(text))
    return refuse("forbidden", "a DOCTYPE is not allowed in a report (no entities)")
  if (/<!ENTITY/i.test(text)) return refuse("forbidden", "entity declarations are not allowed in a report")
  const valid = XMLValidator.validate(text)
  if (valid !== true)
    return refuse("malformed", `the XML is not well-formed: ${valid.err.msg} (line ${valid.err.line})`)
  const parser = parserFor(arrays)
  try {
    return parser.parse(text) as Record<string, unknown>
  } catch (e) {
    return refuse("malformed", `the XML is not well-formed: ${e instanceof Error ? e.message : String(e)}`)
  }
}
