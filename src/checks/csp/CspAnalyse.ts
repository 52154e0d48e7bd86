/**
 * The pure half of the CSP scan: the current policy, its findings (Google's csp_evaluator plus
 * the missing-directive rules), the inventory of origins the site really uses, and a synthesised
 * starter policy that allows exactly that, proven with the policy's own matching rules.
 */
import { Severity as EvalSeverity, Type as EvalType } from "csp_evaluator/dist/finding.js"
import { CspEvaluator, DEFAULT_CHECKS, STRICTCSP_CHECKS } from "csp_evaluator/dist/evaluator.js"
import { CspParser } from "csp_evaluator/dist/parser.js"
import { Version as CspVersion } from "csp_evaluator/dist/csp.js"
import { Schema } from "effect"
import { Strings } from "../../records/Schemas.ts"
import { type FetchDirective, type PageExtract, sha256 } from "./CspExtract.ts"
import { PageCsp, readPageCsp } from "./PagePolicy.ts"
import {
  allowsEventHandler,
  allowsInline,
  allowsUrl,
  directive,
  effectiveDirective,
  parsePolicy
} from "../../records/CspPolicy.ts"

export interface CrawledPage {
  readonly url: string
  readonly status: number
  readonly cspHeader: string | null
  readonly cspReportOnlyHeader: string | null
  readonly extract: PageExtract
}

/** The CSP scan's `currentCsp` is the one reading of a page's policy (PagePolicy.ts). */
export { CspSource } from "./PagePolicy.ts"
export const CurrentCsp = PageCsp
export type CurrentCsp = PageCsp

export const Finding = Schema.Struct({
  id: Schema.String,
  severity: Schema.Literal("high", "medium", "low", "info"),
  title: Schema.String,
  description: Schema.String,
  directive: Schema.String
})
export type Finding = typeof Finding.Type

/** The origins the crawl saw loaded per fetch directive (a `FetchDirective`, served as a string). */
export const InventoryEntry = Schema.Struct({ directive: Schema.String, origins: Strings })
export type InventoryEntry = typeof InventoryEntry.Type

export const Synthesis = Schema.Struct({
  policyString: Schema.String,
  reportOnlyString: Schema.String,
  notes: Strings
})
export type Synthesis = typeof Synthesis.Type

/** The CSP an origin serves: the start page's, read as the security-headers analysis reads it. */
export const currentCsp = (page: CrawledPage | undefined): CurrentCsp =>
  readPageCsp(
    page && {
      header: page.cspHeader,
      reportOnlyHeader: page.cspReportOnlyHeader,
      meta: page.extract.metaCsp
    }
  )

const SEVERITY: Readonly<Record<number, Finding["severity"]>> = {
  [EvalSeverity.HIGH]: "high",
  [EvalSeverity.SYNTAX]: "medium",
  [EvalSeverity.MEDIUM]: "medium",
  [EvalSeverity.HIGH_MAYBE]: "medium",
  [EvalSeverity.STRICT_CSP]: "low",
  [EvalSeverity.MEDIUM_MAYBE]: "low",
  [EvalSeverity.INFO]: "info",
  [EvalSeverity.NONE]: "info"
}

const TITLES: Readonly<Record<string, string>> = {
  "script-unsafe-inline": "Inline scripts allowed ('unsafe-inline')",
  "script-unsafe-eval": "eval() allowed ('unsafe-eval')",
  "plain-wildcard": "Wildcard source",
  "plain-url-schemes": "Whole URL scheme allowed",
  "script-allowlist-bypass": "Allow-listed host can bypass the policy",
  "object-allowlist-bypass": "Allow-listed host can serve plugins",
  "style-unsafe-inline": "Inline styles allowed ('unsafe-inline')",
  "missing-object-src": "object-src is missing",
  "missing-base-uri": "base-uri is missing",
  "missing-frame-ancestors": "frame-ancestors is missing",
  "src-http": "Sources over plain HTTP",
  "ip-source": "IP address as source",
  "deprecated-directive": "Deprecated directive",
  "unknown-directive": "Unknown directive",
  "invalid-keyword": "Invalid keyword",
  "missing-semicolon": "Missing semicolon",
  "reporting-destination-missing": "No reporting destination",
  "no-csp": "No Content-Security-Policy",
  "report-only": "Policy is Report-Only",
  "meta-policy": "Policy delivered by a meta tag"
}

