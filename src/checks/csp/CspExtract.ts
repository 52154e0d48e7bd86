/**
 * What one HTML page loads, as CSP sees it: resources per fetch directive, inline scripts and
 * styles, event-handler attributes, same-origin links to crawl, and meta-tag policies.
 * Pure (htmlparser2, a forgiving tokenizer), total on any input.
 */
import { createHash } from "node:crypto"
import { Parser } from "htmlparser2"
import { REFERRER_TOKENS } from "../../records/SecurityHeaders.ts"
import { isMetaCsp } from "./PagePolicy.ts"

export type FetchDirective =
  | "script-src"
  | "style-src"
  | "img-src"
  | "font-src"
  | "frame-src"
  | "media-src"
  | "connect-src"
  | "object-src"
  | "manifest-src"
  | "form-action"

export interface Resource {
  readonly directive: FetchDirective
  /** Absolute URL (http, https, ws, wss, data:, blob:). */
  readonly url: string
}

export interface PageExtract {
  readonly links: ReadonlyArray<string>
  readonly resources: ReadonlyArray<Resource>
  /** Contents of inline <script> elements that execute (not JSON, not templates). */
  readonly inlineScripts: ReadonlyArray<string>
  /** Contents of <style> elements. */
  readonly inlineStyles: ReadonlyArray<string>
  /** Values of on* attributes. */
  readonly eventHandlers: ReadonlyArray<string>
  /** Values of style="" attributes. */
  readonly styleAttributes: ReadonlyArray<string>
  readonly javascriptUrls: number
  readonly metaCsp: ReadonlyArray<string>
  readonly baseHref: string | null
}

/** A response to read as HTML: an HTML or XHTML content type, or none. */
export const isHtml = (contentType: string | undefined): boolean =>
  contentType === undefined || /text\/html|application\/xhtml\+xml/i.test(contentType)

/** The CSP hash-source digest: base64 of SHA-256 over the UTF-8 text (CSP3 §8.3). */
export const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("base64")

