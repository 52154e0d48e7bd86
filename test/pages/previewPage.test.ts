/**
 * The "what if" page's pure parts: the form's lines read into a preview's changes (a line that is no
 * record named by its number), and the form rendered with what was typed escaped, in both languages.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import fc from "fast-check"
import { readForm } from "../../src/composite/PreviewForm.ts"
import { previewPage } from "../../src/pages/PreviewPage.ts"
import { runs } from "../support/runs.ts"

describe("readForm", () => {
  it("reads one record per line and one removal per line, skipping blank and ';' lines", () => {
    const read = readForm({
      records: "@ TXT v=spf1 mx -all\r\n\n; a comment\n_dmarc.example.com TXT v=DMARC1; p=reject\n",
      remove: "www.example.com CNAME\n"
    })
    expect(read).toEqual(
      Either.right({
        records: [
          { name: "@", type: "TXT", value: "v=spf1 mx -all" },
          { name: "_dmarc.example.com", type: "TXT", value: "v=DMARC1; p=reject" }
        ],
        remove: [{ name: "www.example.com", type: "CNAME" }]
      })
    )
  })

  it("names the line that is not a record", () => {
    expect(readForm({ records: "@ TXT v=spf1 -all\njust-a-name", remove: "" })).toEqual(
      Either.left(expect.stringContaining("records, line 2:"))
    )
    expect(readForm({ records: "", remove: "www.example.com CNAME extra" })).toEqual(
      Either.left(expect.stringContaining("removals, line 1:"))
    )
  })

  it("never throws, whatever is typed", () =>
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 100 }), (records, remove) => {
        readForm({ records, remove })
      }),
      { numRuns: runs(200) }
    ))
})

describe("the page", () => {
  it("escapes what was typed and shows the refusal beside the form, in English and Dutch", () => {
    for (const lang of ["en", "nl"] as const) {
      const markup = previewPage(
        {
          domain: "example.com",
          form: { records: `@ TXT "</textarea><script>x</script>"`, remove: "" },
          problem: "records[0] (example.com TXT): <b>no</b>"
        },
        lang
      ).markup
      expect(markup).not.toContain("<script>")
      expect(markup).not.toContain("<b>no</b>")
      expect(markup).toContain('action="/preview/example.com?lang=' + lang + '"')
      expect(markup).toContain(lang === "nl" ? "Te publiceren records" : "Records to publish")
    }
  })
})
