/**
 * The full `validateGradingEntry` of the root entry point: the validate-only checks of `grading/validate-entry.ts`
 * plus the re-check against `expect.source` (a JavaScript parser, the public-suffix list, the security scan) and the
 * envelope check (Ed25519), which the validate-only bundle of `flowmcp-grading/entry` leaves out.
 */
import type { GradingEntryValidation, ValidateEntryInput } from '../grading/validate-entry.js'
import { validateWith } from '../grading/validate-entry.js'
import type { IntakeExtensions } from '../grading/provenance.js'
import { recheckEntry } from '../deterministic/recheck.js'
import { verifyEntryEnvelope } from '../hashing/attest.js'

/** The parts of intake beyond the validate-only bundle. */
export const INTAKE_EXTENSIONS: IntakeExtensions = Object.freeze({
    recheck: recheckEntry,
    verify: verifyEntryEnvelope
})

/**
 * Validates one grading entry as `flowmcp-grading/entry`'s `validateGradingEntry` does, and also: given
 * `expect.source`, computes the schema hash from it and re-checks every deterministic answer the source decides
 * (RCK-001, forged veto RCK-002, hidden veto RCK-003; answers needing HTTP evidence are `unverifiable` in
 * `provenance`); given `envelope` and `trustedKeys`, verifies the DSSE signature over the entry's canonical bytes and
 * binds the grader to the key (`provenance.graderKeyId`; ATT-001…004). See docs/registry.md.
 * @param input - `{ entry, expect?, envelope?, trustedKeys?, now?, strict?, maxClockSkewMs?, limits? }`
 * @returns `{ valid: true, entry, errors, agedGrade, provenance }` or `{ valid: false, errors }`
 * @example
 * const r = validateGradingEntry({ entry, strict: true, now: new Date(), expect: { schemaId, source } })
 * if (r.valid) r.provenance.answers.filter((a) => a.standing === 'self-declared')
 */
export function validateGradingEntry(input: ValidateEntryInput): GradingEntryValidation {
    return validateWith(input, INTAKE_EXTENSIONS)
}
