export type { ErrorCode } from './catalogue/index.js'
export type { ErrorCodeDefinition, Issue, IssueLike, Severity } from './types.js'
