/**
 * A check of one domain: `GET <path>?domain=`, the check's result, and 400 for a domain that cannot
 * be scanned. The checks served alone are declared with it (ServedChecks.ts), and so are the DNS
 * and email groups' checks that take nothing but the domain.
 */
import type { Schema } from "effect"
import { type About, Endpoint } from "./Docs.ts"
import { DomainQuery } from "./Domain.ts"
import { BadRequest } from "./Errors.ts"

export const domainCheck = <const Name extends string, A, I>(
  name: Name,
  path: `/${string}`,
  success: Schema.Schema<A, I>,
  about: About
) => Endpoint.get(name, path, about).setUrlParams(DomainQuery).addSuccess(success).addError(BadRequest)
