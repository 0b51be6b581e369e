// `flowmcp-grading/entry`: entry validation alone, for callers (an LLM grader's output check, a
// web form) that need nothing else. The root entry point exports the same function.
// The validate-only validateGradingEntry (no re-check against a source, no envelope: BND-011); acceptGradingEntry is
// the full intake call and carries what it needs, so a bundle that imports only the first stays small.
export { isGradingEntry, validateGradingEntry } from './grading/validate-entry.js'
export { acceptGradingEntry } from './intake/accept.js'
export { parseJson } from './json/guard.js'
export type { AcceptEntryInput } from './intake/accept.js'
export type { EntryExpectation } from './grading/binding.js'
export type { AnswerProvenance, AnswerStanding, EntryProvenance } from './grading/provenance.js'
export type { DsseEnvelope, DsseSignature, Ed25519Jwk, TrustedKey } from './hashing/attest.js'
export type {
    EntryCheckOptions,
    GradingEntryValidation,
    InvalidEntryResult,
    ValidEntryResult,
    ValidateEntryInput
} from './grading/validate-entry.js'
export type { QuestionId } from './model/question-ids.js'
export { DEFAULT_JSON_LIMITS } from './json/guard.js'
export type { JsonLimits } from './json/guard.js'
export type { ErrorCode, Issue, Severity } from './errors/index.js'
export type { GradingEntry } from './model/types.js'
