/**
 * Post-quantum key exchange: which group each web server (port 443 of the domain and its www host)
 * and each mail server address (after STARTTLS, RFC 3207) takes when a client offers the hybrid
 * groups first: X25519MLKEM768 (codepoint 0x11EC, the default of current browsers and of OpenSSL
 * 3.5), SecP256r1MLKEM768 and SecP384r1MLKEM1024 (draft-ietf-tls-ecdhe-mlkem), then X25519, P-256
 * and P-384. A hybrid protects today's recorded traffic against a future quantum computer ("harvest
 * now, decrypt later"). `gather` asks each address once through `facts.ask(KeyExchange)` (our own
 * ClientHello, net/TlsHello.ts; the server's first message names the group, RFC 8446 4.1.3), at the
 * depths that enumerate that server's TLS (kernel/Depth.ts); `analyse` is pure. Informational: it
 * costs no points (docs/scoring.md).
 */
import { Effect, Either } from "effect"
import { define, traced } from "../../kernel/Check.ts"
import { enumeratesTls, NOT_ENUMERATED } from "../../kernel/Depth.ts"
import { addressQuestions, Facts } from "../../kernel/Facts.ts"
import { MailServers, mxUnknown, targets } from "../../kernel/MailServers.ts"
import { KeyExchange } from "../../net/questions/KeyExchange.ts"
import { ADDRESSES_PER_FAMILY, webHosts } from "../web-tls/WebTls.ts"
import { about } from "./About.ts"
import { exampleGathered } from "./Example.ts"
import type { Asked, KeyExchangeAnswer, PqKexGathered } from "./PqKexGathered.ts"
import type { PqKexPartStatus, PqKexResult, PqKexServer } from "./PqKexResult.ts"

export * from "./PqKexGathered.ts"
export * from "./PqKexResult.ts"

/** Nothing listens for TLS there: no HTTPS (the connection refused), or an MX without STARTTLS. */
const NO_TLS = /\bECONNREFUSED\b|STARTTLS not offered/

/** What one probe says. Pure. */
export const serverOf = (a: Asked): PqKexServer => {
  const base = { service: a.service, host: a.host, address: a.address }
  const answer = a.answer
  switch (answer.kind) {
    case "not-checked":
      return { ...base, verdict: "not-checked", group: null, helloRetry: null, note: answer.message }
    case "selected":
      return {
        ...base,
        verdict: answer.hybrid ? "hybrid" : "classical",
        group: answer.groupName,
        helloRetry: answer.helloRetry,
        note: answer.hybrid
          ? `takes the hybrid ${answer.groupName}`
          : `takes ${answer.groupName}${answer.helloRetry ? " (asked for it with a HelloRetryRequest)" : ""}, not a hybrid`
      }
    case "no-tls13":
      return {
        ...base,
        verdict: "classical",
        group: null,
        helloRetry: null,
        note: `${answer.message}: no hybrid without TLS 1.3`
      }
    case "refused":
      return { ...base, verdict: "unknown", group: null, helloRetry: null, note: answer.message }
    case "unknown":
      return NO_TLS.test(answer.message)
        ? { ...base, verdict: "no-tls", group: null, helloRetry: null, note: answer.message }
        : { ...base, verdict: "unknown", group: null, helloRetry: null, note: answer.message }
  }
}

const part = (status: PqKexPartStatus, note: string) => ({ status, note })

