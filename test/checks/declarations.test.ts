/**
 * The registry is the one source of what a check is: every registered check declares every part
 * (rules, issues with advice, report section, CSV columns, NIS2 evidence, deep-scan types) and an
 * example its result Schema encodes, no two checks claim the same id, key or rank, every catalogue
 * id is reported by some check, and no rule id (the ids of docs/scoring.md's tables, generated from
 * the registry) is spelled outside `src/checks/`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Categories, type Registered } from "../../src/kernel/Check.ts"
import { DeepScanTypes, MeasureIds } from "../../src/kernel/Declaration.ts"
import { registry } from "../../src/checks/index.ts"

const nonEmpty = (s: unknown) => typeof s === "string" && s.trim().length > 0
const duplicates = (xs: ReadonlyArray<string>) => xs.filter((x, i) => xs.indexOf(x) !== i)

/** What is missing or clashing in a registry's declarations (empty: every check is complete). */
const problemsOf = (checks: ReadonlyArray<Registered>): ReadonlyArray<string> => {
  const out: Array<string> = []
  const specs = checks.flatMap((c) => c.about?.rules?.specs ?? [])
  const recordIds = new Set(specs.map((s) => s.id))
  for (const c of checks) {
    const at = (what: string) => out.push(`${c.id}: ${what}`)
    const a = c.about
    if (a === undefined) {
      at("declares nothing (no `about`)")
      continue
    }
    if (!Array.isArray(a.rules?.specs) || typeof a.rules?.judge !== "function") at("no rules")
    for (const s of a.rules?.specs ?? []) {
      if (!nonEmpty(s.id) || !nonEmpty(s.title) || !nonEmpty(s.rule))
        at(`rule ${s.id} lacks id, title or rule`)
      if (!Categories.includes(s.category)) at(`rule ${s.id}: no such category ${s.category}`)
      if (!Number.isInteger(s.maxPoints) || s.maxPoints < 0) at(`rule ${s.id}: points ${s.maxPoints}`)
      if (!Number.isFinite(s.rank)) at(`rule ${s.id}: no rank`)
    }
    if (a.issues === undefined || a.advice === undefined) at("no issues or advice")
    else {
      const issues = Object.keys(a.issues).sort()
      if (JSON.stringify(issues) !== JSON.stringify(Object.keys(a.advice).sort()))
        at("issues and advice name different ids")
      for (const [id, entry] of Object.entries(a.issues))
        if (!nonEmpty(entry.title) || !nonEmpty(entry.description))
          at(`issue ${id} lacks a title or description`)
      for (const [id, advice] of Object.entries(a.advice))
        if (!nonEmpty(advice.impact) || !nonEmpty(advice.recommendation)) at(`advice on ${id} is empty`)
    }
    const s = a.section
    if (s === undefined || !nonEmpty(s.key) || !nonEmpty(s.title) || !Number.isFinite(s.rank))
      at("no report section (key, title, rank)")
    else if (!Array.isArray(s.sources) || !Array.isArray(s.facts) || s.generator === undefined)
      at("a section without sources, facts or generator")
    if (!Array.isArray(a.columns)) at("no CSV columns (an empty list says: none)")
    for (const col of a.columns ?? [])
      for (const r of col.records) if (!recordIds.has(r)) at(`column ${col.name} reads no rule: ${r}`)
    if (!Array.isArray(a.nis2)) at("no NIS2 evidence (an empty list says: none)")
    for (const e of a.nis2 ?? []) {
      if (!recordIds.has(e.record)) at(`NIS2 evidence reads no rule: ${e.record}`)
      if (!MeasureIds.includes(e.measure)) at(`NIS2 evidence for no measure: ${e.measure}`)
      if (!nonEmpty(e.text?.label?.en) || !nonEmpty(e.text?.label?.nl))
        at(`NIS2 evidence ${e.record} has no label`)
    }
    if (!Array.isArray(a.deepScans) || a.deepScans.some((t) => !DeepScanTypes.includes(t)))
      at("no deep-scan types (an empty list says: none)")
  }
  const all = (f: (c: Registered) => ReadonlyArray<string>) => checks.flatMap((c) => (c.about ? f(c) : []))
  for (const [what, ids] of [
    ["check id", checks.map((c) => c.id)],
    ["rule id", specs.map((s) => s.id)],
    ["rule rank in its category", specs.map((s) => `${s.category} ${s.rank}`)],
    ["issue id", all((c) => Object.keys(c.about.issues ?? {}))],
    ["section key", all((c) => [c.about.section?.key ?? ""])],
    ["section rank", all((c) => [String(c.about.section?.rank)])],
    ["CSV column", all((c) => (c.about.columns ?? []).map((col) => col.name))],
    ["CSV column rank", all((c) => (c.about.columns ?? []).map((col) => String(col.rank)))],
    ["NIS2 evidence rank", all((c) => (c.about.nis2 ?? []).map((e) => `${e.measure} ${e.rank}`))]
  ] as const)
    for (const d of new Set(duplicates(ids))) out.push(`two checks declare the ${what} ${d}`)
  return out
}

