/**
 * Bundles the TypeScript into dist/ with esbuild (well under a second): dist/cli/main.mjs (the
 * `domain-audit` command line), dist/main.mjs (the server alone) and dist/lib/ (the package's
 * entry points, `domain-audit` and `domain-audit/testing`), and dist/inbound/ParseWorker.mjs (the
 * worker threads that read posted reports, src/inbound/ParsePool.ts). Running the bundle rather than
 * compiling the sources as they load holds about 110 MB less (docs/cli.md). `npm run build` runs this;
 * `bin/domain-audit.mjs` imports it to rebuild when a source is newer than the bundle.
 *
 * With `--types` it also emits the package's declarations into dist/types/ (`tsc -p
 * tsconfig.lib.json`, tens of seconds), as `npm pack` does before packing (`prepack`). With
 * `--if-stale` it bundles only when a source is newer than the bundle (the tests' global setup,
 * scripts/cluster/up).
 */
import { spawnSync } from "node:child_process"
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync
} from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
export const CLI_BUNDLE = join(root, "dist/cli/main.mjs")
const CHUNKS = join(root, "dist/chunks")
const TYPES = join(root, "dist/types")

export const build = async () => {
  const esbuild = await import("esbuild")
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [
      "src/main.ts",
      "src/cli/main.ts",
      "src/lib/DomainAudit.ts",
      "src/lib/Testing.ts",
      // the parse pool's worker, started by its path (src/inbound/ParsePool.ts)
      "src/inbound/ParseWorker.ts"
    ],
    outbase: "src",
    outdir: "dist",
    bundle: true,
    // the server and the cluster as chunks loaded by the commands that use them (src/cli/Run.ts)
    splitting: true,
    chunkNames: "chunks/[name]-[hash]",
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    outExtension: { ".js": ".mjs" },
    write: false,
    logLevel: "warning"
  })
  // A process may be loading the bundle while another builds it (a test packing the package beside
  // one running the command): a file is replaced whole (written aside, then renamed over it), and
  // only when its content changed.
  for (const { path, contents } of result.outputFiles) {
    if (existsSync(path) && Buffer.from(contents).equals(readFileSync(path))) continue
    mkdirSync(dirname(path), { recursive: true })
    const aside = `${path}.${process.pid}.tmp`
    writeFileSync(aside, contents)
    renameSync(aside, path)
  }
  const now = new Date()
  utimesSync(CLI_BUNDLE, now, now) // fresh, for `stale`, even when nothing changed
  // A chunk an earlier build wrote and this one did not is referenced by nothing: drop it, so that
  // dist/ (and the package) holds only what runs.
  const written = new Set(result.outputFiles.map((file) => file.path))
  for (const name of existsSync(CHUNKS) ? readdirSync(CHUNKS) : [])
    if (!written.has(join(CHUNKS, name)) && !name.endsWith(".tmp")) rmSync(join(CHUNKS, name))
}

/** Every file under `dir`. */
const filesUnder = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]
  )

/**
 * The declarations of the package's entry points and what they reach, from the sources. The sources
 * import each other as `./X.ts`; the declarations name `./X.js`, which every TypeScript resolution
 * mode maps to `./X.d.ts`.
 */
export const buildTypes = () => {
  rmSync(TYPES, { recursive: true, force: true })
  const tsc = spawnSync(
    process.execPath,
    [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.lib.json"],
    {
      cwd: root,
      stdio: "inherit"
    }
  )
  if (tsc.status !== 0) throw new Error(`tsc -p tsconfig.lib.json failed (${tsc.status ?? tsc.signal})`)
  for (const file of filesUnder(TYPES)) {
    const text = readFileSync(file, "utf8")
    const rewritten = text.replace(/((?:from |import\()["'](?:\.\.?\/)[^"']*)\.ts(["'])/g, "$1.js$2")
    if (rewritten !== text) writeFileSync(file, rewritten)
  }
  return relative(root, TYPES)
}

/** The newest modification time under `dir` (ms). */
const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name)
    return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }, 0)

/**
 * Whether the bundle is missing or older than a source or the package manifest. An installed
 * package has no sources: its bundle is what it runs.
 */
export const stale = () =>
  existsSync(join(root, "src")) &&
  (!existsSync(CLI_BUNDLE) ||
    Math.max(newest(join(root, "src")), statSync(join(root, "package.json")).mtimeMs) >
      statSync(CLI_BUNDLE).mtimeMs)

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // --if-stale: only when a source is newer than the bundle (the tests' setup, scripts/cluster/up)
  if (!process.argv.includes("--if-stale") || stale()) await build()
  if (process.argv.includes("--types")) buildTypes()
}
