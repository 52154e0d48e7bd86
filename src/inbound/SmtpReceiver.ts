/**
 * The built-in SMTP receiver for reports mailed to a `rua=mailto:` (RFC 7489 7.2.1.1) or a TLS-RPT
 * `rua=mailto:` (RFC 8460 3): smtp-server speaks SMTP; each message goes to `ReportsIn.mail`. It
 * accepts RCPT only for the domains of `REPORTS_DOMAINS`, refuses a message over
 * `REPORTS_MAX_BYTES` (SIZE, RFC 1870), and answers the end of DATA with 250 only once the report
 * is stored: a malformed or hostile report gets a 5xx naming the problem, a store that cannot
 * answer a 4xx so the sender retries (RFC 5321 4.2.5). Failure reports (RFC 7489 7.3, a `ruf=`)
 * go to `FailureReportsIn`. Every report is authenticated as its session and message allow
 * (DMARC of its From domain: MailAuthenticity.ts), and the verdict stored with it. Once API keys
 * exist, a report for a domain that no tenant among its recipients has verified is kept apart
 * (unclaimed, docs/access.md) and the sender told the same 250, which says nothing of who owns what.
 */
import { Cause, Effect, Exit, Layer, Runtime } from "effect"
import { SMTPServer } from "smtp-server"
import { AppConfig } from "../Config.ts"
import { Resolver } from "../net/Resolver.ts"
import { looksLikeFailureReport } from "./FailureDecode.ts"
import { FailureReportsIn } from "./FailureReportsIn.ts"
import { authenticateMail } from "./MailAuthenticity.ts"
import { refuse, ReportRefused } from "./Refusal.ts"
import { ReportRecipients, routeFor } from "./ReportRecipients.ts"
import { ReportsIn } from "./ReportsIn.ts"

/** An SMTP reply as smtp-server sends it: the error's message after the code. */
const reply = (code: number, text: string) =>
  Object.assign(new Error(text.replace(/[\r\n]+/g, " ").slice(0, 400)), { responseCode: code })

/** RFC 3463 enhanced status per refusal: 5.3.4 too big, 5.6.x media/content problems. */
const refusalReply = (e: ReportRefused) =>
  e.kind === "too-large" ? reply(552, `5.3.4 ${e.message}`) : reply(550, `5.6.0 report refused: ${e.message}`)

/** The recipient's domain, lower case. */
export const recipientDomain = (address: string) => address.slice(address.lastIndexOf("@") + 1).toLowerCase()

/** The recipient's local part, as the report addresses are matched: lower case (tags are). */
const localPart = (address: string) => address.slice(0, address.lastIndexOf("@")).toLowerCase()

/** RCPT at one of REPORTS_DOMAINS: a tenant's address (or any, with no tenant), 550 otherwise. */
const recipientVerdict = (recipients: ReportRecipients["Type"], address: string) =>
  Effect.map(recipients.check(localPart(address)), (verdict) =>
    verdict === "accept"
      ? undefined
      : verdict === "unknown"
        ? reply(550, `5.1.1 <${address.slice(0, 80)}>: no such report address here`)
        : reply(451, "4.3.0 the report addresses cannot be checked now; try again later")
  )

