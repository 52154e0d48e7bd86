/**
 * Bundles the TypeScript into dist/ with esbuild (well under a second): dist/cli/main.mjs (the
 * `domain-audit` command line) and dist/main.mjs (the server alone). Running the bundle rather than
 * compiling the sources as they load holds about 110 MB less (README). `npm run build` runs this;
 * `bin/domain-audit.mjs` imports it to rebuild when a source is newer than the bundle.
 */
import { existsSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
export const CLI_BUNDLE = join(root, "dist/cli/main.mjs")

export const build = async () => {
  const esbuild = await import("esbuild")
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: ["src/main.ts", "src/cli/main.ts"],
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
    logLevel: "warning"
  })
}

/** The newest modification time under `dir` (ms). */
const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name)
    return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }, 0)

/** Whether the bundle is missing or older than a source or the package manifest. */
export const stale = () =>
  !existsSync(CLI_BUNDLE) ||
  Math.max(newest(join(root, "src")), statSync(join(root, "package.json")).mtimeMs) >
    statSync(CLI_BUNDLE).mtimeMs

if (process.argv[1] === fileURLToPath(import.meta.url)) await build()
