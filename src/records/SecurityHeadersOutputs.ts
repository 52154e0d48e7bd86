/**
 * Render a header list in six ready-to-paste formats. Each renderer quotes values by the target's
 * own string rules so a generated snippet always parses (tested with `nginx -t` and parsers).
 */
import { Schema } from "effect"

export interface HeaderLine {
  readonly name: string
  readonly value: string
}

export const HeaderOutputs = Schema.Struct({
  nginx: Schema.String,
  apache: Schema.String,
  caddy: Schema.String,
  cloudflare: Schema.String,
  headers: Schema.String,
  raw: Schema.String
})
export type HeaderOutputs = typeof HeaderOutputs.Type

/**
 * Double-quoted string with `\"` for quotes: nginx, Apache and the Caddyfile all read it so.
 * The generator refuses backslashes in values, whose escaping differs between the three.
 */
const dq = (s: string) => `"${s.replace(/"/g, '\\"')}"`

/**
 * nginx `add_header ... always` (always: also on 4xx/5xx). add_header in a location block
 * replaces every inherited one, hence the comment.
 */
export const nginx = (headers: ReadonlyArray<HeaderLine>): string =>
  [
    "# nginx: inside the server { } block (a location with its own add_header drops these)",
    ...headers.map((h) => `add_header ${h.name} ${dq(h.value)} always;`)
  ].join("\n") + "\n"

/** Apache httpd mod_headers; `always` covers error responses too. */
export const apache = (headers: ReadonlyArray<HeaderLine>): string =>
  [
    "# Apache: in the VirtualHost or .htaccess (needs mod_headers)",
    "<IfModule mod_headers.c>",
    ...headers.map((h) => `    Header always set ${h.name} ${dq(h.value)}`),
    "</IfModule>"
  ].join("\n") + "\n"

/** Caddyfile `header` directive block, inside a site block. */
export const caddy = (headers: ReadonlyArray<HeaderLine>): string =>
  [
    "# Caddy: inside the site block",
    "header {",
    ...headers.map((h) => `\t${h.name} ${dq(h.value)}`),
    "}"
  ].join("\n") + "\n"

/**
 * Cloudflare: a Transform Rule for the `http_response_headers_transform` phase, as the body of
 * PUT /zones/{zone_id}/rulesets/phases/http_response_headers_transform/entrypoint.
 */
export const cloudflare = (headers: ReadonlyArray<HeaderLine>): string =>
  JSON.stringify(
    {
      rules: [
        {
          description: "Security headers (domain-audit)",
          expression: "true",
          action: "rewrite",
          action_parameters: {
            headers: Object.fromEntries(headers.map((h) => [h.name, { operation: "set", value: h.value }]))
          }
        }
      ]
    },
    null,
    2
  ) + "\n"

/** The `_headers` file of Netlify and Cloudflare Pages: a path pattern, then indented lines. */
export const headersFile = (headers: ReadonlyArray<HeaderLine>): string =>
  ["/*", ...headers.map((h) => `  ${h.name}: ${h.value}`)].join("\n") + "\n"

export const raw = (headers: ReadonlyArray<HeaderLine>): string =>
  headers.map((h) => `${h.name}: ${h.value}`).join("\n") + (headers.length > 0 ? "\n" : "")

export const renderOutputs = (headers: ReadonlyArray<HeaderLine>): HeaderOutputs => ({
  nginx: nginx(headers),
  apache: apache(headers),
  caddy: caddy(headers),
  cloudflare: cloudflare(headers),
  headers: headersFile(headers),
  raw: raw(headers)
})