const slug = (name: string) => name.toLowerCase().replace(/_/g, "-")
const title = (id: string) => TITLES[id] ?? id.replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase())

/** Google csp_evaluator over each comma-separated policy, mapped to our finding shape. */
const evaluatorFindings = (policy: string, strict: boolean): Array<Finding> => {
  const out: Array<Finding> = []
  for (const part of policy.split(",")) {
    if (part.trim() === "") continue
    let findings
    try {
      const parsed = new CspParser(part).csp
      // The security checks read the effective policy as a CSP Level 3 browser does (a nonce or
      // hash makes 'unsafe-inline' ignored, 'strict-dynamic' host and scheme sources); only the
      // strict-CSP checks, which are about the fallbacks older browsers use, read it as written.
      findings = new CspEvaluator(parsed, CspVersion.CSP3).evaluate(
        strict ? STRICTCSP_CHECKS : [],
        DEFAULT_CHECKS
      )
    } catch {
      continue
    }
    for (const f of findings) {
      const typeName = EvalType[f.type] ?? `type-${f.type}`
      const id = f.type === EvalType.MISSING_DIRECTIVES ? `missing-${f.directive}` : slug(typeName)
      out.push({
        id,
        severity: SEVERITY[f.severity] ?? "info",
        title: title(id),
        description: f.value ? `${f.description} (${f.value})` : f.description,
        directive: f.directive
      })
    }
  }
  return out
}

/** Findings for the current policy: evaluator results plus object-src, base-uri, frame-ancestors. */
export const findings = (csp: Pick<CurrentCsp, "source" | "policy">, strict: boolean): Array<Finding> => {
  if (csp.policy === null)
    return [
      {
        id: "no-csp",
        severity: "high",
        title: title("no-csp"),
        description:
          "No Content-Security-Policy header or meta tag: injected scripts run with the page's full privileges.",
        directive: "content-security-policy"
      }
    ]
  // The evaluator can report one problem from two checks: keep one per id and directive.
  const out = evaluatorFindings(csp.policy, strict).filter(
    (f, i, all) => all.findIndex((g) => g.id === f.id && g.directive === f.directive) === i
  )
  const policy = parsePolicy(csp.policy.split(",")[0] ?? "")
  const has = (id: string) => out.some((f) => f.id === id)
  // object-src falls back to default-src (CSP3 §6.8.3): only a policy with neither leaves plugins open.
  if (!effectiveDirective(policy, "object-src") && !has("missing-object-src"))
    out.push({
      id: "missing-object-src",
      severity: "high",
      title: title("missing-object-src"),
      description:
        "Without object-src (or default-src), plugin content (<object>, <embed>) can execute script. Set object-src 'none'.",
      directive: "object-src"
    })
  if (!directive(policy, "base-uri") && !has("missing-base-uri"))
    out.push({
      id: "missing-base-uri",
      severity: "medium",
      title: title("missing-base-uri"),
      description:
        "Without base-uri, an injected <base> tag can redirect every relative script URL. Set base-uri 'none' or 'self'.",
      directive: "base-uri"
    })
  if (!directive(policy, "frame-ancestors"))
    out.push({
      id: "missing-frame-ancestors",
      severity: "medium",
      title: title("missing-frame-ancestors"),
      description:
        csp.source === "meta"
          ? "frame-ancestors cannot be set in a meta tag (CSP3 §3.3): send it in a header to prevent clickjacking."
          : "Without frame-ancestors, other sites can frame the page (clickjacking). Set frame-ancestors 'none' or 'self'.",
      directive: "frame-ancestors"
    })
  if (csp.source === "report-only-header")
    out.push({
      id: "report-only",
      severity: "medium",
      title: title("report-only"),
      description:
        "The policy is only Content-Security-Policy-Report-Only: violations are reported, nothing is blocked.",
      directive: "content-security-policy-report-only"
    })
  if (csp.source === "meta")
    out.push({
      id: "meta-policy",
      severity: "info",
      title: title("meta-policy"),
      description:
        "A meta-tag policy applies only after it is parsed and ignores frame-ancestors, report-uri and sandbox (CSP3 §3.3). Prefer a header.",
      directive: "meta"
    })
  return out
}

