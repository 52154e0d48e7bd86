import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { parseCommand, PREVIEW_USAGE, SCAN_USAGE, SERVE_USAGE, USAGE } from "../../src/cli/Commands.ts"
import { USAGE as BATCH_USAGE } from "../../src/batch/Cli.ts"

const command = (...argv: Array<string>) => Either.getOrThrow(parseCommand(argv))
const problem = (...argv: Array<string>) =>
  Either.getLeft(parseCommand(argv)).pipe((o) => (o._tag === "Some" ? o.value : undefined))

describe("parseCommand", () => {
  it("reads each subcommand", () => {
    expect(command("serve")).toEqual({ _tag: "Serve" })
    expect(command("scan", "perfect.com")).toEqual({ _tag: "Scan", domain: "perfect.com", json: false })
    expect(command("scan", "--json", "perfect.com")).toEqual({
      _tag: "Scan",
      domain: "perfect.com",
      json: true
    })
    const batch = command("batch", "-", "--format", "csv")
    expect(batch._tag === "Batch" && batch.options).toMatchObject({
      input: "-",
      format: "csv",
      out: undefined
    })
  })

  it("normalises the domain to scan as the API does", () => {
    expect(command("scan", "https://Bücher.DE/path")).toMatchObject({ domain: "xn--bcher-kva.de" })
    expect(problem("scan", "printer.local")?.message).toMatch(/^domain must be a hostname/)
  })

  it("answers --help with each command's text", () => {
    expect(command("--help")).toEqual({ _tag: "Help", text: USAGE })
    expect(command("help")).toEqual({ _tag: "Help", text: USAGE })
    expect(command("serve", "--help")).toEqual({ _tag: "Help", text: SERVE_USAGE })
    expect(command("scan", "-h")).toEqual({ _tag: "Help", text: SCAN_USAGE })
    expect(command("batch", "--help")).toEqual({ _tag: "Help", text: BATCH_USAGE })
  })

  it("gives a usage error, with the usage of the command concerned", () => {
    expect(problem()).toEqual({ message: "name a command", usage: USAGE })
    expect(problem("scna", "perfect.com")).toEqual({ message: "unknown command 'scna'", usage: USAGE })
    expect(problem("scan")?.usage).toBe(SCAN_USAGE)
    expect(problem("scan", "a.com", "b.com")?.message).toBe("one domain at a time; got 2: a.com b.com")
    expect(problem("scan", "perfect.com", "--jsno")?.message).toMatch(/Unknown option '--jsno'/)
    expect(problem("serve", "now")?.usage).toBe(SERVE_USAGE)
    expect(problem("batch", "-", "--concurrency", "0")?.usage).toBe(BATCH_USAGE)
  })

  it("reads a preview's records and removals, and refuses a preview of nothing", () => {
    expect(
      command(
        "preview",
        "Example.com",
        "--record",
        "_dmarc.example.com TXT v=DMARC1; p=reject",
        "--record",
        "@ mx 10 mail.example.com.",
        "--remove",
        "www.example.com CNAME",
        "--json"
      )
    ).toEqual({
      _tag: "Preview",
      domain: "example.com",
      records: [
        { name: "_dmarc.example.com", type: "TXT", value: "v=DMARC1; p=reject" },
        { name: "@", type: "MX", value: "10 mail.example.com." }
      ],
      remove: [{ name: "www.example.com", type: "CNAME" }],
      json: true
    })
    expect(problem("preview", "example.com")?.usage).toBe(PREVIEW_USAGE)
    expect(problem("preview", "example.com", "--record", "justaname")?.message).toContain(
      "not 'name TYPE value'"
    )
  })
})
