// The validators the library checks documents with: one per document kind, each ajv's standalone code for a
// shipped JSON Schema, generated at build time (scripts/validators.mjs) and served as ./generated.mjs by the tsup
// and vitest plugins; nothing is compiled at run time. Each is a pure constant, so a bundle keeps only the
// validators (and patterns, formats) it reaches.
export {
    validate_aboutNamespace,
    validate_aboutSelection,
    validate_namespaceDescription,
    validate_namespaceSkills,
    validate_selectionAggregate,
    validate_selectionSkillsL1,
    validate_selectionSkillsL2,
    validate_selectionSkillsL3,
    validate_singleTest,
    validate_toolsAggregateNamespace,
    validate_toolsAggregateSchema,
    validateBlocker,
    validateGradingModel,
    validateIndexJson,
    validatePromptsV1,
    validatePromptsV2,
    validateScoresV1,
    validateScoresV2,
    validateWorkflowRubricSchema
} from './generated.mjs'