const DIRECTIVE_ORDER: ReadonlyArray<FetchDirective> = [
  "script-src",
  "style-src",
  "img-src",
  "font-src",
  "connect-src",
  "media-src",
  "frame-src",
  "object-src",
  "manifest-src",
  "form-action"
]

/** `self`, a scheme source (`data:`), or the URL's origin. */
export const sourceOf = (url: string, origin: string): string => {
  if (url === "data:" || url === "blob:") return url
  const u = new URL(url)
  return u.origin === origin ? "self" : u.origin
}

export const inventory = (
  pages: ReadonlyArray<CrawledPage>,
  origin: string
): Array<InventoryEntry & { readonly directive: FetchDirective }> => {
  const by = new Map<FetchDirective, Set<string>>()
  for (const page of pages)
    for (const r of page.extract.resources) {
      const set = by.get(r.directive) ?? new Set<string>()
      set.add(sourceOf(r.url, origin))
      by.set(r.directive, set)
    }
  return DIRECTIVE_ORDER.filter((d) => by.has(d)).map((d) => {
    const set = by.get(d)!
    return {
      directive: d,
      origins: [...set].sort((a, b) => (a === "self" ? -1 : b === "self" ? 1 : a.localeCompare(b)))
    }
  })
}

export interface InlineCounts {
  readonly inlineScripts: number
  readonly inlineStyles: number
  readonly eventHandlerAttrs: number
  readonly styleAttrs: number
  readonly javascriptUrls: number
}

const unique = <A>(items: Iterable<A>) => [...new Set(items)]

/** Distinct inline blocks across the crawl (the same snippet on every page counts once). */
export const inlineCounts = (pages: ReadonlyArray<CrawledPage>): InlineCounts => ({
  inlineScripts: unique(pages.flatMap((p) => p.extract.inlineScripts)).length,
  inlineStyles: unique(pages.flatMap((p) => p.extract.inlineStyles)).length,
  eventHandlerAttrs: unique(pages.flatMap((p) => p.extract.eventHandlers)).length,
  styleAttrs: unique(pages.flatMap((p) => p.extract.styleAttributes)).length,
  javascriptUrls: pages.reduce((n, p) => n + p.extract.javascriptUrls, 0)
})

const MANY_HASHES = 30

/**
 * A starter policy that allows what the crawl saw: origins from the inventory, sha256 hashes of
 * inline scripts and styles instead of 'unsafe-inline' ('unsafe-hashes' for attributes, CSP3
 * §6.7.3.3), and strict object-src / base-uri / frame-ancestors.
 */
