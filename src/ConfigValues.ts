/**
 * The shapes settings are spelt in (lists, CIDRs, ports, URLs, ISO 8601 durations), shared by the
 * areas' setting modules that `Config.ts` composes into AppConfig.
 */
import { isIP } from "node:net"
import { Config, ConfigError, Either } from "effect"
import { parseEvery } from "./records/IsoDuration.ts"

/** Comma-separated items, trimmed, empty ones dropped. */
export const list = (name: string, fallback: string) =>
  Config.string(name).pipe(
    Config.withDefault(fallback),
    Config.map((raw) =>
      raw
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item.length > 0)
    )
  )

/** `10.0.0.0/8`, `2001:db8::/32` or a bare address: the shape only (users of the list parse it). */
export const isCidrText = (text: string): boolean => {
  const [address = "", prefix, ...rest] = text.split("/")
  const family = isIP(address)
  if (family === 0 || rest.length > 0) return false
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128))
}

/** Comma-separated CIDRs or addresses (`10.0.0.0/8,::1`), refused at start-up when malformed. */
export const cidrs = (name: string) =>
  list(name, "").pipe(
    Config.mapOrFail((items) => {
      const bad = items.find((item) => !isCidrText(item))
      return bad === undefined
        ? Either.right(items as ReadonlyArray<string>)
        : Either.left(ConfigError.InvalidData([name], `'${bad}' is not a CIDR or address`))
    })
  )

/** Ports and ranges, `443,8443,1024-65535`, as a membership test. */
export const parsePorts = (items: ReadonlyArray<string>): ((port: number) => boolean) | string => {
  const ranges: Array<readonly [number, number]> = []
  for (const item of items) {
    const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(item)
    const lo = Number(m?.[1]),
      hi = Number(m?.[2] ?? m?.[1])
    if (!m || lo < 1 || hi > 65535 || lo > hi) return item
    ranges.push([lo, hi])
  }
  return (port) => ranges.some(([lo, hi]) => port >= lo && port <= hi)
}

export const ports = (name: string, fallback: string) =>
  list(name, fallback).pipe(
    Config.mapOrFail((items) => {
      const parsed = parsePorts(items)
      return typeof parsed === "string"
        ? Either.left(ConfigError.InvalidData([name], `'${parsed}' is not a port or a range lo-hi`))
        : Either.right(parsed)
    })
  )

/** An empty setting, or an absolute http(s) URL (without query or fragment), kept without its last `/`. */
export const baseUrl = (name: string, example: string) =>
  Config.string(name).pipe(
    Config.withDefault(""),
    Config.mapOrFail((raw) => {
      if (raw === "") return Either.right("")
      try {
        const url = new URL(raw)
        if ((url.protocol === "http:" || url.protocol === "https:") && url.search === "" && url.hash === "")
          return Either.right(url.href.replace(/\/$/, ""))
      } catch {
        // fall through to the error below
      }
      return Either.left(
        ConfigError.InvalidData([name], `'${raw}' must be an http(s) URL such as ${example}`)
      )
    })
  )

/** An ISO 8601 duration of fixed length (`PT15M`, `P400D`, `P57W`: records/IsoDuration.ts), in ms. */
export const duration = (name: string, fallback: string) =>
  Config.string(name).pipe(
    Config.withDefault(fallback),
    Config.mapOrFail((text) => {
      const parsed = parseEvery(text)
      return "ms" in parsed
        ? Either.right(parsed.ms)
        : Either.left(ConfigError.InvalidData([name], parsed.error))
    })
  )

/** A `duration`, or 0 (spelt `0` or `PT0S`): the feature it times is off. */
export const durationOrOff = (name: string, fallback: string) =>
  Config.string(name).pipe(
    Config.withDefault(fallback),
    Config.mapOrFail((text) => {
      if (/^\s*(0|PT0S)\s*$/i.test(text)) return Either.right(0)
      const parsed = parseEvery(text)
      return "ms" in parsed
        ? Either.right(parsed.ms)
        : Either.left(ConfigError.InvalidData([name], parsed.error))
    })
  )

export const int = (name: string, fallback: number) => Config.integer(name).pipe(Config.withDefault(fallback))

export const ms = (name: string, fallback: number) => Config.integer(name).pipe(Config.withDefault(fallback))
