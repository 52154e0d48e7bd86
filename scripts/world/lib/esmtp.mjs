// The world's own ESMTP server, for an MX that must say what Postfix 3.7 cannot: REQUIRETLS
// (RFC 8689), which a server advertises only in its EHLO reply after STARTTLS (RFC 8689 section 4:
// the keyword is offered over TLS only, as Exim does). Everything else mimics a world Postfix
// listener: its host name in the banner, STARTTLS (RFC 3207) under the MX's certificate with the
// world's current TLS (TLS 1.2 and 1.3, ECDHE with AEAD in the server's order), mail accepted for
// the world's domains only and discarded. Bounded: line lengths, idle and session time, errors per
// session and connections at once, so a batch scan or a TLS scan (src/net/SmtpTlsScan.ts) cannot
// wear it down. scripts/world/esmtp.mjs runs it from data/world/esmtp.json.
import { constants } from "node:crypto"
import net from "node:net"
import tls from "node:tls"

export const LIMITS = {
  /** A command line (RFC 5321 4.5.3.1.4 says 512 octets; Postfix's line_length_limit is 2048). */
  commandLine: 2048,
  /** A message, as the SIZE keyword says (Postfix's message_size_limit in the world). */
  messageSize: 10_485_760,
  /** Recipients per message (RFC 5321 4.5.3.1.8: at least 100 must be accepted). */
  recipients: 100,
  /** Silence before the server hangs up (RFC 5321 4.5.3.2.7 asks 5 minutes; the world is loopback). */
  idleMs: 60_000,
  /** A TLS handshake must end within this. */
  handshakeMs: 15_000,
  /** A whole session at most. */
  sessionMs: 600_000,
  /** Bad commands before the server hangs up (Postfix's smtpd_hard_error_limit). */
  errors: 20,
  /** Sessions at once per server; more are told 421 (RFC 5321 3.8) and closed. */
  connections: 200
}

/**
 * TLS as the world's Postfix listeners serve it (lib/mail.mjs main.cf): TLS 1.2 and 1.3; for 1.2
 * ECDHE with AES-GCM or ChaCha20, chosen in the server's order.
 */
export const secureContext = ({ key, cert }) =>
  tls.createSecureContext({
    key,
    cert,
    minVersion: "TLSv1.2",
    ciphers: "ECDHE+AESGCM:ECDHE+CHACHA20",
    secureOptions: constants.SSL_OP_CIPHER_SERVER_PREFERENCE
  })

/**
 * The EHLO keywords (RFC 5321 4.1.1.1, RFC 1869): STARTTLS while the session is plain and TLS is
 * offered; REQUIRETLS only once it is secure (RFC 8689 section 4) and only when `requiretls`.
 */
export const ehloKeywords = ({ secure, starttls, requiretls }) => [
  "PIPELINING",
  `SIZE ${LIMITS.messageSize}`,
  "8BITMIME",
  ...(starttls && !secure ? ["STARTTLS"] : []),
  ...(requiretls && secure ? ["REQUIRETLS"] : [])
]

/** A multi-line reply (RFC 5321 4.2.1): `250-` on every line but the last. */
export const reply = (code, lines) =>
  lines.map((l, i) => `${code}${i === lines.length - 1 ? " " : "-"}${l}\r\n`).join("")

/** `<path>` and its ESMTP parameters from MAIL FROM:/RCPT TO: arguments, or undefined. */
export const parsePath = (arg, prefix) => {
  const m = new RegExp(`^${prefix}:\\s*<([^<>\\s]*)>((?:\\s+\\S+)*)\\s*$`, "i").exec(arg)
  if (!m) return undefined
  const params = m[2]
    .trim()
    .split(/\s+/)
    .filter((p) => p !== "")
    .map((p) => {
      const eq = p.indexOf("=")
      return eq < 0 ? [p.toUpperCase(), undefined] : [p.slice(0, eq).toUpperCase(), p.slice(eq + 1)]
    })
  return { path: m[1], params }
}

