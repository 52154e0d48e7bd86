/**
 * The NSEC3 part of the DNSSEC verdict (RFC 9276 3.1, RFC 5155 4.1), and the issue shape the
 * DNSSEC check reports its findings in. Opt-out is read from the NSEC3 records of a denial
 * (RFC 5155 3.1.2.1), never from NSEC3PARAM, whose flags are zero (RFC 5155 4.1.2).
 */
import { Schema } from "effect"
import type { Nsec3ParamData } from "../../records/DnsRdata.ts"

export const Issue = Schema.Struct({
  severity: Schema.Literal("error", "warning", "info"),
  code: Schema.String,
  message: Schema.String
})
export type Issue = typeof Issue.Type

export const Nsec3Param = Schema.Struct({
  exists: Schema.Boolean,
  hashAlgorithm: Schema.Int,
  flags: Schema.Int,
  iterations: Schema.Int,
  salt: Schema.String,
  /** The opt-out flag of the zone's NSEC3 records (RFC 5155 3.1.2.1); null when none were seen. */
  optOut: Schema.NullOr(Schema.Boolean),
  rfc9276Compliant: Schema.Boolean,
  issues: Schema.Array(Issue)
})
export type Nsec3Param = typeof Nsec3Param.Type

/** RFC 9276 3.1: iterations MUST be 0, salt SHOULD be empty; opt-out only for very large zones. */
/**
 * The opt-out flag from NSEC3 records (RFC 5155 3.2: hash algorithm, then flags; bit 0 is opt-out),
 * as the wire decoder leaves them (hex) or decoded; null when there are none.
 */
export const optOutOf = (records: ReadonlyArray<{ readonly type: string; readonly data: unknown }>) => {
  const flags = records
    .filter((r) => r.type === "NSEC3")
    .map((r) =>
      typeof r.data === "string" && /^[0-9a-f]{4}/i.test(r.data)
        ? parseInt(r.data.slice(2, 4), 16)
        : typeof r.data === "object" &&
            r.data !== null &&
            typeof (r.data as { flags?: unknown }).flags === "number"
          ? (r.data as { flags: number }).flags
          : undefined
    )
    .filter((f): f is number => f !== undefined)
  return flags.length === 0 ? null : flags.some((f) => (f & 1) === 1)
}

export const nsec3Verdict = (p: Nsec3ParamData | undefined, optOut: boolean | null = null): Nsec3Param => {
  if (!p)
    return {
      exists: false,
      hashAlgorithm: 0,
      flags: 0,
      iterations: 0,
      salt: "",
      optOut: null,
      rfc9276Compliant: true,
      issues: []
    }
  const issues: Array<Issue> = []
  if (p.iterations > 0)
    issues.push({
      severity: "warning",
      code: "nsec3-iterations",
      message: `NSEC3 uses ${p.iterations} extra iterations; RFC 9276 3.1 requires 0 (validators may treat high counts as insecure)`
    })
  if (p.salt !== "")
    issues.push({
      severity: "warning",
      code: "nsec3-salt",
      message: `NSEC3 uses a ${p.salt.length / 2}-byte salt${p.iterations === 0 ? " (with 0 iterations)" : ""}; RFC 9276 3.1: operators SHOULD NOT use a salt ("-")`
    })
  if (p.hashAlgorithm !== 1)
    issues.push({
      severity: "warning",
      code: "nsec3-hash",
      message: `unknown NSEC3 hash algorithm ${p.hashAlgorithm}`
    })
  // Opt-out is a flag of NSEC3 records (RFC 5155 3.1.2.1), not of NSEC3PARAM: there the flags
  // field is zero, and an NSEC3PARAM with other flags MUST be ignored (RFC 5155 4.1.2).
  if (p.flags !== 0)
    issues.push({
      severity: "warning",
      code: "nsec3param-flags",
      message: `NSEC3PARAM flags are ${p.flags}, not 0: servers ignore such an NSEC3PARAM (RFC 5155 4.1.2); opt-out is set on NSEC3 records, not here`
    })
  if (optOut === true)
    issues.push({
      severity: "info",
      code: "nsec3-optout",
      message:
        "NSEC3 opt-out is set: unsigned delegations are not proven absent; RFC 9276 3.1 advises it only for very large, sparsely signed zones"
    })
  return {
    exists: true,
    hashAlgorithm: p.hashAlgorithm,
    flags: p.flags,
    iterations: p.iterations,
    salt: p.salt,
    optOut,
    rfc9276Compliant: p.iterations === 0 && p.salt === "" && p.hashAlgorithm === 1,
    issues
  }
}
