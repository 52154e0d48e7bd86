/**
 * The service's Ed25519 signing key (docs/reports.md "Signature"): what signs snapshots and evidence
 * exports, and the public key set `GET /.well-known/domain-audit-keys.json` publishes.
 *
 * - `SIGNING_KEY_FILE` names a PEM PKCS#8 Ed25519 private key the operator keeps (and backs up,
 *   and shares between the processes of one deployment).
 * - Without it, the key is `DATA_DIR/signing-key.pem`: generated on the first start, written with
 *   mode 0600 and exclusively (`wx`, so two processes starting on one DATA_DIR end up with one key,
 *   the first one's), and read on every later start. Signatures stored in snapshots stay checkable
 *   only while their key is published, so the key is kept, never rotated by the service itself.
 * - Loaded when the layer is built: a key that cannot be read or is not Ed25519 stops the start
 *   with the reason, rather than leaving evidence unsigned.
 */
import { createPrivateKey, generateKeyPairSync, type KeyObject } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { AppConfig } from "../Config.ts"
import { type JwkSet, type PublicJwk, publicJwkOf, signDetached } from "./Jws.ts"

/** The file in DATA_DIR that holds the generated key. */
export const GENERATED_KEY_FILE = "signing-key.pem"

const readKey = (file: string): KeyObject => {
  const key = createPrivateKey(readFileSync(file, "utf8"))
  if (key.asymmetricKeyType !== "ed25519")
    throw new Error(`${file} holds an ${key.asymmetricKeyType ?? "unknown"} key, not an Ed25519 one`)
  return key
}

/** The key in `dataDir`, generated (mode 0600) when there is none yet; `generated` says which. */
const keptKey = (dataDir: string): { readonly key: KeyObject; readonly generated: boolean } => {
  const file = join(dataDir, GENERATED_KEY_FILE)
  if (existsSync(file)) return { key: readKey(file), generated: false }
  mkdirSync(dataDir, { recursive: true })
  const pem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" })
  try {
    writeFileSync(file, pem, { mode: 0o600, flag: "wx" })
  } catch (e) {
    // another process on this DATA_DIR wrote it first: its key is the one
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
    return { key: readKey(file), generated: false }
  }
  return { key: readKey(file), generated: true }
}

export class SigningKey extends Effect.Service<SigningKey>()("SigningKey", {
  effect: Effect.gen(function* () {
    const { signingKeyFile, dataDir } = yield* AppConfig
    const { key: privateKey, generated } = yield* Effect.try({
      try: () =>
        signingKeyFile !== "" ? { key: readKey(signingKeyFile), generated: false } : keptKey(dataDir),
      catch: (e) =>
        new Error(`the signing key cannot be loaded: ${e instanceof Error ? e.message : String(e)}`)
    }).pipe(Effect.orDie)
    const jwk: PublicJwk = publicJwkOf(privateKey)
    const source = signingKeyFile !== "" ? signingKeyFile : join(dataDir, GENERATED_KEY_FILE)
    // A new key is worth an operator's notice: signatures made with a lost one no longer match the
    // published key set.
    yield* (generated ? Effect.logInfo("signing key generated") : Effect.logDebug("signing key loaded")).pipe(
      Effect.annotateLogs({ kid: jwk.kid, file: source })
    )

    /** A detached JWS (Jws.ts) over `payload`, the canonical bytes a hash covers. */
    const sign = (payload: string): string => signDetached(payload, privateKey, jwk)

    /** The published key set: the one key this service signs with. */
    const keySet: JwkSet = { keys: [jwk] }

    return { sign, jwk, keySet } as const
  })
}) {}