/** Listening on REPORTS_SMTP_HOST:REPORTS_SMTP_PORT while the app runs; nothing when the port is 0. */
export const ReportsSmtpLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (config.reportsSmtpPort === 0) return
    if (config.reportsDomains.length === 0)
      return yield* Effect.dieMessage(
        "REPORTS_SMTP_PORT is set but REPORTS_DOMAINS is empty: no mail would be accepted"
      )
    const inbound = yield* ReportsIn
    const recipients = yield* ReportRecipients
    const failures = yield* FailureReportsIn
    const lookups = yield* Effect.context<Resolver>()
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    const domains = new Set(config.reportsDomains)
    const maxBytes = inbound.limits.maxBytes
    const server = new SMTPServer({
      name: config.reportsSmtpName,
      banner: "domain-audit: DMARC and TLS reports in",
      size: maxBytes,
      authOptional: true,
      disabledCommands: ["AUTH", "STARTTLS"],
      hideSTARTTLS: true,
      logger: false,
      onRcptTo: (address, _session, callback) =>
        domains.has(recipientDomain(address.address))
          ? runFork(recipientVerdict(recipients, address.address)).addObserver((exit) =>
              callback(Exit.isSuccess(exit) ? exit.value : reply(451, "4.3.0 try again later"))
            )
          : callback(
              reply(
                550,
                `5.1.1 <${address.address.slice(0, 80)}>: this receiver takes reports only for ${config.reportsDomains.join(", ").slice(0, 200)}`
              )
            ),
      onData: (stream, session, callback) => {
        const chunks: Array<Buffer> = []
        let size = 0
        stream.on("data", (chunk: Buffer) => {
          size += chunk.length
          if (size <= maxBytes) chunks.push(chunk)
        })
        stream.on("end", () => {
          if (stream.sizeExceeded || size > maxBytes) {
            const error = refuse("too-large", `the message is larger than ${maxBytes} bytes`)
            runFork(inbound.refusedEarly("smtp", error))
            return callback(refusalReply(error))
          }
          const bytes = Buffer.concat(chunks)
          const authenticity = authenticateMail(bytes, {
            ip: session.remoteAddress,
            helo: session.hostNameAppearsAs ?? "",
            mailFrom: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address
          }).pipe(Effect.provide(lookups), Effect.provideService(AppConfig, config))
          // whose report it is: the tenants whose addresses took it (RCPT accepted only theirs)
          const tenants = Effect.forEach(
            session.envelope.rcptTo.filter((r) => domains.has(recipientDomain(r.address))),
            (r) => recipients.tenantOf(localPart(r.address))
          )
          const route = (reported: ReadonlyArray<string>) =>
            Effect.flatMap(tenants, (owners) => routeFor(recipients, owners, reported))
          const fiber = runFork(
            looksLikeFailureReport(bytes)
              ? Effect.map(failures.take(bytes, "smtp", authenticity, route), (r) => ({
                  name: `failure report on ${r.domain}`,
                  reporter: r.reporter,
                  duplicate: r.duplicate,
                  authentication: r.authentication
                }))
              : Effect.map(inbound.mail(bytes, authenticity, route), (r) => ({
                  name: `report ${r.reportId.slice(0, 80)}`,
                  reporter: r.reporter,
                  duplicate: r.duplicate,
                  authentication: r.authentication
                }))
          )
          fiber.addObserver((exit) => {
            if (Exit.isSuccess(exit))
              return callback(
                null,
                `2.0.0 ${exit.value.name.slice(0, 120)} from ${exit.value.reporter.slice(0, 80)} ${exit.value.duplicate ? "was already stored" : "stored"}; ${exit.value.authentication.slice(0, 160)}`
              )
            const failure = Cause.failureOption(exit.cause)
            if (failure._tag === "Some" && failure.value instanceof ReportRefused)
              return callback(refusalReply(failure.value))
            callback(reply(451, "4.3.0 the report could not be stored now; try again later"))
          })
        })
      }
    })
    yield* Effect.acquireRelease(
      Effect.async<void>((resume) => {
        server.once("error", (e) => resume(Effect.die(e)))
        server.listen(config.reportsSmtpPort, config.reportsSmtpHost, () => resume(Effect.void))
      }),
      () => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
    )
    // errors after start (a client's broken connection) are the connection's, not the server's
    server.on("error", (e) => runFork(Effect.logWarning("reports SMTP receiver", e.message)))
    yield* Effect.logInfo(`reports SMTP receiver on ${config.reportsSmtpHost}:${config.reportsSmtpPort}`)
  })
)
