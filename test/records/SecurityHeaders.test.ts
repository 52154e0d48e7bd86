import { describe, expect, it } from "@effect/vitest"
import { Either, Option } from "effect"
import * as fc from "fast-check"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { generate, type GenerateResult, type Header, Presets } from "../../src/records/SecurityHeaders.ts"
import { renderOutputs } from "../../src/records/SecurityHeadersOutputs.ts"
import { GenerateError } from "../../src/records/GenerateError.ts"

const ok = (r: Either.Either<GenerateResult, GenerateError>): GenerateResult => {
  if (Either.isLeft(r)) throw new Error(r.left.message)
  return r.right
}
const value = (r: GenerateResult, name: string) => r.headers.find((h) => h.name === name)?.value

// --- small parsers for the formats, independent of the renderers -------------------------------

/** Tokenise a config line: bare words and double-quoted strings with \" escapes. */
const tokens = (line: string): Array<string> => {
  const out: Array<string> = []
  const re = /\s*(?:"((?:[^"\\]|\\.)*)"|([^\s"]+))/gy
  let m: RegExpExecArray | null
  while ((m = re.exec(line)) && m[0].trim() !== "")
    out.push(m[1] !== undefined ? m[1].replace(/\\"/g, '"') : m[2]!)
  return out
}
const parseNginx = (text: string): Array<Header> =>
  text
    .split("\n")
    .filter((l) => l.startsWith("add_header"))
    .map((l) => {
      const t = tokens(l.replace(/;$/, ""))
      expect(t[0]).toBe("add_header")
      expect(t[3]).toBe("always")
      return { name: t[1]!, value: t[2]! }
    })
const parseApache = (text: string): Array<Header> => {
  const lines = text.split("\n").map((l) => l.trim())
  expect(lines).toContain("<IfModule mod_headers.c>")
  expect(lines).toContain("</IfModule>")
  return lines
    .filter((l) => l.startsWith("Header "))
    .map((l) => {
      const t = tokens(l)
      expect(t.slice(0, 3)).toEqual(["Header", "always", "set"])
      expect(t).toHaveLength(5)
      return { name: t[3]!, value: t[4]! }
    })
}
const parseCaddy = (text: string): Array<Header> => {
  const lines = text.split("\n").filter((l) => l !== "" && !l.startsWith("#"))
  expect(lines[0]).toBe("header {")
  expect(lines[lines.length - 1]).toBe("}")
  return lines.slice(1, -1).map((l) => {
    const t = tokens(l)
    expect(t).toHaveLength(2)
    return { name: t[0]!, value: t[1]! }
  })
}
const parseCloudflare = (text: string): Array<Header> => {
  const json = JSON.parse(text) as {
    rules: Array<{
      action: string
      action_parameters: { headers: Record<string, { operation: string; value: string }> }
    }>
  }
  expect(json.rules[0]!.action).toBe("rewrite")
  return Object.entries(json.rules[0]!.action_parameters.headers).map(([name, v]) => {
    expect(v.operation).toBe("set")
    return { name, value: v.value }
  })
}
const parseHeadersFile = (text: string): Array<Header> => {
  const [first, ...rest] = text.trimEnd().split("\n")
  expect(first).toBe("/*")
  return rest.map((l) => {
    const m = /^ {2}([A-Za-z-]+): (.*)$/.exec(l)
    expect(m, l).not.toBeNull()
    return { name: m![1]!, value: m![2]! }
  })
}
const parseRaw = (text: string): Array<Header> =>
  text
    .trimEnd()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => {
      const i = l.indexOf(": ")
      return { name: l.slice(0, i), value: l.slice(i + 2) }
    })

const headerValue = fc
  .string({ unit: fc.constantFrom(..."abc XYZ019;:'\"=()*-_./,{}$#".split("")), minLength: 1, maxLength: 60 })
  .map((s) => s.trim())
  .filter((s) => s !== "")
const headerList = fc.uniqueArray(
  fc.record({
    name: fc.constantFrom("Strict-Transport-Security", "X-A", "Content-Security-Policy", "X-B"),
    value: headerValue
  }),
  { selector: (h) => h.name, maxLength: 4 }
)

