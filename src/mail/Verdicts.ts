/**
 * What authenticating a message found, as plain data (no mailauth types leak past `Authenticate.ts`):
 * the header analysis and the spam rules are pure functions of it and of the message.
 */

/** RFC 7208 2.6 results, and `not-evaluated` when the message names no client to evaluate. */
export type SpfResult =
  "pass" | "fail" | "softfail" | "neutral" | "none" | "temperror" | "permerror" | "not-evaluated"

export interface SpfVerdict {
  readonly result: SpfResult
  /** The MAIL FROM domain SPF was evaluated for. */
  readonly domain: string | undefined
  readonly ip: string | undefined
  readonly helo: string | undefined
  readonly mailFrom: string | undefined
  /** Human-readable: what was evaluated, from where, and why it gave this result. */
  readonly details: string
}

/** One DKIM-Signature's verification (RFC 6376 6.1; results of RFC 8601 2.7.1). */
export interface DkimSignatureVerdict {
  readonly domain: string
  readonly selector: string
  readonly result: string
  /** d= is aligned with the From domain (relaxed, RFC 7489 3.1.1). */
  readonly aligned: boolean
  readonly comment: string | undefined
  /** The header fields the signature covers (h=), lowercased. */
  readonly signedHeaders: ReadonlyArray<string>
}

export type DmarcResult = "pass" | "fail" | "none" | "temperror" | "permerror"

export interface DmarcVerdict {
  readonly result: DmarcResult
  /** The policy that applies to the From domain (sp= for a subdomain of the record's domain). */
  readonly policy: "none" | "quarantine" | "reject" | undefined
  readonly domain: string | undefined
  readonly spfAligned: boolean
  readonly dkimAligned: boolean
  readonly details: string
}

export interface ArcVerdict {
  /** RFC 8617 4.4: none (no chain), pass, fail; temperror when a key lookup failed. */
  readonly result: string
  readonly details: string
}

export interface AuthVerdicts {
  readonly spf: SpfVerdict
  readonly dkim: ReadonlyArray<DkimSignatureVerdict>
  readonly dmarc: DmarcVerdict
  readonly arc: ArcVerdict
}

/** The dkim summary the contract asks for: pass if any signature passes, else the most telling failure. */
export const dkimStatus = (signatures: ReadonlyArray<DkimSignatureVerdict>): string => {
  if (signatures.length === 0) return "none"
  for (const result of ["pass", "fail", "temperror", "permerror", "policy", "neutral"])
    if (signatures.some((s) => s.result === result)) return result
  return signatures[0]!.result
}
