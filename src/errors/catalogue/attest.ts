import { defineCodes } from '../define.js'

/** Attestation: DSSE envelopes over an entry's canonical bytes, Ed25519 JWK keys (docs/registry.md). */
export const ATTEST_CODES = defineCodes({
    'ATT-001': [
        'error',
        'Not a usable envelope or key: {detail}',
        'library intake: DSSE envelope, RFC 8037 Ed25519 JWK'
    ],
    'ATT-002': [
        'error',
        "The envelope's payload is not this entry's RFC 8785 canonical bytes: the entry was changed after it was signed, or the envelope belongs to another entry",
        'library intake: a signature covers the exact entry'
    ],
    'ATT-003': [
        'error',
        'No signature of the envelope (key ids: {keyIds}) verifies with a trusted key',
        'library intake: who graded is proven by a trusted key'
    ],
    'ATT-004': [
        'error',
        'Key {keyId} signed an answer of grader {grader}, but it may only sign for {graders}',
        'library intake: a key is bound to its graders'
    ],
    'ATT-005': ['error', 'The entry cannot be signed: {detail}', 'library: Grading.sign signs a valid entry']
})
