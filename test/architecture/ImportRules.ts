/**
 * The layer rules of docs/architecture.md as data, and a checker over a tree of sources.
 *
 * A source tree is a map from a path under `src/` (e.g. `checks/spf/Spf.ts`) to its text, so the
 * same checker reads the real tree and small made-up trees that break a rule on purpose. Imports
 * are read with the TypeScript compiler's own pre-processor (`ts.preProcessFile`): static imports,
 * `import type`, re-exports and dynamic `import()` all count, comments and strings do not.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, posix, relative } from "node:path"
import ts from "typescript"

export type SourceTree = ReadonlyMap<string, string>

/** One import of one module by another, both as paths under `src/`; `to` may be a package name. */
export interface ImportEdge {
  readonly from: string
  readonly to: string
}

/**
 * A rule: modules under `from` import nothing matching `forbidden`. A prefix ending in `/` is a
 * folder; otherwise it names one module (`Config.ts`) or a package specifier (`node:dns`).
 */
export interface LayerRule {
  readonly name: string
  readonly from: ReadonlyArray<string>
  readonly forbidden: ReadonlyArray<string>
  /** Paths under `from` the rule does not govern (a folder's own entry point). */
  readonly except?: ReadonlyArray<string>
  /** Modules matching `forbidden` that may be imported all the same (one module of a folder). */
  readonly permitted?: ReadonlyArray<string>
}

export interface Violation {
  readonly rule: string
  readonly from: string
  readonly to: string
}

const ALL_FOLDERS = [
  "ai/",
  "api/",
  "batch/",
  "bounds/",
  "checks/",
  "cli/",
  "composite/",
  "generate/",
  "http/",
  "inbound/",
  "jobs/",
  "kernel/",
  "lib/",
  "mail/",
  "net/",
  "pages/",
  "records/",
  "report/",
  "scan/",
  "score/",
  "store/"
]
const APP_ROOT = ["Api.ts", "Layers.ts", "main.ts"]
/** AppConfig (`Config.ts`) and the areas' setting modules it composes. */
const CONFIG = [
  "Config.ts",
  "ConfigDependencies.ts",
  "ConfigDns.ts",
  "ConfigHttp.ts",
  "ConfigMail.ts",
  "ConfigMonitor.ts",
  "ConfigOperations.ts",
  "ConfigScale.ts",
  "ConfigValues.ts",
  "ConfigWeb.ts"
]
/**
 * The registry-typed scan: the Schema of a scan's outcomes over the registry, and a stored scan read
 * by today's registry. They sit in scan/ above the checks (they import the registry), and every
 * reader of finished scans (score, report, pages) may import them without importing the engine.
 */
const SCAN_RESULT = ["scan/ScanResult.ts", "scan/StoredScan.ts"]
const everythingBut = (...allowed: ReadonlyArray<string>) =>
  [...ALL_FOLDERS, ...APP_ROOT, ...CONFIG].filter((p) => !allowed.includes(p))

/** The modules that may open sockets or speak a network protocol (DESIGN.md principle 3). */
const NETWORK_PACKAGES = ["node:dns", "node:net", "node:tls", "node:dgram", "node:https", "undici"]

