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
    name: "net/ imports nothing of ours but Config.ts and the pure grammars of records/",
    from: ["net/"],
    forbidden: everythingBut("net/", "records/", ...CONFIG)
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
    forbidden: ["ai/", "api/", "batch/", "cli/", "composite/", "http/", "jobs/", "net/", "scan/", ...APP_ROOT],
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