const SCRIPT_TYPES = new Set([
  "",
  "module",
  "text/javascript",
  "application/javascript",
  "text/ecmascript",
  "application/ecmascript",
  "text/jscript",
  "text/livescript",
  "application/x-javascript"
])
const FONT_EXT = /\.(woff2?|ttf|otf|eot)(\?|#|$)/i
const PRELOAD_AS: Readonly<Record<string, FetchDirective>> = {
  script: "script-src",
  style: "style-src",
  font: "font-src",
  image: "img-src",
  fetch: "connect-src",
  audio: "media-src",
  video: "media-src",
  track: "media-src"
}
const SKIP_LINK =
  /\.(pdf|zip|gz|tgz|rar|7z|exe|dmg|iso|jpe?g|png|gif|webp|avif|svg|ico|mp[34]|webm|ogg|wav|css|js|json|xml|txt|woff2?|ttf)$/i

/** url(...) and @import targets of a stylesheet: fonts go to font-src, the rest to img-src. */
export const cssResources = (css: string, base: URL): Array<Resource> => {
  const out: Array<Resource> = []
  for (const m of css.matchAll(/@import\s+(?:url\(\s*)?["']?([^"')\s;]+)["']?/gi)) {
    const u = resolve(m[1]!, base)
    if (u) out.push({ directive: "style-src", url: u })
  }
  for (const m of css.matchAll(/url\(\s*(["']?)([^"')]+)\1\s*\)/gi)) {
    const raw = m[2]!.trim()
    if (raw.startsWith("#")) continue
    const u = resolve(raw, base)
    if (u && !out.some((r) => r.url === u && r.directive === "style-src"))
      out.push({ directive: FONT_EXT.test(raw) ? "font-src" : "img-src", url: u })
  }
  return out
}

const resolve = (raw: string, base: URL): string | undefined => {
  const t = raw.trim()
  if (t === "" || /^(javascript|mailto|tel|about|sms):/i.test(t)) return undefined
  if (/^data:/i.test(t)) return "data:"
  if (/^blob:/i.test(t)) return "blob:"
  try {
    const u = new URL(t, base)
    if (!["http:", "https:", "ws:", "wss:"].includes(u.protocol)) return undefined
    u.hash = ""
    return u.href
  } catch {
    return undefined
  }
}

/** Visible connect targets in inline code: fetch("..."), XHR open, WebSocket, EventSource. */
const scriptConnects = (code: string, base: URL): Array<Resource> => {
  const out: Array<Resource> = []
  const patterns = [
    /fetch\(\s*["'`]([^"'`]+)["'`]/g,
    /new\s+(?:WebSocket|EventSource)\(\s*["'`]([^"'`]+)["'`]/g,
    /\.open\(\s*["'`][A-Za-z]+["'`]\s*,\s*["'`]([^"'`]+)["'`]/g,
    /sendBeacon\(\s*["'`]([^"'`]+)["'`]/g
  ]
  for (const p of patterns)
    for (const m of code.matchAll(p)) {
      const u = resolve(m[1]!, base)
      if (u) out.push({ directive: "connect-src", url: u })
    }
  return out
}

export const extract = (html: string, pageUrl: string): PageExtract => {
  const page = new URL(pageUrl)
  let base = page
  let baseHref: string | null = null
  const links: Array<string> = []
  const resources: Array<Resource> = []
  const inlineScripts: Array<string> = []
  const inlineStyles: Array<string> = []
  const eventHandlers: Array<string> = []
  const styleAttributes: Array<string> = []
  const metaCsp: Array<string> = []
  let javascriptUrls = 0
  let inBody = false
  let capture: { kind: "script" | "style"; text: string } | null = null
  const mediaStack: Array<string> = []

  const add = (directive: FetchDirective, raw: string | undefined) => {
    if (raw === undefined) return
    const u = resolve(raw, base)
    if (u) resources.push({ directive, url: u })
  }
  const srcset = (directive: FetchDirective, raw: string | undefined) => {
    if (raw === undefined) return
    for (const candidate of raw.split(",")) add(directive, candidate.trim().split(/\s+/)[0])
  }

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        for (const [attr, value] of Object.entries(attribs)) {
          if (/^on[a-z]+$/.test(attr) && value.trim() !== "") eventHandlers.push(value)
          if (attr === "style" && value.trim() !== "") {
            styleAttributes.push(value)
            resources.push(...cssResources(value, base))
          }
          if ((attr === "href" || attr === "src" || attr === "action") && /^\s*javascript:/i.test(value))
            javascriptUrls++
        }
        const rel = (attribs["rel"] ?? "").toLowerCase().split(/\s+/)
        switch (name) {
          case "base":
            if (attribs["href"] !== undefined && baseHref === null) {
              try {
                base = new URL(attribs["href"], page)
                baseHref = base.href
              } catch {
                // an invalid base is ignored, as browsers do
              }
            }
            break
          case "a":
          case "area": {
            const u = attribs["href"] !== undefined ? resolve(attribs["href"], base) : undefined
            if (u) links.push(u)
            break
          }
          case "script": {
            const type = (attribs["type"] ?? "").trim().toLowerCase()
            if (!SCRIPT_TYPES.has(type)) break
            if (attribs["src"] !== undefined) add("script-src", attribs["src"])
            else capture = { kind: "script", text: "" }
            break
          }
          case "style":
            capture = { kind: "style", text: "" }
            break
          case "link":
            if (attribs["href"] === undefined) break
            if (rel.includes("stylesheet")) add("style-src", attribs["href"])
            else if (rel.includes("icon") || rel.includes("apple-touch-icon")) add("img-src", attribs["href"])
            else if (rel.includes("manifest")) add("manifest-src", attribs["href"])
            else if (rel.includes("modulepreload")) add("script-src", attribs["href"])
            else if (rel.includes("preload") || rel.includes("prefetch")) {
              const d = PRELOAD_AS[(attribs["as"] ?? "").toLowerCase()]
              if (d) add(d, attribs["href"])
            }
            break
          case "img":
            add("img-src", attribs["src"])
            srcset("img-src", attribs["srcset"])
            break
          case "input":
            if ((attribs["type"] ?? "").toLowerCase() === "image") add("img-src", attribs["src"])
            break
          case "picture":
          case "video":
          case "audio":
            mediaStack.push(name)
            if (name !== "picture") {
              add("media-src", attribs["src"])
              add("img-src", attribs["poster"])
            }
            break
          case "source": {
            const inMedia = mediaStack[mediaStack.length - 1]
            if (inMedia === "picture") srcset("img-src", attribs["srcset"])
            else add("media-src", attribs["src"])
            break
          }
          case "track":
            add("media-src", attribs["src"])
            break
          case "iframe":
          case "frame":
            add("frame-src", attribs["src"])
            break
          case "object":
            add("object-src", attribs["data"])
            break
          case "embed":
            add("object-src", attribs["src"])
            break
          case "form":
            add("form-action", attribs["action"] ?? page.href)
            break
          case "body":
            inBody = true
            break
          case "meta":
            // HTML §4.2.5.3: a policy meta element counts only as a child of <head>.
            if (!inBody && isMetaCsp(attribs)) metaCsp.push(attribs["content"]!)
            break
        }
      },
      ontext(text) {
        if (capture) capture.text += text
      },
      onclosetag(name) {
        if ((name === "script" || name === "style") && capture && capture.kind === name) {
          if (name === "script") {
            if (capture.text.trim() !== "") {
              inlineScripts.push(capture.text)
              resources.push(...scriptConnects(capture.text, base))
            }
          } else {
            inlineStyles.push(capture.text)
            resources.push(...cssResources(capture.text, base))
          }
          capture = null
        }
        if (name === "picture" || name === "video" || name === "audio") mediaStack.pop()
      }
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }
  )
  parser.write(html)
  parser.end()
  return {
    links: links.filter((l) => /^https?:/.test(l) && !SKIP_LINK.test(new URL(l).pathname)),
    resources,
    inlineScripts,
    inlineStyles,
    eventHandlers,
    styleAttributes,
    javascriptUrls,
    metaCsp,
    baseHref
  }
}

/**
 * Only the policies of `<meta http-equiv="Content-Security-Policy">` elements in the head (HTML
 * §4.2.5.3): what the security-headers analysis reads from the home page.
 */
export const metaPolicies = (html: string): Array<string> => {
  const found: Array<string> = []
  let inBody = false
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === "body") inBody = true
        else if (name === "meta" && !inBody && isMetaCsp(attribs)) found.push(attribs["content"]!)
      }
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }
  )
  parser.write(html)
  parser.end()
  return found
}

/**
 * The policy of the page's `<meta name="referrer">` elements as browsers apply it (HTML "Standard
 * metadata names": referrer): each element, in document order, sets the document's referrer
 * policy when its content is a policy token, the legacy `never`, `default`, `always` and
 * `origin-when-crossorigin` mapped to their modern names; so the last valid one wins, and it
 * overrides the Referrer-Policy header. null when the page sets none.
 */
export const metaReferrer = (html: string): string | null => {
  let policy: string | null = null
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name !== "meta" || (attribs["name"] ?? "").trim().toLowerCase() !== "referrer") return
        const token = referrerToken((attribs["content"] ?? "").trim().toLowerCase())
        if (token !== null) policy = token
      }
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }
  )
  parser.write(html)
  parser.end()
  return policy
}

const LEGACY_REFERRER: Readonly<Record<string, string>> = {
  never: "no-referrer",
  default: "strict-origin-when-cross-origin",
  always: "unsafe-url",
  "origin-when-crossorigin": "origin-when-cross-origin"
}

/** A meta element's content as a referrer policy token (W3C Referrer Policy §3), or null. */
const referrerToken = (content: string): string | null => {
  const token = LEGACY_REFERRER[content] ?? content
  return REFERRER_TOKENS.has(token) ? token : null
}

/** A `<script>` element as Subresource Integrity reads it: its src, integrity and crossorigin. */
export interface ScriptElement {
  /** The src attribute as written (null for an inline script). */
  readonly src: string | null
  readonly integrity: string | null
  readonly crossorigin: string | null
}

/** Every `<script>` element of the page, in document order (W3C Subresource Integrity §3.8). */
export const scriptElements = (html: string): Array<ScriptElement> => {
  const found: Array<ScriptElement> = []
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name !== "script") return
        const src = attribs["src"]?.trim()
        found.push({
          src: src ? src : null,
          integrity: attribs["integrity"]?.trim() || null,
          crossorigin: attribs["crossorigin"] ?? null
        })
      }
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }
  )
  parser.write(html)
  parser.end()
  return found
}
