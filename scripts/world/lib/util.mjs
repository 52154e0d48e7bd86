// Small helpers shared by the world generators (files, processes, names).
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"

/** Run a command, return stdout; throw with its stderr on failure. */
export const run = (cmd, args, opts = {}) => {
  try {
    return execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...opts })
  } catch (e) {
    throw new Error(`${cmd} ${args.join(" ")} failed: ${e.stderr || e.message}`)
  }
}

export const mkdirp = (dir) => mkdirSync(dir, { recursive: true })

/** Write a file only when its content changed (keeps mtimes stable for idempotent re-runs). */
export const write = (path, content, mode) => {
  mkdirp(dirname(path))
  if (existsSync(path) && readFileSync(path, "utf8") === content) return
  writeFileSync(path, content, mode === undefined ? {} : { mode })
}

/** Absolute, trailing-dot form of a domain name. */
export const fqdn = (name) => (name.endsWith(".") ? name : `${name}.`)

/** The address's reverse-DNS name, e.g. 127.25.0.3 -> 3.0.25.127.in-addr.arpa. */
export const reverseName = (ip) => `${ip.split(".").reverse().join(".")}.in-addr.arpa.`

/** Split a TXT payload into quoted 255-octet strings (RFC 1035 3.3.14). */
export const txtStrings = (text) => {
  const parts = []
  for (let i = 0; i < text.length; i += 255) parts.push(`"${text.slice(i, i + 255)}"`)
  return parts.length === 0 ? '""' : parts.join(" ")
}
