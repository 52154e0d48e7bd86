/**
 * The documents a report cites (report/Citations.ts): the shared bibliography there, and what a
 * check alone rests on, declared in its `About.ts` (`citations`).
 */

/** A document a report cites: an RFC, a W3C/WHATWG specification, a mailbox provider's page. */
export interface Source {
  readonly title: string
  readonly url: string
}

/** An RFC as a citation: its key (`rfc9460`) and its source. */
export const rfc = (n: number, title: string): readonly [string, Source] => [
  `rfc${n}`,
  { title: `RFC ${n}: ${title}`, url: `https://www.rfc-editor.org/rfc/rfc${n}` }
]