export const rules: ReadonlyArray<LayerRule> = [
  {
    name: "nothing imports the command line but the process entry",
    from: everythingBut("cli/", "main.ts"),
    forbidden: ["cli/"]
  },
  {
    name: "nothing imports the wiring (Layers.ts) or the process entry but the entry points",
    from: everythingBut("main.ts", "cli/"),
    forbidden: ["Layers.ts", "main.ts"]
  },
  {
    name: "nothing imports http/ but the process entry and the layer wiring",
    from: everythingBut("http/", "main.ts", "Layers.ts"),
    forbidden: ["http/"]
  },
  {
    name: "nothing imports batch/ but the command line and the layer wiring (every runner takes batch chunks)",
    from: everythingBut("batch/", "cli/", "main.ts", "Layers.ts"),
    forbidden: ["batch/"]
  },
  {
    name: "nothing imports lib/: it is the package's public surface, over the engine the app runs",
    from: everythingBut("lib/"),
    forbidden: ["lib/"]
  },
  {
    name: "net/ imports nothing of ours but Config.ts, the pure grammars of records/ and the permit pools of bounds/",
    from: ["net/"],
    forbidden: everythingBut("net/", "records/", "bounds/", ...CONFIG)
  },
  {
    name: "records/ is pure and at the bottom: it imports nothing of ours outside records/",
    from: ["records/"],
    forbidden: everythingBut("records/")
  },
  {
    name: "generate/ builds on records/ only",
    from: ["generate/"],
    forbidden: everythingBut("generate/", "records/")
  },
  {
    name: "kernel/ is what every check is made of: it imports no check and nothing above",
    from: ["kernel/"],
    forbidden: everythingBut("kernel/", "records/", "net/", ...CONFIG)
  },
  {
    name: "checks/ read the world through Facts: nothing above them, no generator",
    from: ["checks/"],
    forbidden: everythingBut("checks/", "kernel/", "records/", "net/", ...CONFIG)
  },
  {
    name: "score/ is pure over finished scans",
    from: ["score/"],
    forbidden: everythingBut("score/", "checks/", "kernel/", "records/"),
    permitted: SCAN_RESULT
  },
  {
    name: "scan/ is the engine: it knows the checks, not what is built on it",
    from: ["scan/"],
    forbidden: ["ai/", "api/", "batch/", "cli/", "composite/", "http/", "jobs/", "report/", ...APP_ROOT]
  },
  {
    name: "composite/ composes checks over the engine, below the handlers and jobs",
    from: ["composite/"],
    // report/ sits below: it takes the scan a composite ran
    forbidden: ["ai/", "api/", "batch/", "cli/", "http/", "jobs/", ...APP_ROOT]
  },
  {
    name: "report/ takes a scan result: it starts no scan and touches no network",
    from: ["report/"],
    forbidden: [
      "ai/",
      "api/",
      "batch/",
      "cli/",
      "composite/",
      "http/",
      "jobs/",
      "net/",
      "scan/",
      ...APP_ROOT
    ],
    permitted: SCAN_RESULT
  },
  {
    name: "pages/ renders finished reports as HTML: it starts no scan, reads no store, touches no network",
    from: ["pages/"],
    forbidden: [
      "api/",
      "batch/",
      "cli/",
      "composite/",
      "http/",
      "jobs/",
      "net/",
      "scan/",
      "store/",
      ...APP_ROOT
    ],
    permitted: SCAN_RESULT
  },
  {
    name: "inbound/ takes reports in and summarises them over the engine, below the contract and handlers",
    from: ["inbound/"],
    forbidden: ["ai/", "api/", "batch/", "cli/", "composite/", "http/", "jobs/", "report/", ...APP_ROOT]
  },
  {
    name: "http/ wires the contract to services: no check, store or net module directly",
    from: ["http/"],
    forbidden: ["checks/", "kernel/", "store/", "net/"]
  },
  {
    name: "batch/ and jobs/ use the engine, not the contract or the network",
    from: ["batch/", "jobs/"],
    forbidden: ["api/", "net/", "Api.ts", "http/"]
  },
  {
    name: "nothing outside net/ opens a socket",
    from: everythingBut("net/"),
    forbidden: NETWORK_PACKAGES,
    // ConfigValues.ts validates address settings with node:net's `isIP`, a pure parser; it opens nothing.
    except: ["ConfigValues.ts"]
  },
  {
    name: "bounds/ (the permit pool and its wait clock) is a leaf: the network clients and the edge's gate hold its permits",
    from: ["bounds/"],
    forbidden: everythingBut("bounds/")
  },
  {
    name: "observe/ (metrics, log format, tracing) is a leaf: every layer records into it",
    from: ["observe/"],
    forbidden: everythingBut()
  }
]

const matches = (path: string, prefix: string) =>
  prefix.endsWith("/") ? path.startsWith(prefix) : path === prefix

/** Every import of every module of the tree, resolved to a path under `src/` when relative. */
export const importsOf = (tree: SourceTree): ReadonlyArray<ImportEdge> => {
  const edges: Array<ImportEdge> = []
  for (const [from, text] of tree) {
    for (const imported of ts.preProcessFile(text, true, true).importedFiles) {
      const spec = imported.fileName
      const to = spec.startsWith(".") ? posix.normalize(posix.join(posix.dirname(from), spec)) : spec
      edges.push({ from, to })
    }
  }
  return edges
}

/** The imports that break a rule; `[]` when the tree keeps them all. */
export const violations = (
  tree: SourceTree,
  ruleSet: ReadonlyArray<LayerRule> = rules
): ReadonlyArray<Violation> => {
  const found: Array<Violation> = []
  for (const { from, to } of importsOf(tree))
    for (const rule of ruleSet)
      if (
        rule.from.some((p) => matches(from, p)) &&
        !(rule.except ?? []).some((p) => matches(from, p)) &&
        rule.forbidden.some((p) => matches(to, p)) &&
        !(rule.permitted ?? []).some((p) => matches(to, p))
      )
        found.push({ rule: rule.name, from, to })
  return found
}

/** The TypeScript sources under `dir` (the repository's `src/`), keyed by their path under it. */
export const readTree = (dir: string): SourceTree => {
  const tree = new Map<string, string>()
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.name.endsWith(".ts"))
        tree.set(relative(dir, path).split("\\").join("/"), readFileSync(path, "utf8"))
    }
  }
  walk(dir)
  return tree
}

