// Edits of one domain's part of the generated files that all domains share (knot.conf, the TLD,
// reverse and DNSBL zones, Postfix's main.cf and master.cf, nginx.conf, esmtp.json), for
// scripts/world/mutate.
// Pure: text in, text out, every other domain's lines left as they are, byte for byte.

const lines = (text) => text.replace(/\n$/, "").split("\n")
const unlines = (list) => list.join("\n") + "\n"

/** A zone file without the lines `isOld` picks, `added` appended. */
export const replaceZoneLines = (text, isOld, added) =>
  unlines([...lines(text).filter((l) => !isOld(l)), ...added])

/** Lines of a zone file that hold a DS record at `domain` (keymgr and ldns-key2ds formats). */
export const isDsOf = (domain) => {
  const owner = `${domain}.`.toLowerCase()
  return (line) => {
    const [name, ...rest] = line.trim().split(/\s+/)
    return name?.toLowerCase() === owner && rest.filter((f) => !/^(\d+|IN)$/i.test(f))[0] === "DS"
  }
}

/** Lines of a zone file whose owner is one of `owners` (exact names as the generator writes them). */
export const ownedBy = (owners) => {
  const set = new Set(owners)
  return (line) => set.has(line.split(/\s+/)[0] ?? "")
}

/** The SOA serial of a zone file (generator or ldns format), or 0. */
export const soaSerial = (text) => Number(/\bSOA\s+\S+\s+\S+\s+(\d+)/.exec(text)?.[1] ?? 0)

/** knot.conf with the entry of zone `name` replaced by `entry` (lines), appended when absent. */
export const replaceKnotZone = (text, name, entry) => {
  const all = lines(text)
  const start = all.indexOf(`  - domain: "${name}"`)
  if (start < 0) return unlines([...all, ...entry])
  let end = start + 1
  while (end < all.length && all[end].startsWith("    ")) end++
  return unlines([...all.slice(0, start), ...entry, ...all.slice(end)])
}

/**
 * master.cf with the smtpd listeners on `addrs` ("127.25.0.3", "[::1]") removed and `added` (entries
 * as mail.mjs `listeners` writes them) put where the listeners end, before the internal services.
 */
export const replaceListeners = (text, addrs, added) => {
  const entries = []
  for (const line of lines(text)) {
    if (/^\s/.test(line) && entries.length > 0) entries[entries.length - 1].push(line)
    else entries.push([line])
  }
  const listener = (entry) => /^\S+:25\s+inet\s/.test(entry[0])
  const gone = new Set(addrs.map((a) => `${a}:25`))
  const kept = entries.filter((e) => !(listener(e) && gone.has(e[0].split(/\s+/)[0])))
  const firstService = kept.findIndex((e) => !listener(e))
  const at = firstService < 0 ? kept.length : firstService
  const out = [...kept.slice(0, at).flat(), ...added.flatMap(lines), ...kept.slice(at).flat()]
  return unlines(out)
}

/** main.cf with `domain` in `relay_domains` (the domains whose MX hosts the world serves) or not. */
export const setRelayDomain = (text, domain, present) =>
  unlines(
    lines(text).map((line) => {
      const m = /^relay_domains = (.*)$/.exec(line)
      if (!m) return line
      const list = m[1].split(/,\s*/).filter((d) => d !== "")
      if (list.includes(domain) === present) return line
      return `relay_domains = ${(present ? [...list, domain] : list.filter((d) => d !== domain)).join(", ")}`
    })
  )

/**
 * esmtp.json (lib/mail.mjs esmtpConfig) without the servers on one of `addrs` (the domain's MX
 * addresses before the change), `added` (its requiretls hosts now) appended.
 */
export const replaceEsmtpServers = (config, addrs, added) => {
  const gone = new Set(addrs)
  return { ...config, servers: [...config.servers.filter((s) => !gone.has(s.addr)), ...added] }
}

/**
 * nginx.conf with the server blocks listening on one of `addrs` removed and `added` (blocks as web.mjs
 * `serverBlocks` writes them) appended inside `http { }`.
 */
export const replaceServerBlocks = (text, addrs, added) => {
  const all = lines(text)
  const out = []
  for (let i = 0; i < all.length; i++) {
    if (all[i] !== "    server {") {
      out.push(all[i])
      continue
    }
    let end = i
    while (end < all.length && all[end] !== "    }") end++
    const block = all.slice(i, end + 1)
    const listens = addrs.some((a) => block.some((l) => l.trim().startsWith(`listen ${a}:`)))
    if (!listens) out.push(...block)
    i = end
  }
  const close = out.lastIndexOf("}")
  // Every line indented, the empty ones too, as web.mjs writes them.
  const indented = added.flatMap(lines).map((l) => `    ${l}`)
  return unlines([...out.slice(0, close), ...indented, ...out.slice(close)])
}
