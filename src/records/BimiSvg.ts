/**
 * SVG Tiny Portable/Secure checks for BIMI logos (draft-svg-tiny-ps-abrotman; BIMI draft
 * "Indicator Format"): the profile attributes, a title, and nothing active or external.
 * Parsed with htmlparser2 in XML mode. Pure and total: the bytes in, a list of findings out.
 */
import { Schema } from "effect"
import { Parser } from "htmlparser2"
import { Strings } from "./Schemas.ts"

export const BIMI_MAX_LOGO_BYTES = 32 * 1024

const Nullable = Schema.NullOr

export const SvgCheck = Schema.Struct({
  isSvg: Schema.Boolean,
  baseProfile: Nullable(Schema.String),
  version: Nullable(Schema.String),
  title: Nullable(Schema.String),
  hasDescription: Schema.Boolean,
  viewBox: Nullable(Schema.String),
  square: Nullable(Schema.Boolean),
  scripts: Schema.Int,
  animations: Schema.Int,
  externalReferences: Strings,
  forbiddenElements: Strings,
  eventAttributes: Strings,
  tinyPs: Schema.Boolean,
  errors: Strings,
  warnings: Strings
})
export type SvgCheck = typeof SvgCheck.Type

const ANIMATION = new Set(["animate", "animatecolor", "animatemotion", "animatetransform", "set", "discard"])
/** Elements SVG Tiny PS leaves out: interactive, multimedia, foreign content and raster images. */
const FORBIDDEN = new Set([
  "a",
  "foreignobject",
  "image",
  "audio",
  "video",
  "animation",
  "iframe",
  "embed",
  "object",
  "handler",
  "listener",
  "prefetch",
  "switch",
  "textarea",
  "tbreak"
])

const isLocalRef = (v: string) => v.trim().startsWith("#") || v.trim() === ""
/** url(...) values in styles and presentation attributes that leave the document. */
const externalUrls = (text: string): Array<string> =>
  [...text.matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/gi)].map((m) => m[1]!).filter((u) => !isLocalRef(u))

