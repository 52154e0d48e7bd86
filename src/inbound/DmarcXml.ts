/**
 * The DMARC aggregate report's XML (RFC 7489 Appendix C; RFC 9990) read as a stream with saxes:
 * text is written in as it is decompressed, each `<record>` is read into a `DmarcRecord` as soon as
 * it closes and handed on, and nothing of it is kept, so memory stays flat in the record count.
 * Only the element being read is held as a small tree, bounded in elements, text and depth.
 *
 * Strangers' XML is hostile: a DOCTYPE (the door to entity expansion, "billion laughs", and to
 * external entities) is refused; saxes expands only XML's five predefined entities and character
 * references (XML 1.0 4.1, 4.6), one character each. And receivers' XML is sloppy: where it is not
 * well-formed, saxes's recovery is taken and said in a warning, as long as `</feedback>` is
 * reached (a report cut short is refused: its records would silently be fewer). A `<feedback>`
 * wrapped in another root (`<xs:schema>`, as some receivers send) is read, said so.
 */
import { SaxesParser } from "saxes"
import type { DmarcAggregateReport, DmarcRecord, DmarcReportHead } from "./DmarcReport.ts"
import {
  alignmentOf,
  Bad,
  Fatal,
  MAX_TEXT,
  type Node,
  readHead,
  readRecord,
  TEXT,
  type Value,
  Warnings
} from "./DmarcFields.ts"
import { refuse, type ReportLimits, ReportRefused } from "./Refusal.ts"

/** Deepest nesting read. */
const MAX_DEPTH = 32
/** Most elements in one record or head element (a real record has about 25). */
const MAX_ELEMENTS = 2000
/** Repairs of not-well-formed XML named one by one; more are counted. */
const MAX_XML_WARNINGS = 3

interface Frame {
  readonly local: string
  readonly children: Record<string, Value>
  text: string
  hasChild: boolean
}

const localName = (name: string) => name.slice(name.indexOf(":") + 1)

const add = (node: Record<string, Value>, key: string, value: string | Node) => {
  const had = node[key]
  node[key] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had as string | Node, value]
}

export interface DmarcXmlRead {
  readonly head: DmarcReportHead
  /** Records read and handed on. */
  readonly records: number
  readonly warnings: ReadonlyArray<string>
}

/**
 * A streaming reader: `write` text in order, then `end`. Each readable record goes to `onRecord`
 * as it closes; one that cannot be read is skipped with a warning.
 */
