/** The NIS2 page names each critical gap by its measure, in the page's language, not by its letter alone. */
import { describe, expect, it } from "vitest"
import { nis2Page } from "../../src/pages/Nis2Page.ts"
import { nis2Scorecard } from "../../src/score/Nis2.ts"
import { FIXTURES, storedScan } from "../monitor/scans.ts"

describe("the NIS2 page", () => {
  it.each(["en", "nl"] as const)("names the critical gaps by measure (%s)", (lang) => {
    const cards = FIXTURES.map((domain) => nis2Scorecard(storedScan(domain), lang))
    const gapped = cards.filter((card) => card.criticalGaps.length > 0)
    expect(gapped.length).toBeGreaterThan(0)
    for (const card of gapped) {
      const markup = nis2Page(card, lang).markup
      for (const id of card.criticalGaps) {
        const label = card.measures.find((m) => m.id === id)!.label.replace(/'/g, "&#39;")
        expect(markup).toContain(`<a href="#measure-${id}">${id}) ${label}</a>`)
      }
    }
  })
})