const src = new URL("../../src/", import.meta.url).pathname
const files = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : []
  })
const quoted = (id: string) => new RegExp(`["'\`]${id.replace(/\./g, "\\.")}["'\`]`)

describe("the check registry", () => {
  it("has every part of every registered check, and no id, key or rank twice", () => {
    expect(problemsOf(registry)).toEqual([])
  })

  it("fails a check that lacks a part or clashes with another", () => {
    const [first, second] = [registry[0], registry[1]]
    const without = (part: string) => ({ ...first, about: { ...first.about, [part]: undefined } }) as never
    for (const part of ["rules", "issues", "section", "columns", "nis2", "deepScans"])
      expect(problemsOf([without(part), ...registry.slice(1)]).length, part).toBeGreaterThan(0)
    expect(problemsOf([{ ...first, about: undefined } as never])).toEqual([
      `${first.id}: declares nothing (no \`about\`)`
    ])
    const clash = { ...second, about: { ...second.about, section: first.about.section } }
    expect(problemsOf([first, clash])).toContain(
      `two checks declare the section key ${first.about.section.key}`
    )
  })

  it("gives every check its example for example.com: its own result, computed once", () => {
    for (const check of registry) {
      // The example scan and the OpenAPI examples carry it as the check's result Schema encodes it.
      expect(
        () => Schema.encodeUnknownSync(check.result as Schema.Schema.AnyNoContext)(check.example()),
        check.id
      ).not.toThrow()
      expect(check.example(), check.id).toBe(check.example())
    }
  })

  it("gives each part a diff groups by (web, mail) one foundation record, which declares that part", () => {
    const specs = registry.flatMap((c) => c.about.rules.specs)
    for (const concern of ["web", "mail"] as const) {
      expect(specs.filter((s) => s.concerns === concern).length).toBeGreaterThan(1)
      expect(specs.filter((s) => s.foundation === true && s.concerns === concern)).toHaveLength(1)
    }
    expect(specs.filter((s) => s.foundation === true && s.concerns === undefined)).toEqual([])
  })

  it("reports every catalogue id from some check (a rule, a finding table or a gate)", () => {
    const code = files(join(src, "checks"))
      .filter((f) => !f.endsWith("/Issues.ts"))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n")
    const unused = registry.flatMap((c) => Object.keys(c.about.issues)).filter((id) => !quoted(id).test(code))
    expect(unused, "catalogue ids no check reports").toEqual([])
  })

  it("spells no rule id outside src/checks/", () => {
    const ruleIds = registry.flatMap((c) => c.about.rules.specs.map((s) => s.id))
    expect(ruleIds.length).toBeGreaterThan(30)
    const outside = files(src).filter((f) => !f.startsWith(join(src, "checks")))
    const spelled = outside.flatMap((f) => {
      const text = readFileSync(f, "utf8")
      return ruleIds.filter((id) => quoted(id).test(text)).map((id) => `${f.slice(src.length)}: ${id}`)
    })
    expect(spelled).toEqual([])
  })
})