export const dmarcXmlReader = (
  limits: Pick<ReportLimits, "maxRecords">,
  onRecord: (record: DmarcRecord, index: number) => void
) => {
  const warnings = new Warnings()
  const parser = new SaxesParser({ position: true })
  const stack: Array<Frame | null> = []
  let fatal: ReportRefused | undefined
  let rootName = ""
  let feedbackDepth = -1
  let feedbackSeen = false
  let feedbackClosed = false
  let elements = 0
  let recordIndex = 0
  let records = 0
  let firstSkip: string | undefined
  let meta: Node | undefined
  let policy: Node | undefined
  let version: string | null = null
  let xmlErrors = 0
  let tail = ""

  const dispatch = (local: string, value: string | Node, overflowed: boolean) => {
    if (local === "record") {
      const index = recordIndex++
      if (recordIndex > limits.maxRecords) {
        fatal = refuse("schema", `the report holds more than ${limits.maxRecords} records (the limit)`)
        return
      }
      try {
        if (overflowed) throw new Bad(`<record[${index}]> holds more than ${MAX_ELEMENTS} elements`)
        if (typeof value === "string") throw new Bad(`<record[${index}]> is empty`)
        const record = readRecord(value, index, alignmentOf(policy), warnings)
        records++
        onRecord(record, index)
      } catch (e) {
        if (e instanceof Fatal) fatal = refuse("schema", `not a DMARC aggregate report: ${e.message}`)
        else if (e instanceof Bad) {
          firstSkip ??= e.message
          warnings.add(`record skipped: ${e.message}`)
        } else throw e
      }
      return
    }
    if (overflowed) {
      fatal = refuse("schema", `<feedback.${local}> holds more than ${MAX_ELEMENTS} elements`)
      return
    }
    const node = typeof value === "string" ? {} : value
    if (local === "report_metadata") meta ??= node
    else if (local === "policy_published") policy ??= node
    else if (local === "version" && typeof value === "string") version = value.trim().slice(0, 40)
  }

  let overflowed = false
  parser.on("doctype", () => {
    fatal ??= refuse("forbidden", "a DOCTYPE is not allowed in a report (no entities)")
  })
  parser.on("error", (e) => {
    if (++xmlErrors <= MAX_XML_WARNINGS)
      warnings.add(`the XML is not well-formed at ${e.message.replace(/\.$/, "")}: read as repaired`)
  })
  parser.on("opentag", (tag) => {
    const depth = stack.length
    if (depth >= MAX_DEPTH) {
      fatal ??= refuse("schema", `the XML nests deeper than ${MAX_DEPTH} elements`)
      stack.push(null)
      return
    }
    const local = localName(tag.name)
    if (depth === 0) rootName = tag.name
    if (feedbackDepth < 0) {
      if (local === "feedback" && depth <= 1 && !feedbackSeen) {
        feedbackDepth = depth
        feedbackSeen = true
        if (depth === 1)
          warnings.add(`the report is wrapped in <${rootName.slice(0, 40)}>: read the <feedback> inside`)
      }
      stack.push(null)
      return
    }
    if (depth === feedbackDepth + 1) {
      elements = 1
      overflowed = false
      stack.push({ local, children: {}, text: "", hasChild: false })
      return
    }
    const parent = stack[depth - 1]
    if (parent === null || parent === undefined || ++elements > MAX_ELEMENTS) {
      if (parent !== null && parent !== undefined) overflowed = true
      stack.push(null)
      return
    }
    parent.hasChild = true
    stack.push({ local, children: {}, text: "", hasChild: false })
  })
  const onText = (t: string) => {
    const top = stack[stack.length - 1]
    if (top && top.text.length <= MAX_TEXT) top.text += t.slice(0, MAX_TEXT + 1 - top.text.length)
  }
  parser.on("text", onText)
  parser.on("cdata", onText)
  parser.on("closetag", () => {
    const frame = stack.pop()
    const depth = stack.length
    if (depth === feedbackDepth) {
      feedbackClosed = true
      feedbackDepth = -1
      return
    }
    if (!frame) return
    // text beside markup (a sender's unescaped `<` inside a value) is kept for the repair
    const value = !frame.hasChild
      ? frame.text
      : frame.text.trim() === ""
        ? (frame.children as Node)
        : ({ ...frame.children, [TEXT]: frame.text } as Node)
    if (depth === feedbackDepth + 1) dispatch(frame.local, value, overflowed)
    else {
      const parent = stack[depth - 1]
      if (parent) add(parent.children, frame.local, value)
    }
  })

  const write = (text: string): ReportRefused | undefined => {
    if (fatal) return fatal
    if (/<!(DOCTYPE|ENTITY)/i.test(tail + text.slice(0, 16)) || /<!(DOCTYPE|ENTITY)/i.test(text))
      return (fatal = refuse(
        "forbidden",
        "a DOCTYPE or entity declaration is not allowed in a report (no entities)"
      ))
    tail = text.slice(-16)
    try {
      parser.write(text)
    } catch (e) {
      fatal ??= refuse(
        "malformed",
        `the XML is not well-formed: ${e instanceof Error ? e.message : String(e)}`
      )
    }
    return fatal
  }

  const end = (): DmarcXmlRead | ReportRefused => {
    if (fatal) return fatal
    try {
      parser.close()
    } catch (e) {
      return refuse("malformed", `the XML is not well-formed: ${e instanceof Error ? e.message : String(e)}`)
    }
    if (fatal) return fatal
    if (!feedbackSeen)
      return refuse(
        "schema",
        `not a DMARC aggregate report: <feedback> is missing${rootName ? ` (the document is <${rootName.slice(0, 40)}>)` : ""}`
      )
    if (!feedbackClosed)
      return refuse("malformed", "the XML is not well-formed: it ends inside <feedback> (truncated?)")
    let head: DmarcReportHead
    try {
      head = readHead(meta, policy, version, warnings)
    } catch (e) {
      if (e instanceof Bad || e instanceof Fatal)
        return refuse("schema", `not a DMARC aggregate report: ${e.message}`)
      throw e
    }
    if (records === 0)
      return refuse(
        "schema",
        firstSkip === undefined
          ? "not a DMARC aggregate report: the report holds no <record> (RFC 7489 C: at least one)"
          : `not a DMARC aggregate report: no record could be read: ${firstSkip}`
      )
    return { head, records, warnings: warnings.list() }
  }
  return { write, end }
}

/** A whole report from its XML text (small reports, examples, tests): its records kept in memory. */
export const parseDmarcXml = (
  xml: string,
  limits: Pick<ReportLimits, "maxRecords">
): (DmarcAggregateReport & { readonly warnings: ReadonlyArray<string> }) | ReportRefused => {
  const records: Array<DmarcRecord> = []
  const reader = dmarcXmlReader(limits, (r) => void records.push(r))
  const written = reader.write(xml.replace(/^\uFEFF/, ""))
  if (written instanceof ReportRefused) return written
  const read = reader.end()
  if (read instanceof ReportRefused) return read
  return { ...read.head, records, warnings: read.warnings }
}
