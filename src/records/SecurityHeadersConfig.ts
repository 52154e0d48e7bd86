/**
 * The shapes of the security-header generator: its request (a preset and/or a per-header config)
 * and its result. The contract serves them as they are; `SecurityHeaders.ts` builds the result.
 */
import { Schema } from "effect"
import { HeaderOutputs } from "./SecurityHeadersOutputs.ts"

export const Presets = ["recommended", "strict", "report-only"] as const
export const Preset = Schema.Literal(...Presets)
export type Preset = typeof Preset.Type

/**
 * A header's config: `true` (the recommended value), `false` (the header off), the header's value
 * as a string, or, for the headers that have them, its parts.
 */
const Toggle = Schema.Union(Schema.Boolean, Schema.String)
const toggleOr = <Parts extends Schema.Schema.All>(parts: Parts) =>
  Schema.Union(Schema.Boolean, Schema.String, parts)

/** RFC 6797 §6.1. */
export const HstsConfig = toggleOr(
  Schema.Struct({
    maxAge: Schema.optional(Schema.Number),
    includeSubDomains: Schema.optional(Schema.Boolean),
    preload: Schema.optional(Schema.Boolean)
  })
)

/** CSP (W3C CSP Level 3): a policy string or directives, optionally Report-Only. */
export const CspConfig = toggleOr(
  Schema.Struct({
    directives: Schema.optional(
      Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Array(Schema.String)) })
    ),
    policy: Schema.optional(Schema.String),
    reportOnly: Schema.optional(Schema.Boolean),
    reportUri: Schema.optional(Schema.String),
    reportTo: Schema.optional(Schema.String)
  })
)

export const PermissionsConfig = toggleOr(
  Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })
)

export const HeadersConfig = Schema.Struct({
  hsts: Schema.optional(HstsConfig),
  csp: Schema.optional(CspConfig),
  frameOptions: Schema.optional(Toggle),
  contentTypeOptions: Schema.optional(Toggle),
  referrerPolicy: Schema.optional(Toggle),
  permissionsPolicy: Schema.optional(PermissionsConfig),
  coop: Schema.optional(Toggle),
  coep: Schema.optional(Toggle),
  corp: Schema.optional(Toggle)
})
export type HeadersConfig = typeof HeadersConfig.Type
export type ConfigKey = keyof HeadersConfig

export const GenerateRequest = Schema.Struct({
  preset: Schema.optional(Preset),
  config: Schema.optional(HeadersConfig)
})
export type GenerateRequest = typeof GenerateRequest.Type

export const Header = Schema.Struct({ name: Schema.String, value: Schema.String })
export type Header = typeof Header.Type

const Value = Schema.NullOr(Schema.String)

/** One header value per config key (the header value, or null when that header is off). */
export const ConfigValues = Schema.Struct({
  hsts: Value,
  csp: Value,
  frameOptions: Value,
  contentTypeOptions: Value,
  referrerPolicy: Value,
  permissionsPolicy: Value,
  coop: Value,
  coep: Value,
  corp: Value
})
export type ConfigValues = typeof ConfigValues.Type

export const GenerateResult = Schema.Struct({
  preset: Schema.NullOr(Preset),
  headers: Schema.Array(Header),
  outputs: HeaderOutputs,
  warnings: Schema.Array(Schema.String),
  /** The effective configuration, one header value per config key (null when off). */
  config: ConfigValues
})
export type GenerateResult = typeof GenerateResult.Type

export const CONFIG_KEYS: ReadonlyArray<ConfigKey> = [
  "hsts",
  "csp",
  "frameOptions",
  "contentTypeOptions",
  "referrerPolicy",
  "permissionsPolicy",
  "coop",
  "coep",
  "corp"
]
