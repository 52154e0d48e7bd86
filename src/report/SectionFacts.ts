/**
 * The facts a report section shows a person: chosen fields of a check's typed result, as short
 * label/value text. Pure and deterministic (the order is the order of `fields`, then of the
 * object's own keys sorted); the full typed result stays in `machineReadable`.
 */
import type { Fact } from "./ReportSchema.ts"

const MAX_VALUE = 400

const cut = (text: string) => (text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text)

const isPrimitive = (v: unknown): v is string | number | boolean | null =>
  v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean"

const primitiveText = (v: string | number | boolean | null): string =>
  v === null ? "none" : v === "" ? "(empty)" : String(v)

/** The name an object goes by in a list: a DNS record's data, a server's host name. */
const nameOf = (item: unknown): string | undefined => {
  if (typeof item !== "object" || item === null) return undefined
  const o = item as Record<string, unknown>
  for (const key of ["data", "hostname", "host", "name", "selector", "id"])
    if (typeof o[key] === "string") return o[key] as string
  return undefined
}

/** One value as text, or undefined when it is an object (shown one level down instead). */
const textOf = (value: unknown): string | undefined => {
  if (isPrimitive(value)) return primitiveText(value)
  if (Array.isArray(value)) {
    if (value.length === 0) return "none"
    if (value.every(isPrimitive)) return cut(value.map(primitiveText).join("; "))
    const names = value.map(nameOf)
    if (names.every((n) => n !== undefined)) return cut(names.join("; "))
    return `${value.length} item${value.length === 1 ? "" : "s"} (see machineReadable)`
  }
  return undefined
}

/** The facts of `result` for `fields` (an object field gives one fact per primitive member). */
export const factsOf = (result: unknown, fields: ReadonlyArray<string>): ReadonlyArray<Fact> => {
  if (typeof result !== "object" || result === null) return []
  const source = result as Record<string, unknown>
  const out: Array<Fact> = []
  for (const field of fields) {
    if (!(field in source) || source[field] === undefined) continue
    const value = source[field]
    const text = textOf(value)
    if (text !== undefined) {
      out.push({ label: field, value: text })
      continue
    }
    const members = value as Record<string, unknown>
    for (const key of Object.keys(members).sort()) {
      const inner = textOf(members[key])
      if (inner !== undefined) out.push({ label: `${field}.${key}`, value: inner })
    }
  }
  return out
}
