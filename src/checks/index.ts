/**
 * The registry: every check a full scan runs, in the order reports list them. The Scanner, the
 * score and the documentation read this list; adding a check is adding it here.
 */
import { Spf } from "./spf/Spf.ts"

export const registry = [Spf] as const

export type Registry = typeof registry
