import master from '../../schemas/area-output/_master.schema.json' with { type: 'json' }
import aboutNamespace from '../../schemas/area-output/about-namespace.schema.json' with { type: 'json' }
import aboutSelection from '../../schemas/area-output/about-selection.schema.json' with { type: 'json' }
import namespaceDescription from '../../schemas/area-output/namespace-description.schema.json' with { type: 'json' }
import namespaceSkills from '../../schemas/area-output/namespace-skills.schema.json' with { type: 'json' }
import selectionAggregate from '../../schemas/area-output/selection-aggregate.schema.json' with { type: 'json' }
import selectionSkillsL1 from '../../schemas/area-output/selection-skills-L1.schema.json' with { type: 'json' }
import selectionSkillsL2 from '../../schemas/area-output/selection-skills-L2.schema.json' with { type: 'json' }
import selectionSkillsL3 from '../../schemas/area-output/selection-skills-L3.schema.json' with { type: 'json' }
import singleTest from '../../schemas/area-output/single-test.schema.json' with { type: 'json' }
import toolsAggregateNamespace from '../../schemas/area-output/tools-aggregate-namespace.schema.json' with {
    type: 'json'
}
import toolsAggregateSchema from '../../schemas/area-output/tools-aggregate-schema.schema.json' with { type: 'json' }
import gradingModel from '../../schemas/grading-model.schema.json' with { type: 'json' }
import indexSchema from '../../schemas/index.schema.json' with { type: 'json' }
import promptsV1 from '../../schemas/prompts-v1.schema.json' with { type: 'json' }
import promptsV2 from '../../schemas/prompts-v2.schema.json' with { type: 'json' }
import scoresV1 from '../../schemas/scores-v1.schema.json' with { type: 'json' }
import scoresV2 from '../../schemas/scores-v2.schema.json' with { type: 'json' }
import workflowRubric from '../../schemas/workflow-rubric.schema.json' with { type: 'json' }
import { schemaValidator } from './interpret.js'
import type { ValidateFunction } from './types.js'

// The validators the library checks documents with: the shipped JSON Schemas, each compiled into
// closures on its first call (src/validation/interpret.ts), so a bundle that never validates a kind
// of document pays nothing for it at load. References are plain string literals: a bundler keeps a
// pure call whose arguments read a property or fill a template, and with it every schema.
const areaSchemas = [
    master,
    singleTest,
    toolsAggregateSchema,
    toolsAggregateNamespace,
    namespaceDescription,
    namespaceSkills,
    aboutNamespace,
    aboutSelection,
    selectionSkillsL1,
    selectionSkillsL2,
    selectionSkillsL3,
    selectionAggregate
]

export const validateGradingModel: ValidateFunction = /* @__PURE__ */ schemaValidator(
    [gradingModel],
    'https://flowmcp.org/spec/grading/2.0.0/grading-model.schema.json'
)
export const validateIndexJson: ValidateFunction = /* @__PURE__ */ schemaValidator(
    [indexSchema],
    'https://flowmcp.org/grading/2.0.1/index.schema.json'
)
export const validatePromptsV1: ValidateFunction = /* @__PURE__ */ schemaValidator(
    [promptsV1, scoresV1],
    'https://flowmcp-grading.dev/schemas/prompts-v1.schema.json'
)
export const validateScoresV1: ValidateFunction = /* @__PURE__ */ schemaValidator(
    [promptsV1, scoresV1],
    'https://flowmcp-grading.dev/schemas/scores-v1.schema.json'
)
export const validatePromptsV2: ValidateFunction = /* @__PURE__ */ schemaValidator(
    [promptsV2, scoresV2],
    'https://flowmcp-grading.dev/schemas/prompts-v2.schema.json'
)
export const validateScoresV2: ValidateFunction = /* @__PURE__ */ schemaValidator(
    [promptsV2, scoresV2],
    'https://flowmcp-grading.dev/schemas/scores-v2.schema.json'
)
export const validateWorkflowRubricSchema: ValidateFunction = /* @__PURE__ */ schemaValidator(
    [workflowRubric],
    'https://flowmcp-grading.dev/schemas/workflow-rubric.schema.json'
)

export const validate_singleTest: ValidateFunction = /* @__PURE__ */ schemaValidator(
    areaSchemas,
    'https://flowmcp-grading.dev/schemas/area-output/single-test.schema.json#/$defs/envelope'
)
export const validate_toolsAggregateSchema: ValidateFunction = /* @__PURE__ */ schemaValidator(
    areaSchemas,
    'https://flowmcp-grading.dev/schemas/area-output/tools-aggregate-schema.schema.json#/$defs/envelope'
)
export const validate_toolsAggregateNamespace: ValidateFunction = /* @__PURE__ */ schemaValidator(
    areaSchemas,
    'https://flowmcp-grading.dev/schemas/area-output/tools-aggregate-namespace.schema.json#/$defs/envelope'
)
export const validate_namespaceDescription: ValidateFunction = /* @__PURE__ */ schemaValidator(
    areaSchemas,
    'https://flowmcp-grading.dev/schemas/area-output/namespace-description.schema.json#/$defs/envelope'
)
export const validate_namespaceSkills: ValidateFunction = /* @__PURE__ */ schemaValidator(
    areaSchemas,
    'https://flowmcp-grading.dev/schemas/area-output/namespace-skills.schema.json#/$defs/envelope'
)
export const validate_aboutNamespace: ValidateFunction = /* @__PURE__ */ schemaValidator(
    areaSchemas,
    'https://flowmcp-grading.dev/schemas/area-output/about-namespace.schema.json#/$defs/envelope'
)
export const validate_aboutSelection: ValidateFunction = /* @__PURE__ */ schemaValidator(
    areaSchemas,
    'https://flowmcp-grading.dev/schemas/area-output/about-selection.schema.json#/$defs/envelope'
)
export const validate_selectionSkillsL1: ValidateFunction = /* @__PURE__ */ schemaValidator(
    areaSchemas,
    'https://flowmcp-grading.dev/schemas/area-output/selection-skills-L1.schema.json#/$defs/envelope'
)
export const validate_selectionSkillsL2: ValidateFunction = /* @__PURE__ */ schemaValidator(
    areaSchemas,
    'https://flowmcp-grading.dev/schemas/area-output/selection-skills-L2.schema.json#/$defs/envelope'
)
export const validate_selectionSkillsL3: ValidateFunction = /* @__PURE__ */ schemaValidator(
    areaSchemas,
    'https://flowmcp-grading.dev/schemas/area-output/selection-skills-L3.schema.json#/$defs/envelope'
)
export const validate_selectionAggregate: ValidateFunction = /* @__PURE__ */ schemaValidator(
    areaSchemas,
    'https://flowmcp-grading.dev/schemas/area-output/selection-aggregate.schema.json#/$defs/envelope'
)
export const validateBlocker: ValidateFunction = /* @__PURE__ */ schemaValidator(
    areaSchemas,
    'https://flowmcp-grading.dev/schemas/area-output/_master.schema.json#/$defs/blocker'
)
