/** docs/README.md is the index of the docs: it names every page under docs/, and no page that is gone. */
import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const docs = new URL("../../docs/", import.meta.url)

describe("docs/README.md", () => {
  it("lists every doc, and only docs that exist", () => {
    const pages = readdirSync(docs).filter((name) => name.endsWith(".md") && name !== "README.md")
    const index = readFileSync(new URL("README.md", docs), "utf8")
    const listed = [...index.matchAll(/^- `([\w-]+\.md)`/gm)].map((m) => m[1])
    expect(listed.sort()).toEqual(pages.sort())
  })
})
