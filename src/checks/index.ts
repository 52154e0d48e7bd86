/**
 * The registry: every check a full scan runs, in the order reports list them. The Scanner, the
 * score and the documentation read this list; adding a check is adding it here.
 */
import { Bimi } from "./bimi/Bimi.ts"
import { Dkim } from "./dkim/Dkim.ts"
import { Dmarc } from "./dmarc/Dmarc.ts"
import { MtaSts } from "./mta-sts/MtaSts.ts"
import { Spf } from "./spf/Spf.ts"

export const registry = [Spf, Dmarc, Dkim, Bimi, MtaSts] as const

export type Registry = typeof registry
