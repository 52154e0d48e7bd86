/**
 * The NSEC3 part of the DNSSEC verdict (RFC 9276 3.1), and the issue shape the DNSSEC check
 * reports its findings in.
 */
import { Schema } from "effect"
import type { Nsec3ParamData } from "../../net/DnsWire.ts"

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
  optOut: Schema.Boolean,
  rfc9276Compliant: Schema.Boolean,
  issues: Schema.Array(Issue)
})
export type Nsec3Param = typeof Nsec3Param.Type

/** RFC 9276 3.1: iterations MUST be 0, salt SHOULD be empty; opt-out only for very large zones. */
export const nsec3Verdict = (p: Nsec3ParamData | undefined): Nsec3Param => {
  if (!p)
    return {
      exists: false,
      hashAlgorithm: 0,
      flags: 0,
      iterations: 0,
      salt: "",
      optOut: false,
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
      message: `NSEC3 uses a ${p.salt.length / 2}-byte salt; RFC 9276 3.1 says to use none ("-")`
    })
  if (p.hashAlgorithm !== 1)
    issues.push({
      severity: "warning",
      code: "nsec3-hash",
      message: `unknown NSEC3 hash algorithm ${p.hashAlgorithm}`
    })
  const optOut = (p.flags & 1) === 1
  if (optOut)
    issues.push({
      severity: "info",
      code: "nsec3-optout",
      message: "NSEC3 opt-out is set; RFC 9276 3.1 recommends it only for very large, sparsely signed zones"
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
