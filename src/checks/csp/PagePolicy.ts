/**
 * One reading of the Content Security Policy a page is delivered with, shared by the CSP scan
 * (`POST /csp/scan`, its `currentCsp`) and the security-headers analysis
 * (`GET /security-headers/analyze`, its `csp`), so the two endpoints never read one page two ways.
 *
 * A page can carry three kinds of policy (CSP3 §3):
 * - the `Content-Security-Policy` header: enforced (§3.1);
 * - the `Content-Security-Policy-Report-Only` header: violations are reported, nothing is blocked
 *   (§3.2);
 * - `<meta http-equiv="Content-Security-Policy">`: enforced too (§3.3), with limits: it covers only
 *   what the page loads after the element, browsers drop its `frame-ancestors`, `report-uri` and
 *   `sandbox` directives (HTML §4.2.5.3, "Content security policy state"), and no Report-Only policy
 *   can be delivered that way.
 * Every enforced policy applies: a load must pass each (CSP3 §8.1, multiple policies). Pure.
 */
import { Schema } from "effect"
import { Strings } from "../../records/Schemas.ts"
import { rateCsp } from "../../records/CspJudge.ts"
import { parsePolicies } from "../../records/CspPolicy.ts"

export const CspSource = Schema.Literal("header", "report-only-header", "meta", "none")
export type CspSource = typeof CspSource.Type

export const PageCsp = Schema.Struct({
  /**
   * Where `policy` comes from: the enforcing header, else the meta element (both enforced), else
   * the Report-Only header (reported only), else none.
   */
  source: CspSource,
  /** The policy the page is judged by, from `source`. */
  policy: Schema.NullOr(Schema.String),
  /** The Report-Only header's policy, whenever one is sent: reported only, never enforced. */
  reportOnlyPolicy: Schema.NullOr(Schema.String),
  /** Everything browsers enforce: the header's and the meta element's policies; null when nothing is. */
  enforcedPolicy: Schema.NullOr(Schema.String),
  /** The enforcing header's policy. */
  headerPolicy: Schema.NullOr(Schema.String),
  /** The meta element's policy (several elements: their policies comma-joined, each enforced). */
  metaPolicy: Schema.NullOr(Schema.String),
  /**
   * What the enforced policies let run, read as CSP Level 3 browsers read them
   * (`records/CspJudge.ts`): `unsafe` when injected script or plugin content can run, `weak`,
   * `good`, `ineffective` (no directive), `absent` when nothing is enforced (Report-Only included).
   */
  rating: Schema.Literal("good", "weak", "unsafe", "ineffective", "absent"),
  /** Why the rating is not `good`, one sentence each. */
  ratingIssues: Strings,
  /** Directives of the meta policy that browsers ignore there (frame-ancestors, report-uri, sandbox). */
  metaIgnored: Strings,
  /** Plain sentences: what is enforced, what is only reported, what a meta policy cannot do. */
  notes: Strings
})
export type PageCsp = typeof PageCsp.Type

/** What a page was delivered with: its two headers and its meta elements' `content`. */
export interface PageDelivery {
  readonly header: string | null
  readonly reportOnlyHeader: string | null
  readonly meta: ReadonlyArray<string>
  /** Only part of the page was read, so a meta element further down would have been missed. */
  readonly bodyTruncated?: boolean
}

/** HTML §4.2.5.3: the directives a meta-delivered policy loses. */
export const META_IGNORED = ["frame-ancestors", "report-uri", "sandbox"] as const

/** `<meta http-equiv="Content-Security-Policy" content=...>` (attribute names lower-cased). */
export const isMetaCsp = (attribs: Readonly<Record<string, string>>): boolean =>
  (attribs["http-equiv"] ?? "").trim().toLowerCase() === "content-security-policy" &&
  (attribs["content"] ?? "").trim() !== ""

const nonEmpty = (value: string | null): string | null =>
  value !== null && value.trim() !== "" ? value : null

/** Pure and total: the one reading both endpoints report. */
export const readPageCsp = (page: PageDelivery | undefined): PageCsp => {
  const header = nonEmpty(page?.header ?? null)
  const reportOnly = nonEmpty(page?.reportOnlyHeader ?? null)
  const metas = (page?.meta ?? []).filter((m) => m.trim() !== "")
  const meta = metas.length > 0 ? metas.join(", ") : null
  const enforced = [header, meta].filter((p): p is string => p !== null)
  const [source, policy]: [CspSource, string | null] =
    header !== null
      ? ["header", header]
      : meta !== null
        ? ["meta", meta]
        : reportOnly !== null
          ? ["report-only-header", reportOnly]
          : ["none", null]
  const metaIgnored =
    meta === null
      ? []
      : META_IGNORED.filter((name) => parsePolicies(meta).some((p) => p.some((d) => d.name === name)))

  const notes: Array<string> = []
  if (header !== null && meta !== null)
    notes.push(
      "Both the Content-Security-Policy header and a <meta http-equiv> element deliver a policy; browsers enforce each, so a load must pass both."
    )
  else if (header !== null) notes.push("Enforced from the Content-Security-Policy header.")
  if (meta !== null)
    notes.push(
      `${header === null ? 'Enforced from a <meta http-equiv="Content-Security-Policy"> element in the page, not a header' : "The meta element's policy"}: it covers only what the page loads after the element, and browsers ignore frame-ancestors, report-uri and sandbox in it and accept no Report-Only policy from a meta element (CSP3 §3.3). Send the policy as a header for those.`
    )
  if (metaIgnored.length > 0)
    notes.push(
      `The meta policy's ${metaIgnored.join(", ")} ${metaIgnored.length > 1 ? "are" : "is"} ignored.`
    )
  if (reportOnly !== null)
    notes.push(
      enforced.length === 0
        ? "Only Content-Security-Policy-Report-Only is sent: browsers report violations and block nothing. No policy is enforced."
        : "The Content-Security-Policy-Report-Only policy is reported only: its violations are sent to its reporting endpoint, nothing is blocked by it."
    )
  if (source === "none")
    notes.push(
      page?.bodyTruncated === true
        ? "No Content-Security-Policy header, Report-Only header, or meta element in the part of the page read."
        : "No Content-Security-Policy header, Report-Only header, or meta element: no policy."
    )
  const enforcedPolicy = enforced.length > 0 ? enforced.join(", ") : null
  const { rating, issues } =
    enforcedPolicy === null
      ? { rating: "absent" as const, issues: ["no policy is enforced"] }
      : rateCsp(enforcedPolicy)
  return {
    source,
    policy,
    reportOnlyPolicy: reportOnly,
    enforcedPolicy,
    rating,
    ratingIssues: [...issues],
    headerPolicy: header,
    metaPolicy: meta,
    metaIgnored,
    notes
  }
}
