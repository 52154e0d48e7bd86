/**
 * The registry: every check a full scan runs, in the order reports list them. The Scanner, the
 * score and the documentation read this list; adding a check is adding it here.
 */
import { Blocklist } from "./blocklist/Blocklist.ts"
import { Fcrdns } from "./fcrdns/Fcrdns.ts"
import { SmtpTls } from "./smtp-tls/SmtpTls.ts"
import { Spf } from "./spf/Spf.ts"
import { Tlsa } from "./tlsa/Tlsa.ts"

export const registry = [Spf, SmtpTls, Tlsa, Fcrdns, Blocklist] as const

export type Registry = typeof registry
