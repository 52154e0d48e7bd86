// Postfix: one instance (own config and queue directory under data/world/postfix) with one smtpd
// listener per MX address, each with its own host name and TLS settings. Nothing is ever relayed:
// every transport is `discard`, and mail is accepted only for the scenario domains.
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { chownSync, existsSync, lstatSync, rmSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { INFRA, mxComponent } from "./model.mjs"
import { mkdirp, write } from "./util.mjs"

/**
 * Postfix daemons drop to the postfix user, which must reach the queue and data directories; the
 * checkout may sit under a private home directory, so those live under /var/lib (one directory per
 * world, named by a hash of its path) and data/world/postfix links to them.
 */
const stateDir = (root) =>
  join("/var/lib/domain-audit-world", createHash("sha256").update(root).digest("hex").slice(0, 12))

const link = (target, path) => {
  if (existsSync(path) || isLink(path)) rmSync(path, { recursive: true, force: true })
  symlinkSync(target, path)
}
const isLink = (path) => {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

const SERVICES = `cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
tlsmgr    unix  -       -       n       1000?   1       tlsmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
discard   unix  -       -       n       -       -       discard
virtual   unix  -       n       n       -       -       virtual
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
postlog   unix-dgram n  -       n       -       1       postlogd -o max_use=1000000000 -o max_idle=86400
`

/** The uid and gid of the `postfix` user: the owner of the mailbox files virtual(8) writes. */
export const postfixOwner = () => {
  const id = (flag) => Number(execFileSync("id", [flag, "postfix"], { encoding: "utf8" }).trim())
  return { uid: id("-u"), gid: id("-g") }
}

/**
 * main.cf and master.cf for `hosts`: [{ host, addr, tls: valid|expired|selfsigned|wrongname|none,
 * key, cert, domain }]; `extra` main.cf lines go last (they override); `owner` owns the mailbox
 * files. Pure: `generatePostfix` writes them, test/world/loopback.test.ts audits them.
 */
export const postfixConfig = (root, hosts, extra = [], owner = { uid: 100, gid: 100 }) => {
  const state = stateDir(root)
  const domains = [...new Set(hosts.map((h) => h.domain))]
  const main = [
    "compatibility_level = 3.6",
    `queue_directory = ${state}/spool`,
    `data_directory = ${state}/lib`,
    "mail_owner = postfix",
    "setgid_group = postdrop",
    "myhostname = world-mta.invalid",
    "mydomain = world-mta.invalid",
    "inet_interfaces = loopback-only",
    `inet_protocols = ${hosts.some((h) => h.aaaa) ? "all" : "ipv4"}`,
    "mydestination =",
    "mynetworks = 127.25.255.254/32",
    `relay_domains = ${domains.join(", ")}`,
    "smtpd_relay_restrictions = reject_unauth_destination",
    "default_transport = discard:the world never relays",
    "relay_transport = discard:the world never relays",
    "local_transport = discard:the world never delivers",
    // The world's mailbox (docs/world.md): mail for any address at mailbox.test goes into one
    // Maildir under the state directory (virtual(8) adds a Delivered-To header naming the recipient;
    // it allows no per-recipient regexp substitution), written by virtual(8), which resolves nothing.
    `virtual_mailbox_domains = ${INFRA.mailbox.domain}`,
    `virtual_mailbox_base = ${state}/mail`,
    "virtual_mailbox_maps = static:inbox/",
    `virtual_uid_maps = static:${owner.uid}`,
    `virtual_gid_maps = static:${owner.gid}`,
    "virtual_transport = virtual",
    "alias_maps =",
    "alias_database =",
    "local_recipient_maps =",
    "biff = no",
    `maillog_file_prefixes = ${state}/log`,
    `maillog_file = ${state}/log/postfix.log`,
    "smtpd_banner = $myhostname ESMTP",
    "smtpd_tls_security_level = may",
    "smtpd_tls_loglevel = 0",
    "smtpd_tls_auth_only = yes",
    // Current TLS unless a scenario's MX asks otherwise (`tlsPolicy`, listeners below): TLS 1.2
    // and 1.3, ECDHE with AEAD in the server's order, what the NCSC-NL guidelines rate good or
    // sufficient. Postfix's own defaults (TLS 1.0 up, the "medium" suites) are the "legacy" policy.
    "smtpd_tls_protocols = >=TLSv1.2",
    "smtpd_tls_mandatory_protocols = >=TLSv1.2",
    "smtpd_tls_ciphers = high",
    "tls_high_cipherlist = ECDHE+AESGCM:ECDHE+CHACHA20",
    "tls_preempt_cipherlist = yes",
    "disable_vrfy_command = yes",
    "smtpd_helo_required = yes",
    "message_size_limit = 10485760",
    "smtputf8_enable = no",
    // The world stays on loopback (docs/world.md): smtpd would look each client's name up (PTR,
    // then its addresses) through the C library, that is the machine's resolver. No name lookup.
    "smtpd_peername_lookup = no",
    // One listener per MX host (hundreds with --synthetic): an smtpd per connection lingering the
    // default 100 s, up to 100 per listener, buried the machine under a batch scan. Keep few, briefly.
    "default_process_limit = 20",
    "max_idle = 5s",
    ...extra,
    ""
  ].join("\n")
  // The mailbox's own listener, which mutate never touches; no STARTTLS (a relay on loopback).
  const relay = `${INFRA.mailbox.relay}:25 inet n - n - - smtpd\n  -o myhostname=${INFRA.mailbox.host}\n  -o smtpd_tls_security_level=none`
  return { main, master: [relay, ...hosts.map(listeners), SERVICES].join("\n") }
}

/**
 * An MX's TLS settings beyond the current default (main.cf): `legacy` is Postfix left at its own
 * defaults (TLS 1.0 and 1.1 accepted, the "medium" suites, the client's order); `null` also accepts
 * suites without encryption (NULL, OpenSSL security level 0), the insufficient case; `no-ems` keeps
 * the current TLS but turns Extended Master Secret off (RFC 7627; OpenSSL 3.0's
 * SSL_OP_NO_EXTENDED_MASTER_SECRET is bit 0, which tls_ssl_options takes as a hexadecimal mask).
 */
const TLS_POLICIES = {
  legacy: ["smtpd_tls_protocols=>=TLSv1", "smtpd_tls_ciphers=medium", "tls_preempt_cipherlist=no"],
  null: [
    "smtpd_tls_protocols=>=TLSv1",
    "smtpd_tls_ciphers=medium",
    "tls_medium_cipherlist=ECDHE+AESGCM:ECDHE+AES:eNULL:!aNULL:@SECLEVEL=0"
  ],
  "no-ems": ["tls_ssl_options=0x1"]
}

/** The master.cf entries of one MX host: an smtpd on its address (and on [::1] with `aaaa`). */
export const listeners = (h) => {
  // esmtp.mjs listens there: a Postfix listener on the same address would fail to bind, or win.
  if (mxComponent(h) !== "postfix") throw new Error(`${h.host} is not served by Postfix`)
  const opts = [`-o myhostname=${h.host}`]
  if (h.tls === "none") opts.push("-o smtpd_tls_security_level=none")
  else opts.push("-o smtpd_tls_security_level=may", `-o smtpd_tls_chain_files=${h.key},${h.cert}`)
  if (h.tls !== "none" && h.tlsPolicy) opts.push(...(TLS_POLICIES[h.tlsPolicy] ?? []).map((o) => `-o ${o}`))
  const addrs = [h.addr, ...(h.aaaa ? [`[${h.aaaa}]`] : [])]
  return addrs.map((a) => `${a}:25 inet n - n - - smtpd\n  ${opts.join("\n  ")}`).join("\n")
}

/**
 * data/world/esmtp.json, what esmtp.mjs serves: the MX hosts with `requiretls` (their address, name,
 * TLS mode and certificate: the ones a Postfix listener would get) and the domains it takes mail for.
 */
export const esmtpConfig = (hosts, domains) => ({
  domains: [...new Set(domains)].sort(),
  servers: hosts
    .filter((h) => mxComponent(h) === "esmtp")
    .map((h) => ({
      host: h.host,
      addr: h.addr,
      aaaa: h.aaaa ?? null,
      tls: h.tls ?? "valid",
      requiretls: true,
      key: h.key,
      cert: h.cert
    }))
})

export const generatePostfix = (root, hosts) => {
  const dir = join(root, "postfix")
  const state = stateDir(root)
  mkdirp(dir)
  const owner = postfixOwner()
  for (const sub of ["log", "lib", "spool", "mail"]) {
    mkdirp(join(state, sub))
    link(join(state, sub), join(dir, sub))
  }
  chownSync(join(state, "mail"), owner.uid, owner.gid)
  // WORLD_POSTFIX_MAIN_CF: main.cf lines to add (one a line), to try a setting without editing the
  // generator, or to make Postfix misbehave on purpose (test/world/lifecycle.test.ts).
  const extra = (process.env.WORLD_POSTFIX_MAIN_CF ?? "").split("\n").filter((line) => line.trim() !== "")
  const { main, master } = postfixConfig(root, hosts, extra, owner)
  write(join(dir, "main.cf"), main)
  write(join(dir, "master.cf"), master)
  return dir
}