export const synthesise = (pages: ReadonlyArray<CrawledPage>, origin: string): Synthesis => {
  const inv = new Map(inventory(pages, origin).map((e) => [e.directive, e.origins]))
  const notes: Array<string> = []
  const src = (d: FetchDirective) => (inv.get(d) ?? []).filter((o) => o !== "self")
  const hashes = (texts: ReadonlyArray<string>) => unique(texts).map((t) => `'sha256-${sha256(t)}'`)
  const scriptHashes = hashes(pages.flatMap((p) => p.extract.inlineScripts))
  const handlerHashes = hashes(pages.flatMap((p) => p.extract.eventHandlers))
  const styleHashes = hashes(pages.flatMap((p) => p.extract.inlineStyles))
  const styleAttrHashes = hashes(pages.flatMap((p) => p.extract.styleAttributes))
  const directives: Array<[string, Array<string>]> = [["default-src", ["'self'"]]]
  const script = ["'self'", ...src("script-src"), ...scriptHashes]
  if (handlerHashes.length > 0) script.push("'unsafe-hashes'", ...handlerHashes)
  directives.push(["script-src", unique(script)])
  const style = ["'self'", ...src("style-src"), ...styleHashes]
  if (styleAttrHashes.length > 0) style.push("'unsafe-hashes'", ...styleAttrHashes)
  directives.push(["style-src", unique(style)])
  for (const d of ["img-src", "font-src", "connect-src", "media-src", "frame-src", "manifest-src"] as const)
    if (src(d).length > 0) directives.push([d, ["'self'", ...src(d)]])
  const objects = src("object-src")
  directives.push(["object-src", objects.length > 0 ? ["'self'", ...objects] : ["'none'"]])
  if (objects.length > 0 || inv.get("object-src")?.includes("self"))
    notes.push(
      "The site embeds plugin content (<object>/<embed>); object-src 'none' would block it. Consider removing it."
    )
  const usesBase = pages.some((p) => p.extract.baseHref !== null)
  directives.push(["base-uri", [usesBase ? "'self'" : "'none'"]])
  const selfFramed = inv.get("frame-src")?.includes("self") ?? false
  directives.push(["frame-ancestors", [selfFramed ? "'self'" : "'none'"]])
  directives.push(["form-action", unique(["'self'", ...src("form-action")])])
  const policyString = directives.map(([n, v]) => `${n} ${v.join(" ")}`).join("; ")

  if (handlerHashes.length > 0)
    notes.push(
      `${handlerHashes.length} inline event handler(s) are allowed by hash with 'unsafe-hashes'; move them to addEventListener in a script file and drop 'unsafe-hashes'.`
    )
  if (styleAttrHashes.length > 0)
    notes.push(`${styleAttrHashes.length} style attribute value(s) are allowed by hash with 'unsafe-hashes'.`)
  if (scriptHashes.length + styleHashes.length > MANY_HASHES)
    notes.push(
      "Many inline blocks: move them into files, or use per-response nonces, to keep the policy short."
    )
  if (scriptHashes.length > 0 || styleHashes.length > 0)
    notes.push(
      "Hashes cover the inline code exactly as seen; any change to an inline block needs a new hash."
    )
  if (pages.some((p) => p.extract.javascriptUrls > 0))
    notes.push("javascript: URLs were found; no hash can allow them. Replace them with event listeners.")
  if (src("script-src").includes("data:"))
    notes.push("Scripts from data: URLs are allowed because the site uses them; this weakens the policy.")
  notes.push(
    "Connections made by scripts at run time (fetch, XHR, WebSocket) are only partly visible to a crawler: test in Report-Only mode first."
  )
  notes.push(
    "Deploy reportOnlyString as Content-Security-Policy-Report-Only with a report-to endpoint, watch the reports, then switch to policyString as Content-Security-Policy."
  )
  return { policyString, reportOnlyString: policyString, notes }
}

export interface Violation {
  readonly page: string
  readonly directive: string
  readonly blocked: string
}

/** Every load and inline block the crawl saw that `policy` would block (CSP3 matching). */
export const violations = (
  policy: string,
  pages: ReadonlyArray<CrawledPage>,
  origin: string
): Array<Violation> => {
  const parsed = parsePolicy(policy)
  const self = new URL(origin)
  const out: Array<Violation> = []
  const kind: Readonly<Record<FetchDirective, string>> = {
    "script-src": "script-src-elem",
    "style-src": "style-src-elem",
    "img-src": "img-src",
    "font-src": "font-src",
    "connect-src": "connect-src",
    "media-src": "media-src",
    "frame-src": "frame-src",
    "object-src": "object-src",
    "manifest-src": "manifest-src",
    "form-action": "form-action"
  }
  for (const page of pages) {
    for (const r of page.extract.resources) {
      const d = effectiveDirective(parsed, kind[r.directive])
      if (!allowsUrl(d, new URL(r.url), self))
        out.push({ page: page.url, directive: r.directive, blocked: r.url })
    }
    const check = (texts: ReadonlyArray<string>, k: string, allow: typeof allowsInline, label: string) => {
      for (const t of texts)
        if (!allow(effectiveDirective(parsed, k), sha256(t)))
          out.push({ page: page.url, directive: k, blocked: `${label} sha256-${sha256(t)}` })
    }
    check(page.extract.inlineScripts, "script-src-elem", allowsInline, "inline script")
    check(page.extract.inlineStyles, "style-src-elem", allowsInline, "inline style")
    check(page.extract.eventHandlers, "script-src-attr", allowsEventHandler, "event handler")
    check(page.extract.styleAttributes, "style-src-attr", allowsEventHandler, "style attribute")
  }
  return out
}
