import { defineCodes, LOWERS_STRUCTURE } from '../define.js'

/**
 * A beginner mistake (SCH-WARN-021…024): a warning that lowers no score, so the fix list ranks it
 * after the other warnings and the judge's answers that cost grade points (a warning's usual 0.5 would
 * put a schema's dozen undescribed parameters before them).
 */
const BEGINNER_MISTAKE = Object.freeze({ kind: 'none', cost: 0.1 } as const)

/**
 * Structural validation of a FlowMCP v4 `main` (05 §2.3, 03 §13.1), schema ids (01-model ⚠ A14) and the deterministic
 * answers built from them.
 */
export const SCHEMA_CODES = defineCodes({
    'SCH-001': ['error', 'main is not usable: {detail}', '05 §2.3 main: Missing export / Must be a plain object'],
    'SCH-002': ['error', 'main.skills is not allowed in v4 (skills are separate files)', '05 §2.3 VAL016'],
    'SCH-003': ['error', 'Unknown property {field} in main', '05 §2.3 VAL003 (strict main keys)'],
    'SCH-004': ['error', 'Required field missing: {field}', '05 §2.3 required fields'],
    'SCH-005': ['error', 'Type mismatch for field {field}: expected {expected}, got {actual}', '05 §2.3 field types'],
    'SCH-006': ['error', 'main needs tools or resources', '05 §2.3 tools or resources required'],
    'SCH-007': ['error', 'namespace must match ^[a-z][a-z0-9-]*$, got {value}', '05 §2.3 VAL011'],
    'SCH-008': ['error', 'version must be 4.x.y or flowmcp/4.x.y, got {value}', '05 §2.3 VAL014, 03 ⚠ C23'],
    'SCH-010': [
        'error',
        'root {value}: {detail}',
        '05 §2.3 MainValidator: root starts with https://, no trailing slash'
    ],
    'SCH-011': ['error', '{count} tools, at most {max} are allowed', '05 §2.3 at most 8 tools (VERSION-003)'],
    'SCH-013': ['error', 'Unknown property {field} in tool {tool}', '05 §2.3 VAL076 (strict tool keys)'],
    'SCH-014': ['error', 'method must be GET, POST, PUT or DELETE, got {value}', '05 §2.3 tool method'],
    'SCH-015': ['error', 'Unknown property {field} in parameter', '05 §2.3 VAL077 (strict parameter keys)'],
    'SCH-016': ['error', 'position.location must be insert, query or body, got {value}', '05 §2.3 parameter location'],
    'SCH-017': ['error', 'z.enum entries must be {{list:alias}} references, got {value}', '05 §2.3 VAL107'],
    'SCH-018': ['error', 'output.mimeType {value} is not one of {expected}', '05 §2.3 output mimeType'],
    'SCH-019': ['error', 'output.schema type {value}: {detail}', '05 §2.3 output schema type'],
    'SCH-020': [
        'error',
        '{keyword} is not allowed on an output schema of type {type}',
        '05 §2.3 properties only on objects, items only on arrays'
    ],
    'SCH-021': ['error', 'preload: {detail}', '05 §2.3 preload shape'],
    'SCH-022': ['error', 'tool meta {field} must be {expected}', '05 §2.3 VAL100-VAL106'],
    'SCH-028': ['error', 'sharedLists entry needs a non-empty {field}', '05 §2.3 sharedLists ref and version'],
    'SCH-029': ['error', 'resources: {detail}', '05 §2.3 resources (at most 2; source shapes)'],
    'SCH-031': ['error', 'Invalid id {value}: {detail}', '01-model ⚠ A14 id styles'],
    'SCH-WARN-001': ['warning', 'docs should be a non-empty array of non-empty URL strings', '05 §2.3 VAL027'],
    'SCH-WARN-002': [
        'warning',
        'termsOfService should be an https:// URL or no-tos-found, got {value}',
        '05 §2.3 VAL028'
    ],
    'SCH-WARN-003': ['warning', 'tool {tool} has {count} tests, it should have at least {minimum}', '05 §2.3 TST001'],
    'SCH-WARN-004': ['warning', 'root is empty', '05 §2.3 empty root is a warning'],
    'SCH-WARN-005': ['warning', 'tool name {tool} should be camelCase', '03 §13.1 camelCase tool keys'],
    'SCH-WARN-006': ['warning', 'library {library} is not on the allowlist', '05 §2.4 SEC020 library allowlist'],
    'SCH-WARN-007': [
        'warning',
        'main.schemaHash is a legacy in-source key; it is ignored',
        '03 §13.1 legacy schemaHash'
    ],
    'SCH-WARN-008': [
        'warning',
        'termsOfServiceCheckedAt should be YYYY-MM-DD, got {value}',
        '02 §12 Schemas-Spec v4.2 ToS fields'
    ],
    'SCH-WARN-009': [
        'warning',
        'test {index} of tool {tool} repeats test {first} (only _description differs)',
        '06 §19.5 DPT-008 duplicate tests'
    ],
    'SCH-WARN-010': ['warning', 'requiredServerParams lists {param} more than once', '03 §13.1 requiredServerParams'],
    // Spec-strict rules the FlowMCP runtime tolerates: reported and scored (Q-schema-structure), never blocking.
    'SCH-WARN-011': [
        'warning',
        'name should be PascalCase (^[A-Z][a-zA-Z0-9]*$), got {value}',
        '03 §13.1 name pattern (the runtime accepts any string)',
        LOWERS_STRUCTURE
    ],
    'SCH-WARN-012': [
        'warning',
        'tag should match ^[a-z][a-z0-9-]*$, got {value}',
        "03 §13.1 tags pattern (the runtime accepts any string); a note, not a warning, for the registry's cacheTtl… tags",
        LOWERS_STRUCTURE
    ],
    'SCH-WARN-013': [
        'warning',
        'root {value}: {detail}',
        '03 §13.1 root is a plain https URL (the runtime only checks the https:// prefix and the trailing slash)',
        LOWERS_STRUCTURE
    ],
    'SCH-WARN-014': [
        'warning',
        '{{{param}}} is used as a server parameter but {param} is not listed in requiredServerParams; the runtime sends an empty value',
        '03 §13.1 server params must be declared; 05 §2.5 request building',
        LOWERS_STRUCTURE
    ],
    'SCH-WARN-015': [
        'warning',
        'path placeholder {placeholder} of tool {tool} is neither an insert parameter nor a declared server parameter',
        '03 §13.1 path placeholders matched by insert parameters',
        LOWERS_STRUCTURE
    ],
    'SCH-WARN-016': [
        'warning',
        'insert parameter {key} of tool {tool} has no :{key} or {{{key}}} in the path',
        '03 §13.1 insert parameters fill path placeholders; 05 §2.5',
        LOWERS_STRUCTURE
    ],
    'SCH-WARN-017': [
        'warning',
        'test of tool {tool} sets {key}, which is not a declared parameter key{detail}; the runtime ignores it',
        '03 §13.1 tests reference declared parameter keys',
        LOWERS_STRUCTURE
    ],
    'SCH-WARN-018': [
        'warning',
        'parameter key {key} is declared twice in tool {tool}',
        '03 §13.1 parameter keys are unique',
        LOWERS_STRUCTURE
    ],
    'SCH-WARN-019': [
        'warning',
        'requiredServerParams entry {value} is not an environment variable name',
        '03 §13.1 requiredServerParams are env var names',
        LOWERS_STRUCTURE
    ],
    'SCH-WARN-020': [
        'warning',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        '03 §13.1 field types the runtime does not check',
        LOWERS_STRUCTURE
    ],
    // Beginner mistakes (docs/schema-checks.md): warnings found at their line; they lower no score.
    'SCH-WARN-021': [
        'warning',
        'test {index} of tool {tool} sets {key} to {value}, but the parameter is {primitive}: {detail}',
        "03 §13.1 test values are parameter values; flowmcp-core's ZodBuilder input schema (no coercion)",
        BEGINNER_MISTAKE
    ],
    'SCH-WARN-022': [
        'warning',
        'parameter {key} of tool {tool} has no description: a caller sees only its name and type',
        '05 §2.2 a parameter is { position, z, description }; 04 §1.2 parameters dimension',
        BEGINNER_MISTAKE
    ],
    'SCH-WARN-023': [
        'warning',
        'tool name {tool} is generic: name what the tool returns, such as getForecastByCity or listStations',
        '02 §3.2 a tool says what it does; 03 §13.1 camelCase tool keys',
        BEGINNER_MISTAKE
    ],
    'SCH-WARN-024': [
        'warning',
        'description of tool {tool} {detail}: say in one sentence what the tool returns and from which input',
        '02 §3.1 step 4, §3.2 a description says what a tool does (capability, parameters, return shape)',
        BEGINNER_MISTAKE
    ],
    'DET-001': ['error', 'Required field missing: {field}', 'library: DeterministicAnswers input'],
    'DET-002': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        'library: DeterministicAnswers input'
    ],
    'DET-WARN-001': [
        'warning',
        'Deterministic question {id} (dimension {dimension}) has no implementation; no answer was produced',
        '02 ⚠ B1 question sets are data'
    ]
})