/** Whether the server takes mail for `rcpt`: postmaster (RFC 5321 4.5.1), or a world domain. */
export const accepts = (rcpt, domains) => {
  if (rcpt.toLowerCase() === "postmaster") return true
  const at = rcpt.lastIndexOf("@")
  return (
    at > 0 &&
    domains.has(
      rcpt
        .slice(at + 1)
        .toLowerCase()
        .replace(/\.$/, "")
    )
  )
}

/**
 * A server for one MX host: { name, context (secureContext, or undefined: no STARTTLS),
 * requiretls, domains (a Set of lower-case names) }; `limits` overrides LIMITS (tests).
 */
export const createEsmtpServer = (options, limits = {}) => {
  const lim = { ...LIMITS, ...limits }
  const sockets = new Set()
  const server = net.createServer((sock) => {
    sockets.add(sock)
    sock.on("close", () => sockets.delete(sock))
    sock.on("error", () => {})
    if (sockets.size > lim.connections) {
      sock.end(`421 ${options.name} Service not available: too many connections\r\n`)
      return
    }
    session(sock, options, lim)
  })
  /** Ends every session at once (the world stopping). */
  server.destroyAll = () => {
    for (const s of sockets) s.destroy()
  }
  return server
}

let queued = 0

const session = (plain, options, lim) => {
  const { name, context, requiretls, domains } = options
  let sock = plain
  let secure = false
  let upgrading = false
  let closed = false
  let buf = ""
  let overlong = false
  let errors = 0
  let greeted = undefined // "HELO" or "EHLO"
  let mail = undefined // { from, rcpts, params }
  let data = undefined // { size, midLine } while DATA is read
  const timers = [setTimeout(() => sock.destroy(), lim.sessionMs)]
  plain.once("close", () => {
    closed = true
    for (const t of timers) clearTimeout(t)
  })

  const send = (text) => {
    if (!closed && !sock.destroyed) sock.write(text)
  }
  const say = (code, text) => send(`${code} ${text}\r\n`)
  // The reply goes out before the end; a client that reads nothing is cut off a little later.
  const hangUp = (code, text) => {
    say(code, text)
    closed = true
    sock.end()
    timers.push(setTimeout(() => sock.destroy(), 2000))
  }
  const fail = (code, text) => {
    say(code, text)
    if (++errors >= lim.errors) hangUp(421, `${name} Error: too many errors`)
  }
  const idle = (s) => s.setTimeout(lim.idleMs, () => hangUp(421, `${name} Error: timeout exceeded`))

  const mailFrom = (arg) => {
    if (!greeted) return fail(503, "Error: send HELO/EHLO first")
    if (mail) return fail(503, "Error: nested MAIL command")
    const p = parsePath(arg, "FROM")
    if (!p) return fail(501, "Syntax: MAIL FROM:<address>")
    for (const [key, value] of p.params) {
      // Parameters only after EHLO (RFC 1869 6), each one an advertised keyword's.
      const known =
        greeted === "EHLO" &&
        ((key === "SIZE" && /^\d+$/.test(value ?? "")) ||
          (key === "BODY" && /^(7BIT|8BITMIME)$/i.test(value ?? "")) ||
          // RFC 8689 4.1: REQUIRETLS takes no value, and only where it was offered (over TLS).
          (key === "REQUIRETLS" && value === undefined && requiretls && secure))
      if (!known) return fail(555, `Unsupported option: ${key}${value === undefined ? "" : `=${value}`}`)
      if (key === "SIZE" && Number(value) > lim.messageSize)
        return say(552, "Message size exceeds fixed limit")
    }
    mail = { from: p.path, rcpts: [] }
    say(250, "Ok")
  }

  const rcptTo = (arg) => {
    if (!mail) return fail(503, "Error: need MAIL command")
    const p = parsePath(arg, "TO")
    if (!p) return fail(501, "Syntax: RCPT TO:<address>")
    if (p.params.length > 0) return fail(555, `Unsupported option: ${p.params[0][0]}`)
    if (!accepts(p.path, domains)) return fail(554, `<${p.path}>: Relay access denied`)
    if (mail.rcpts.length >= lim.recipients) return say(452, "Error: too many recipients")
    mail.rcpts.push(p.path)
    say(250, "Ok")
  }

  const startTls = (arg) => {
    if (!context) return fail(502, "Error: command not recognized")
    if (secure) return fail(503, "Error: TLS already active")
    if (arg !== "") return fail(501, "Syntax: STARTTLS")
    say(220, "Ready to start TLS")
    // RFC 3207 4.2 and CVE-2011-0411: whatever the client pipelined after STARTTLS was sent in
    // the clear, so it is dropped, and the session starts over (no HELO, no transaction).
    upgrading = true
    buf = ""
    greeted = undefined
    mail = undefined
    plain.removeAllListeners("data")
    plain.setTimeout(0)
    const t = new tls.TLSSocket(plain, { isServer: true, secureContext: context })
    sock = t
    const handshake = setTimeout(() => t.destroy(), lim.handshakeMs)
    timers.push(handshake)
    // A refused handshake (a scanner offering only old versions or weak suites) ends the session.
    t.on("error", () => t.destroy())
    t.on("close", () => plain.destroy())
    t.once("secure", () => {
      clearTimeout(handshake)
      secure = true
      upgrading = false
      idle(t)
    })
    t.on("data", onData)
  }

  const command = (line) => {
    const space = line.indexOf(" ")
    const verb = (space < 0 ? line : line.slice(0, space)).toUpperCase()
    const arg = space < 0 ? "" : line.slice(space + 1).trim()
    switch (verb) {
      case "EHLO":
      case "HELO":
        if (arg === "") return fail(501, `Syntax: ${verb} hostname`)
        greeted = verb
        mail = undefined
        return verb === "HELO"
          ? say(250, name)
          : send(reply(250, [name, ...ehloKeywords({ secure, starttls: Boolean(context), requiretls })]))
      case "STARTTLS":
        return startTls(arg)
      case "MAIL":
        return mailFrom(arg)
      case "RCPT":
        return rcptTo(arg)
      case "DATA":
        if (arg !== "") return fail(501, "Syntax: DATA")
        if (!mail) return fail(503, "Error: need RCPT command")
        if (mail.rcpts.length === 0) return fail(554, "Error: no valid recipients")
        data = { size: 0, midLine: false }
        return say(354, "End data with <CR><LF>.<CR><LF>")
      case "RSET":
        mail = undefined
        return say(250, "Ok")
      case "NOOP":
        return say(250, "Ok")
      case "QUIT":
        return hangUp(221, "Bye")
      case "":
        return fail(500, "Error: bad syntax")
      default:
        return fail(502, "Error: command not recognized")
    }
  }

  /** A line of the message: counted, then discarded, as the Postfix listeners' `discard` does. */
  const dataLine = (line, ended) => {
    if (ended && !data.midLine && line === ".") {
      const size = data.size
      data = undefined
      mail = undefined
      return size > lim.messageSize
        ? say(552, "Error: message size exceeds fixed limit")
        : say(250, `Ok: queued as W${(++queued).toString(16).toUpperCase()}, discarded`)
    }
    data.size += line.length + (ended ? 2 : 0)
    data.midLine = !ended
  }

  function onData(chunk) {
    buf += chunk.toString("latin1")
    while (!closed && !upgrading) {
      const nl = buf.indexOf("\n")
      if (nl < 0) {
        // No end of line yet: a message line is counted as it comes, a command line is bounded.
        if (data && buf.length > lim.commandLine) {
          dataLine(buf, false)
          buf = ""
        } else if (!data && buf.length > lim.commandLine) {
          overlong = true
          buf = ""
        }
        return
      }
      const line = buf.slice(0, nl).replace(/\r$/, "")
      buf = buf.slice(nl + 1)
      if (data) dataLine(line, true)
      else if (overlong || line.length > lim.commandLine) {
        overlong = false
        fail(500, "Error: line too long")
      } else command(line)
    }
  }

  idle(plain)
  plain.on("data", onData)
  say(220, `${name} ESMTP`)
}
