export { ErrorCodes } from './error-codes.js'
export type { ErrorCode } from './catalogue/index.js'
export type { ErrorCodeDefinition, Issue, Severity } from './types.js'