/**
 * The circles of the tree's import graph: each strongly connected component of more than one
 * module, every kind of import counted (type-only ones too: a type circle still ties the modules
 * together, and it is how the registry, the scan's type and every check became one knot). `[]` when
 * the imports form no circle.
 */
export const circles = (tree: SourceTree): ReadonlyArray<ReadonlyArray<string>> => {
  const next = new Map<string, Array<string>>()
  for (const { from, to } of importsOf(tree))
    if (tree.has(to) && to !== from) next.set(from, [...(next.get(from) ?? []), to])
  // Tarjan's algorithm, iterative so a long chain of imports cannot overflow the stack.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const found: Array<ReadonlyArray<string>> = []
  let counter = 0
  for (const root of tree.keys()) {
    if (index.has(root)) continue
    const work: Array<{ readonly node: string; edge: number }> = [{ node: root, edge: 0 }]
    index.set(root, counter)
    low.set(root, counter++)
    stack.push(root)
    onStack.add(root)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const edges = next.get(frame.node) ?? []
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!
        if (!index.has(to)) {
          index.set(to, counter)
          low.set(to, counter++)
          stack.push(to)
          onStack.add(to)
          work.push({ node: to, edge: 0 })
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!))
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!))
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: Array<string> = []
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.node)
        if (component.length > 1) found.push(component.sort())
      }
    }
  }
  return found
}

/**
 * The imports of each module that bring values (not `import type`, not `export type`), resolved
 * like `importsOf`. A module imported for its types only does not run before the importer, so the
 * order of the checks governs value imports alone.
 */
export const valueImportsOf = (tree: SourceTree): ReadonlyArray<ImportEdge> => {
  const edges: Array<ImportEdge> = []
  for (const [from, text] of tree) {
    const source = ts.createSourceFile(from, text, ts.ScriptTarget.Latest, false)
    for (const statement of source.statements) {
      let spec: ts.Expression | undefined
      if (ts.isImportDeclaration(statement)) {
        const clause = statement.importClause
        const bindings = clause?.namedBindings
        const typesOnly =
          clause !== undefined &&
          (clause.isTypeOnly ||
            (clause.name === undefined &&
              bindings !== undefined &&
              ts.isNamedImports(bindings) &&
              bindings.elements.length > 0 &&
              bindings.elements.every((e) => e.isTypeOnly)))
        if (!typesOnly) spec = statement.moduleSpecifier
      } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) spec = statement.moduleSpecifier
      if (spec === undefined || !ts.isStringLiteral(spec)) continue
      const to = spec.text.startsWith(".")
        ? posix.normalize(posix.join(posix.dirname(from), spec.text))
        : spec.text
      edges.push({ from, to })
    }
  }
  return edges
}

/** The registry (`checks/index.ts`): each registered check's folder, in the registry's order. */
export const registryOrder = (tree: SourceTree): ReadonlyArray<string> => {
  const text = tree.get("checks/index.ts") ?? ""
  const folderOf = new Map<string, string>()
  for (const m of text.matchAll(/import \{ (\w+) \} from "\.\/([^/]+)\/[^"]+"/g)) folderOf.set(m[1]!, m[2]!)
  const list = /export const registry = \[([\s\S]*?)\]/.exec(text)?.[1] ?? ""
  return list
    .split("\n")
    .map((line) =>
      line
        .replace(/\/\/.*$/, "")
        .trim()
        .replace(/,$/, "")
    )
    .flatMap((name) => (folderOf.has(name) ? [folderOf.get(name)!] : []))
}

const checkFolder = (path: string): string | null => /^checks\/([^/]+)\/[^/]+$/.exec(path)?.[1] ?? null

/**
 * The imports inside checks/ that run upward. A check folder imports the kernel, records/ and the
 * settings freely; another check's folder by value only when that check comes earlier in the
 * registry (so a check builds on checks listed before it, as `need` does); another check's result
 * by type in either direction (what its rules declare they read, `Reads`). A folder of no
 * registered check (`csp/`, `email/`) ranks below every registered one. No check folder imports
 * the registry itself (`checks/index.ts`), which sits above them all.
 */
export const upwardCheckImports = (tree: SourceTree): ReadonlyArray<Violation> => {
  const order = registryOrder(tree)
  const rank = (folder: string) => order.indexOf(folder)
  const found: Array<Violation> = []
  for (const { from, to } of importsOf(tree))
    if (checkFolder(from) !== null && to === "checks/index.ts")
      found.push({ rule: "no check folder imports the registry", from, to })
  for (const { from, to } of valueImportsOf(tree)) {
    const [a, b] = [checkFolder(from), checkFolder(to)]
    if (a !== null && b !== null && a !== b && rank(b) >= rank(a))
      found.push({
        rule: "a check folder imports another by value only when that check comes earlier in the registry",
        from,
        to
      })
  }
  return found
}
