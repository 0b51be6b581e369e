// `flowmcp-grading/entry`: entry validation alone, for callers (an LLM grader's output check, a
// web form) that need nothing else. The root entry point exports the same function.
export { isGradingEntry, validateGradingEntry } from './grading/validate-entry.js'
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
