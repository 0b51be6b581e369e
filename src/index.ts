// Public surface: every export is listed explicitly.
export {
    getVersion,
    GRADING_SPEC_VERSION,
    SCORING_SYSTEM_VERSION,
    GRADING_SYSTEM_VERSION,
    SCORING_PROTOCOL_VERSION,
    PACKAGE_VERSION,
    SCORING_SYSTEM_REGEX,
    GRADING_SYSTEM_REGEX,
    GRADING_SPEC_REGEX,
    FLOWMCP_VERSION_REGEX
} from './version.js'
export type { VersionInfo } from './version.js'
export { ErrorCodes } from './errors/index.js'
export type { ErrorCode, ErrorCodeDefinition, Issue, Severity } from './errors/index.js'
export { HashGenerator } from './hashing/hash-generator.js'
export type { HashResult } from './hashing/hash-generator.js'
export { DEFAULT_JSON_LIMITS } from './json/guard.js'
export type { JsonLimits } from './json/guard.js'
