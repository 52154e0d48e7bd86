/**
 * The service's public signing keys (docs/reports.md "Signature"), at the origin's well-known
 * location (RFC 8615) rather than under /api: a verifier finds them from any URL of the service, and
 * the path names what it holds. The shape is report/Jws.ts's.
 */
import { HttpApiGroup } from "@effect/platform"
import { JwkSet } from "../report/Jws.ts"
import { Endpoint } from "./Docs.ts"
import { cheap } from "./Cost.ts"

/** The path of the key set, outside `/api` (Api.ts adds this group after the prefix). */
export const KEYS_PATH = "/.well-known/domain-audit-keys.json"

const signingKeys = Endpoint.get("signingKeys", KEYS_PATH, {
  summary: "The keys that sign snapshots and evidence",
  description:
    "A JWK Set (RFC 7517) of the Ed25519 public keys (RFC 8037) whose signatures snapshots (evidence.signature) and history evidence exports (signature) carry: JWS with detached payload, kid the key's RFC 7638 thumbprint. Check a copy with `domain-audit verify <copy> --key <this URL>`."
})
  .annotateContext(cheap)
  .addSuccess(JwkSet)

export class SigningKeysApi extends HttpApiGroup.make("signingKeys").add(signingKeys) {}