describe("SecurityHeaders.generate", () => {
  it("fails with a typed error when neither preset nor config is given", () => {
    expect(Either.getLeft(generate({})).pipe(Option.getOrThrow)).toBeInstanceOf(GenerateError)
    expect(Either.getLeft(generate({ config: {} })).pipe(Option.getOrThrow)).toBeInstanceOf(GenerateError)
  })

  it.each(Presets)("preset %s produces ordered headers and six outputs", (preset) => {
    const r = ok(generate({ preset }))
    expect(Object.keys(r.outputs).sort()).toEqual([
      "apache",
      "caddy",
      "cloudflare",
      "headers",
      "nginx",
      "raw"
    ])
    expect(r.headers[0]!.name).toBe("Strict-Transport-Security")
    expect(r.headers.map((h) => h.name)).toContain("X-Content-Type-Options")
    for (const parse of [parseNginx, parseApache, parseCaddy, parseCloudflare, parseHeadersFile, parseRaw]) {
      const key = {
        parseNginx: "nginx",
        parseApache: "apache",
        parseCaddy: "caddy",
        parseCloudflare: "cloudflare",
        parseHeadersFile: "headers",
        parseRaw: "raw"
      }[parse.name] as keyof GenerateResult["outputs"]
      expect(parse(r.outputs[key])).toEqual(r.headers)
    }
  })

  it("recommended, strict and report-only differ where they should", () => {
    const rec = ok(generate({ preset: "recommended" }))
    const strict = ok(generate({ preset: "strict" }))
    const ro = ok(generate({ preset: "report-only" }))
    expect(value(rec, "Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains")
    expect(value(strict, "Strict-Transport-Security")).toBe("max-age=63072000; includeSubDomains; preload")
    expect(value(strict, "X-Frame-Options")).toBe("DENY")
    expect(value(ro, "Content-Security-Policy")).toBeUndefined()
    expect(value(ro, "Content-Security-Policy-Report-Only")).toContain("default-src 'self'")
    expect(value(ro, "Cross-Origin-Embedder-Policy-Report-Only")).toBe("require-corp")
    expect(strict.warnings.some((w) => /preload/.test(w))).toBe(true)
    expect(strict.warnings.some((w) => /COEP/.test(w))).toBe(true)
    expect(rec.warnings.some((w) => /preload/.test(w))).toBe(false)
  })

  it("config wins over the preset, false switches a header off", () => {
    const r = ok(
      generate({
        preset: "strict",
        config: {
          hsts: { maxAge: 300, includeSubDomains: false },
          frameOptions: "sameorigin",
          coep: false,
          csp: {
            directives: { "default-src": ["'self'"], "script-src": "'self' https://cdn.example" },
            reportOnly: true
          },
          permissionsPolicy: { camera: [], geolocation: ["self", "https://maps.example"], fullscreen: ["*"] }
        }
      })
    )
    expect(value(r, "Strict-Transport-Security")).toBe("max-age=300")
    expect(value(r, "X-Frame-Options")).toBe("SAMEORIGIN")
    expect(value(r, "Cross-Origin-Embedder-Policy")).toBeUndefined()
    expect(value(r, "Content-Security-Policy-Report-Only")).toBe(
      "default-src 'self'; script-src 'self' https://cdn.example"
    )
    expect(value(r, "Permissions-Policy")).toBe(
      'camera=(), geolocation=(self "https://maps.example"), fullscreen=*'
    )
    expect(r.warnings.some((w) => /under six months/.test(w))).toBe(true)
    expect(r.warnings.some((w) => /report-uri or report-to/.test(w))).toBe(true)
  })

  it("config alone yields exactly the configured headers; true means the recommended value", () => {
    const r = ok(generate({ config: { hsts: true, contentTypeOptions: true } }))
    expect(r.headers).toEqual([
      { name: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" },
      { name: "X-Content-Type-Options", value: "nosniff" }
    ])
    expect(r.config.csp).toBeNull()
  })

  it.each([
    [{ referrerPolicy: "everywhere" }],
    [{ coop: "maybe" }],
    [{ csp: "default-src 'self'\r\nSet-Cookie: x=1" }],
    [{ csp: { directives: { "bad name": "x" } } }],
    [{ hsts: "includeSubDomains" }],
    [{ hsts: { maxAge: -1 } }],
    [{ permissionsPolicy: "camera=()\\" }]
  ] as const)("rejects invalid config %j", (config) => {
    const r = generate({ config })
    expect(Either.isLeft(r)).toBe(true)
    // the error names the config key at fault
    expect(Either.getLeft(r).pipe(Option.getOrThrow).field).toBe(Object.keys(config)[0])
  })

  it("every format parses back to the same headers for arbitrary values", () => {
    fc.assert(
      fc.property(headerList, (headers) => {
        const out = renderOutputs(headers)
        expect(parseNginx(out.nginx)).toEqual(headers)
        expect(parseApache(out.apache)).toEqual(headers)
        expect(parseCaddy(out.caddy)).toEqual(headers)
        expect(parseCloudflare(out.cloudflare)).toEqual(headers)
        expect(parseRaw(out.raw)).toEqual(headers)
      })
    )
  })

  it("never throws on arbitrary configs", () => {
    const anyValue = fc.oneof(
      fc.boolean(),
      fc.string(),
      fc.record({ maxAge: fc.integer(), preload: fc.boolean() })
    )
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom(...Presets), { nil: undefined }),
        fc.dictionary(
          fc.constantFrom(
            "hsts",
            "csp",
            "frameOptions",
            "referrerPolicy",
            "coop",
            "coep",
            "corp",
            "permissionsPolicy"
          ),
          anyValue
        ),
        (preset, config) => {
          const r = generate({ ...(preset ? { preset } : {}), config: config as never })
          if (Either.isRight(r)) for (const h of r.right.headers) expect(h.value).not.toMatch(/[\r\n]/)
        }
      )
    )
  })
})

const hasNginx = (() => {
  try {
    execFileSync("nginx", ["-v"], { stdio: "pipe" })
    return true
  } catch {
    return false
  }
})()

describe.skipIf(!hasNginx)("the nginx snippet under nginx -t", () => {
  const nginxTest = (snippet: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "web-nginx-"))
    try {
      const conf = path.join(dir, "nginx.conf")
      fs.writeFileSync(
        conf,
        `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  client_body_temp_path ${dir};\n  server {\n    listen 127.0.0.1:8999;\n${snippet}\n  }\n}\n`
      )
      return execFileSync("nginx", ["-t", "-p", dir, "-c", conf], { stdio: "pipe", encoding: "utf8" })
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }

  it.each(Presets)("accepts preset %s", (preset) => {
    expect(() => nginxTest(ok(generate({ preset })).outputs.nginx)).not.toThrow()
  })

  it("accepts quotes in values and rejects a broken snippet (the check can fail)", () => {
    const r = ok(
      generate({ config: { permissionsPolicy: { geolocation: ["self", "https://a.example"] }, csp: true } })
    )
    expect(() => nginxTest(r.outputs.nginx)).not.toThrow()
    expect(() => nginxTest('add_header X-Broken "unterminated always;')).toThrow()
  })
})
