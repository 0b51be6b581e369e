import type { Issue } from '../errors/types.js'
import { attestIssue, readJwk, signEntryBytes, type DsseEnvelope } from '../hashing/attest.js'
import { validateGradingEntry } from './validate-entry.js'

/** Result of {@link signGradingEntry}: the envelope and the id of the key that signed, or why nothing was signed. */
export type SignEntryResult =
    | { readonly envelope: DsseEnvelope; readonly keyId: string; readonly errors: Issue[] }
    | { readonly envelope: null; readonly keyId: null; readonly errors: Issue[] }

/**
 * Signs a grading entry: a DSSE envelope over its RFC 8785 canonical bytes, Ed25519 with an RFC 8037 JWK private
 * key (`{ kty: 'OKP', crv: 'Ed25519', x?, d, kid? }`); the key id is `kid`, else the key's RFC 7638 thumbprint.
 * Only an entry `validateGradingEntry` accepts is signed (its checked copy: what a registry will verify).
 * @param input - `{ entry, privateKey }`
 * @returns `{ envelope, keyId, errors }` (errors: the entry's warnings) or `{ envelope: null, keyId: null, errors }`
 *   (ATT-001 a bad key, ATT-005 an invalid entry with its issues)
 * `Grading.sign` is the same function; this one alone keeps the rest of the Grading class out of a bundle.
 * @example const { envelope } = signGradingEntry({ entry, privateKey: jwk })
 */
export function signGradingEntry(input: { entry?: unknown; privateKey?: unknown }): SignEntryResult {
    const key = readJwk(input?.privateKey, '/privateKey', true)
    if (key.key === null) return { envelope: null, keyId: null, errors: key.issue === null ? [] : [key.issue] }
    const checked = validateGradingEntry({ entry: input.entry })
    if (!checked.valid)
        return {
            envelope: null,
            keyId: null,
            errors: [attestIssue('ATT-005', '/entry', { detail: 'it is not a valid grading entry' }), ...checked.errors]
        }
    return { envelope: signEntryBytes(checked.entry, key.key), keyId: key.key.keyId, errors: checked.errors }
}
