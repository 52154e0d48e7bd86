/**
 * A fixed-length ISO 8601 duration, such as a monitor's interval (ISO 8601-1:2019 §5.5.2; the RFC 3339 Appendix A
 * grammar), such as `PT15M`, `PT1H`, `P1D`, `P1W` or `PT90S`. Years and months are refused: their
 * length depends on the calendar, and an interval must be a fixed number of milliseconds so that
 * every runner computes the same due times. Pure.
 */

const UNIT_MS = { W: 604_800_000, D: 86_400_000, H: 3_600_000, M: 60_000, S: 1_000 } as const

const GRAMMAR =
  /^P(?:(?<W>\d+)W|(?:(?<D>\d+)D)?(?:T(?:(?<H>\d+)H)?(?:(?<M>\d+)M)?(?:(?<S>\d+(?:\.\d{1,3})?)S)?)?)$/

/** The duration in milliseconds, or why it is not one we accept. */
export const parseEvery = (text: string): { readonly ms: number } | { readonly error: string } => {
  const match = GRAMMAR.exec(text.trim().toUpperCase())
  const groups = match?.groups
  if (!groups || text.trim().toUpperCase().endsWith("T") || text.trim().length <= 1)
    return {
      error: `'${text.slice(0, 40)}' is not an ISO 8601 duration such as PT15M, PT1H, P1D or P1W (years and months are not accepted)`
    }
  let ms = 0
  for (const unit of ["W", "D", "H", "M", "S"] as const) {
    const value = groups[unit]
    if (value !== undefined) ms += Math.round(Number(value) * UNIT_MS[unit])
  }
  if (!Number.isSafeInteger(ms) || ms <= 0)
    return { error: `'${text.slice(0, 40)}' is not a positive duration` }
  return { ms }
}

/** The shortest ISO 8601 spelling of `ms` (whole seconds and up): `PT15M`, `P1DT2H`, `PT1.5S`. */
export const formatEvery = (ms: number): string => {
  if (ms <= 0) return "PT0S"
  let rest = ms
  const take = (unit: number) => {
    const n = Math.floor(rest / unit)
    rest -= n * unit
    return n
  }
  const d = take(UNIT_MS.D)
  const h = take(UNIT_MS.H)
  const m = take(UNIT_MS.M)
  const s = rest / 1000
  const time = `${h ? `${h}H` : ""}${m ? `${m}M` : ""}${s ? `${s}S` : ""}`
  return `P${d ? `${d}D` : ""}${time ? `T${time}` : ""}`
}
