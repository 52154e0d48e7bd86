/**
 * A check served alone, on an endpoint of its own (`GET /email/spf?domain=`), declared in the check's
 * folder as plain data: api/ adds the endpoint to its group for every check of the registry that
 * declares one (its success is the check's result Schema, a bad domain is 400), and one handler
 * runs the check alone for all of them. It names no module of api/ or http/, which sit above the
 * checks; the strings are what api/ turns into the contract.
 *
 * An endpoint that takes more than `domain` (DKIM's `selector`, BIMI's `format`), answers a
 * composite, or turns an unknown result into a 500 (the mail-transport and DNSSEC endpoints) is
 * declared by hand in api/ instead.
 */

/** The API groups a check can be served in (api/Email.ts, api/WebSecurity.ts). */
export const ServedGroups = ["email", "web"] as const

export type ServedGroup = (typeof ServedGroups)[number]

export interface Served {
  readonly group: ServedGroup
  /** The operation's name within its group: the OpenAPI operation id is `group.name`. */
  readonly name: string
  /** Under /api. */
  readonly path: `/${string}`
  /** One line, shown in the operation list of /api/docs and the index `GET /api`. */
  readonly summary: string
  /** What it does, what it answers, when it is unknown. */
  readonly description: string
  /**
   * What a request costs the service (api/Cost.ts): a check that asks DNS, fetches or probes is
   * `costly`; the edge's admission control reads it.
   */
  readonly cost: "costly" | "cheap"
  /** The request of its OpenAPI example, in words; the answer is the check's `example()`. */
  readonly example: string
  /** Its place among its group's endpoints (api/ ranks the hand-declared ones too): the order of /api/docs. */
  readonly rank: number
}