/** One part's verdict over its servers; `absent` says why there are none. Pure. */
export const partOf = (
  servers: ReadonlyArray<PqKexServer>,
  absent: { readonly status: PqKexPartStatus; readonly note: string } | null,
  what: string
) => {
  if (absent !== null) return absent
  if (servers.length > 0 && servers.every((s) => s.verdict === "not-checked"))
    return part("not-checked", servers[0]!.note)
  const judged = servers.filter((s) => s.verdict !== "no-tls" && s.verdict !== "not-checked")
  if (judged.length === 0) return part("not-applicable", `no ${what} speaks TLS`)
  const count = (v: PqKexServer["verdict"]) => judged.filter((s) => s.verdict === v).length
  const [hybrid, classical, unknown] = [count("hybrid"), count("classical"), count("unknown")]
  const groups = [...new Set(judged.flatMap((s) => (s.verdict === "hybrid" && s.group ? [s.group] : [])))]
  if (hybrid === judged.length)
    return part("hybrid", `every ${what} takes a post-quantum hybrid key exchange (${groups.join(", ")})`)
  if (hybrid > 0 && classical > 0)
    return part(
      "partial",
      `${hybrid} of ${judged.length} ${what} address(es) take a hybrid, ${classical} do not`
    )
  if (unknown > 0)
    return part("unknown", `${unknown} ${what} address(es) could not be asked, the others do not decide`)
  return part("classical", `no ${what} takes a post-quantum hybrid key exchange: classical only`)
}

/** Pure and total. */
export const analyse = (g: PqKexGathered, now: Date): PqKexResult => {
  const servers = g.asked.map(serverOf)
  const of = (service: "web" | "mail") => servers.filter((s) => s.service === service)
  const web = of("web")
  const mail = of("mail")
  const webAbsent =
    web.length > 0
      ? null
      : g.webLookup === "unknown"
        ? part("unknown", "the web names' addresses could not be looked up")
        : part("not-applicable", "no address for the domain or its www host: no web site")
  const mailAbsent =
    g.mxStatus === "unknown"
      ? part("unknown", g.mxError ?? "the MX lookup failed")
      : g.mxStatus === "null-mx"
        ? part("not-applicable", "null MX (RFC 7505): the domain accepts no mail")
        : mail.length > 0
          ? null
          : g.mxStatus === "none"
            ? part("not-applicable", "no MX records and no address: the domain receives no mail")
            : part("unknown", "no mail server address could be asked")
  return {
    domain: g.domain,
    checkedAt: now.toISOString(),
    web: partOf(web, webAbsent, "web server"),
    mail: partOf(mail, mailAbsent, "mail server"),
    servers
  }
}

export const gather = Effect.gen(function* () {
  const facts = yield* Facts
  const servers = yield* facts.get(MailServers)
  // Started, then awaited in turn in this fiber: `Effect.forEach` with a concurrency forks a fiber
  // per element that only waits (docs/architecture.md, "A check").
  yield* facts.prefetch(webHosts(facts.domain).flatMap(addressQuestions))
  const found = yield* Effect.forEach(webHosts(facts.domain), (host) => Effect.either(facts.addresses(host)))
  const webTargets = webHosts(facts.domain).flatMap((host, i) => {
    const f = found[i]!
    return Either.isLeft(f)
      ? []
      : [...f.right.v4.slice(0, ADDRESSES_PER_FAMILY), ...f.right.v6.slice(0, ADDRESSES_PER_FAMILY)].map(
          (address) => ({ service: "web" as const, host, address })
        )
  })
  const mailTargets = targets(servers).map((t) => ({ service: "mail" as const, host: t.host, address: t.ip }))
  // Facts memoises each (host, address): the web's www and apex on one address are asked apart (SNI).
  const start = (t: Omit<Asked, "answer">): Effect.Effect<Effect.Effect<KeyExchangeAnswer>> =>
    enumeratesTls(facts.depth, t.service)
      ? facts.startAsk(KeyExchange, { servers: t.service, host: t.host, address: t.address })
      : Effect.succeed(Effect.succeed({ kind: "not-checked", message: NOT_ENUMERATED }))
  const all = [...webTargets, ...mailTargets]
  const answers = yield* Effect.forEach(all, start)
  const asked = yield* Effect.forEach(all, (t, i) =>
    Effect.map(answers[i]!, (answer): Asked => ({ ...t, answer }))
  )
  return {
    domain: facts.domain,
    webLookup: webTargets.length > 0 ? "answer" : found.some(Either.isLeft) ? "unknown" : "none",
    mxStatus: servers.mxStatus,
    mxError: servers.mxStatus === "unknown" ? mxUnknown(servers) : null,
    asked
  } satisfies PqKexGathered
}).pipe(traced("PqKex.gather", {}))

export const PqKex = define(about, { gather, analyse, exampleGathered })
