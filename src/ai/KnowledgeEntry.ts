/** One entry of the knowledge base: what the catalogue entry of the same id does not already say. */
export interface Advice {
  /** Further explanation, appended to the catalogue's description. */
  readonly detail?: string
  /** What happens to the domain's mail or visitors while the issue stays. */
  readonly impact: string
  /** What to do about it. */
  readonly recommendation: string
}