/** Checks an SVG document against the SVG Tiny PS profile. Never throws. */
export const checkSvgTinyPs = (bytes: Uint8Array): SvgCheck => {
  const errors: Array<string> = []
  const warnings: Array<string> = []
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes)
  if (bytes.length > BIMI_MAX_LOGO_BYTES)
    errors.push(`the logo is ${bytes.length} bytes; BIMI allows at most ${BIMI_MAX_LOGO_BYTES} (32 KB)`)
  if (bytes[0] === 0x1f && bytes[1] === 0x8b)
    errors.push("the logo is gzip-compressed (SVGZ); BIMI wants plain SVG")

  let root: { name: string; attribs: Record<string, string> } | null = null
  let title: string | null = null
  let inTitle = false
  let titleDepthOk = false
  let hasDescription = false
  let scripts = 0
  let animations = 0
  let inStyle = false
  const externalReferences: Array<string> = []
  const forbiddenElements = new Set<string>()
  const eventAttributes = new Set<string>()
  const stack: Array<string> = []
  let malformed = false

  const parser = new Parser(
    {
      onprocessinginstruction(name) {
        if (name.toLowerCase() === "!doctype" && /<!ENTITY/i.test(text))
          errors.push("the document declares entities in a DOCTYPE (not allowed: can hide external content)")
      },
      onopentag(rawName, attribs) {
        const name = rawName.toLowerCase().replace(/^svg:/, "")
        if (root === null) root = { name, attribs }
        if (name === "title" && stack.length === 1) {
          inTitle = true
          titleDepthOk = true
          title = title ?? ""
        }
        if (name === "desc" && stack.length === 1) hasDescription = true
        if (name === "script") scripts++
        if (ANIMATION.has(name)) animations++
        if (FORBIDDEN.has(name)) forbiddenElements.add(name)
        if (name === "style") inStyle = true
        for (const [attr, value] of Object.entries(attribs)) {
          const a = attr.toLowerCase()
          if (a.startsWith("on")) eventAttributes.add(a)
          if ((a === "href" || a === "xlink:href" || a === "src") && !isLocalRef(value))
            externalReferences.push(value)
          else if (a === "style" || /^(fill|stroke|filter|clip-path|mask)$/.test(a))
            externalReferences.push(...externalUrls(value))
        }
        stack.push(name)
      },
      ontext(data) {
        if (inTitle) title = (title ?? "") + data
        if (inStyle) {
          externalReferences.push(...externalUrls(data))
          for (const m of data.matchAll(/@import\s+(?:url\()?\s*['"]?([^'");\s]+)/gi))
            externalReferences.push(m[1]!)
        }
      },
      onclosetag(rawName) {
        const name = rawName.toLowerCase().replace(/^svg:/, "")
        if (stack[stack.length - 1] !== name) malformed = true
        else stack.pop()
        if (name === "title") inTitle = false
        if (name === "style") inStyle = false
      }
    },
    { xmlMode: true, recognizeSelfClosing: true }
  )
  try {
    parser.write(text)
    parser.end()
  } catch (e) {
    errors.push(`the SVG could not be parsed (${e instanceof Error ? e.message : String(e)})`)
  }
  if (stack.length > 0) malformed = true

  const r = root as { name: string; attribs: Record<string, string> } | null
  const isSvg = r !== null && r.name === "svg"
  const attr = (name: string) =>
    r === null
      ? null
      : (Object.entries(r.attribs).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1] ?? null)
  const baseProfile = attr("baseProfile")
  const version = attr("version")
  const viewBox = attr("viewBox")
  let square: boolean | null = null
  if (viewBox !== null) {
    const n = viewBox
      .trim()
      .split(/[\s,]+/)
      .map(Number)
    if (n.length === 4 && n.every(Number.isFinite)) square = Math.abs(n[2]! - n[3]!) < 1e-9
  }
  const t = (title as string | null)?.trim() ?? null

  if (!isSvg) errors.push("the document is not an SVG (root element is not <svg>)")
  else {
    if (attr("xmlns") !== "http://www.w3.org/2000/svg")
      warnings.push('the root <svg> lacks xmlns="http://www.w3.org/2000/svg"')
    if (baseProfile !== "tiny-ps")
      errors.push(
        `baseProfile must be "tiny-ps", found ${baseProfile === null ? "none" : `"${baseProfile}"`}`
      )
    if (version !== "1.2")
      errors.push(`version must be "1.2", found ${version === null ? "none" : `"${version}"`}`)
    if (attr("x") !== null || attr("y") !== null)
      errors.push("the root <svg> must not carry x or y attributes")
    if (!titleDepthOk || t === null || t === "") errors.push("a non-empty <title> child of <svg> is required")
    if (square === false)
      warnings.push(`viewBox ${viewBox} is not square; BIMI logos should have a 1:1 aspect ratio`)
    if (viewBox === null) warnings.push("no viewBox: the logo may not scale as mail clients expect")
  }
  if (malformed) warnings.push("the SVG is not well-formed XML (unbalanced tags)")
  if (scripts > 0) errors.push(`${scripts} <script> element(s): scripts are not allowed`)
  if (animations > 0) errors.push(`${animations} animation element(s): animation is not allowed`)
  if (eventAttributes.size > 0)
    errors.push(`event handler attributes (${[...eventAttributes].join(", ")}) are not allowed`)
  if (forbiddenElements.size > 0)
    errors.push(`elements outside SVG Tiny PS: ${[...forbiddenElements].map((e) => `<${e}>`).join(", ")}`)
  if (externalReferences.length > 0)
    errors.push(
      `external references are not allowed: ${[...new Set(externalReferences)].slice(0, 5).join(", ")}`
    )

  return {
    isSvg,
    baseProfile,
    version,
    title: t,
    hasDescription,
    viewBox,
    square,
    scripts,
    animations,
    externalReferences: [...new Set(externalReferences)],
    forbiddenElements: [...forbiddenElements],
    eventAttributes: [...eventAttributes],
    tinyPs: errors.length === 0,
    errors,
    warnings
  }
}
