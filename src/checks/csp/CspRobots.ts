/**
 * robots.txt (RFC 9309), pure: the group for our user agent (or `*`), and longest-match
 * Allow/Disallow with `*` and `$` patterns. Allow wins a tie (§2.2.2).
 */

export interface RobotsRule {
  readonly allow: boolean
  readonly pattern: string
}

export interface Robots {
  readonly rules: ReadonlyArray<RobotsRule>
  /** RFC 9309 §2.3.1.4: an unreachable robots.txt (5xx) means "disallow everything". */
  readonly disallowAll: boolean
}

export const allowAll: Robots = { rules: [], disallowAll: false }
export const disallowAll: Robots = { rules: [], disallowAll: true }

/** Parse robots.txt for `agent` (product token, case-insensitive); falls back to the `*` group. */
export const parseRobots = (text: string, agent: string): Robots => {
  const groups: Array<{ agents: Array<string>; rules: Array<RobotsRule> }> = []
  let current: { agents: Array<string>; rules: Array<RobotsRule> } | null = null
  let lastWasAgent = false
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, "").trim()
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line)
    if (!m) continue
    const key = m[1]!.toLowerCase()
    const value = m[2]!.trim()
    if (key === "user-agent") {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] }
        groups.push(current)
      }
      current.agents.push(value.toLowerCase())
      lastWasAgent = true
    } else if ((key === "allow" || key === "disallow") && current) {
      lastWasAgent = false
      if (value !== "") current.rules.push({ allow: key === "allow", pattern: value })
    } else lastWasAgent = false
  }
  const me = agent.toLowerCase()
  const mine = groups.filter((g) => g.agents.some((a) => a !== "*" && me.startsWith(a)))
  const chosen = mine.length > 0 ? mine : groups.filter((g) => g.agents.includes("*"))
  return { rules: chosen.flatMap((g) => g.rules), disallowAll: false }
}

const matchLength = (pattern: string, path: string): number => {
  // RFC 9309 §2.2.3: '*' any sequence, '$' end of path.
  const anchored = pattern.endsWith("$")
  const body = anchored ? pattern.slice(0, -1) : pattern
  const regex = new RegExp(
    "^" +
      body
        .split("*")
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join(".*") +
      (anchored ? "$" : "")
  )
  return regex.test(path) ? pattern.length : -1
}

/** May `pathAndQuery` (e.g. `/a/b?c`) be fetched? */
export const isAllowed = (robots: Robots, pathAndQuery: string): boolean => {
  if (robots.disallowAll) return false
  if (pathAndQuery === "/robots.txt") return true
  let best = -1
  let allowed = true
  for (const rule of robots.rules) {
    const len = matchLength(rule.pattern, pathAndQuery)
    if (len > best || (len === best && len >= 0 && rule.allow)) {
      best = len
      allowed = rule.allow
    }
  }
  return allowed
}
