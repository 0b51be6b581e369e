// The declarations of the validators generated at build time from schemas/ (scripts/validators.mjs). No module
// src/validation/generated.mjs exists: tsup's and vitest's plugins serve it; this file lets tsc check its users.
import type { ValidateFunction } from './types.js'

export declare const validateGradingModel: ValidateFunction
export declare const validateIndexJson: ValidateFunction
export declare const validatePromptsV1: ValidateFunction
export declare const validateScoresV1: ValidateFunction
export declare const validatePromptsV2: ValidateFunction
export declare const validateScoresV2: ValidateFunction
export declare const validateWorkflowRubricSchema: ValidateFunction
export declare const validateBlocker: ValidateFunction
export declare const validate_singleTest: ValidateFunction
export declare const validate_toolsAggregateSchema: ValidateFunction
export declare const validate_toolsAggregateNamespace: ValidateFunction
export declare const validate_namespaceDescription: ValidateFunction
export declare const validate_namespaceSkills: ValidateFunction
export declare const validate_aboutNamespace: ValidateFunction
export declare const validate_aboutSelection: ValidateFunction
export declare const validate_selectionSkillsL1: ValidateFunction
export declare const validate_selectionSkillsL2: ValidateFunction
export declare const validate_selectionSkillsL3: ValidateFunction
export declare const validate_selectionAggregate: ValidateFunction
