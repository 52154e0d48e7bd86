/**
 * The world's mailbox (docs/world.md): mail sent through its relay (WORLD_MAIL_RELAY, port 25) to
 * any address at WORLD_MAILBOX_DOMAIN lands as a file in the Maildir WORLD_MAILBOX_DIR, with a
 * Delivered-To header naming its recipient; mail for any other domain is not delivered. A world
 * built before the mailbox existed has no WORLD_MAIL_RELAY: the test says so and is skipped there.
 */
import { randomUUID } from "node:crypto"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import nodemailer from "nodemailer"
import { describe, expect, it } from "vitest"
import { worldEnv } from "./env.ts"

const env = worldEnv()
const relay = env.WORLD_MAIL_RELAY
const dir = env.WORLD_MAILBOX_DIR ?? ""
const domain = env.WORLD_MAILBOX_DOMAIN ?? ""

if (relay === undefined)
  process.stderr.write("world: this world has no mailbox (built before it existed): mailbox test skipped\n")

const send = (to: string, subject: string) =>
  nodemailer
    .createTransport({ host: relay, port: Number(env.SMTP_PORT ?? 25), secure: false })
    .sendMail({ from: "monitor@perfect.com", to, subject, text: `${subject}\r\n` })

/** The mailbox's messages whose Subject is `subject`, waiting up to `ms` for them. */
const delivered = async (subject: string, ms = 20_000): Promise<Array<string>> => {
  const deadline = Date.now() + ms
  for (;;) {
    const found = existsSync(join(dir, "new"))
      ? readdirSync(join(dir, "new"))
          .map((f) => readFileSync(join(dir, "new", f), "utf8"))
          .filter((m) => m.includes(`\nSubject: ${subject}\n`))
      : []
    if (found.length > 0 || Date.now() > deadline) return found
    await new Promise((ok) => setTimeout(ok, 200))
  }
}

describe.skipIf(relay === undefined)("the world's mailbox", () => {
  it("keeps a message to any address at its domain, with Delivered-To", async () => {
    const subject = `mailbox test ${randomUUID()}`
    const info = await send(`alerts@${domain}`, subject)
    expect(info.response).toMatch(/^250 /)
    const [message, ...more] = await delivered(subject)
    expect(more).toEqual([])
    expect(message).toContain(`Delivered-To: alerts@${domain}\n`)
    expect(message).toContain("From: monitor@perfect.com\n")
  }, 60_000)

  it("delivers nothing for another domain (the world never relays)", async () => {
    const subject = `mailbox test ${randomUUID()}`
    // Accepted for a scenario domain (the world's MTAs take its mail), then discarded.
    await send("someone@perfect.com", subject)
    expect(await delivered(subject, 3_000)).toEqual([])
    await expect(send("someone@example.org", subject)).rejects.toThrow(/Relay access denied/)
  }, 60_000)
})
