/**
 * What the post-quantum key-exchange check gathers: each server asked, and what the key-exchange
 * probe (net/KeyExchangeProbe.ts) heard from it. In a module of its own so that the example
 * (Example.ts) builds it without a circle.
 */
import type { MxStatus } from "../../kernel/MailServers.ts"
import type { KeyExchangeOutcome } from "../../net/KeyExchangeProbe.ts"

/** The key-exchange probe's outcome, or that the scan's depth did not ask it. */
export type KeyExchangeAnswer =
  KeyExchangeOutcome | { readonly kind: "not-checked"; readonly message: string }

export interface Asked {
  readonly service: "web" | "mail"
  readonly host: string
  readonly address: string
  readonly answer: KeyExchangeAnswer
}

export interface PqKexGathered {
  readonly domain: string
  /** Whether the web names' addresses were found: `unknown` when a lookup failed. */
  readonly webLookup: "answer" | "none" | "unknown"
  readonly mxStatus: MxStatus
  /** Why the MX set is unknown, else null. */
  readonly mxError: string | null
  readonly asked: ReadonlyArray<Asked>
}
