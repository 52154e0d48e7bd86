/**
 * The registry: every check a full scan runs, in the order reports list them. The Scanner, the
 * score and the documentation read this list; adding a check is adding it here.
 */
import { Bimi } from "./bimi/Bimi.ts"
import { Blocklist } from "./blocklist/Blocklist.ts"
import { Dkim } from "./dkim/Dkim.ts"
import { Dmarc } from "./dmarc/Dmarc.ts"
import { Fcrdns } from "./fcrdns/Fcrdns.ts"
import { MtaSts } from "./mta-sts/MtaSts.ts"
import { SmtpTls } from "./smtp-tls/SmtpTls.ts"
import { Spf } from "./spf/Spf.ts"
import { Tlsa } from "./tlsa/Tlsa.ts"

export const registry = [Spf, Dmarc, Dkim, Bimi, MtaSts, SmtpTls, Tlsa, Fcrdns, Blocklist] as const

export type Registry = typeof registry
