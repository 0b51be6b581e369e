// `flowmcp-grading/catalogue`: the tables and constants a host reads to inspect the rules (question
// catalogues, bands, thresholds, patterns, vocabularies, limits). They sit apart from the root entry
// point so that the root's list of names stays the functions a host calls; every name is listed.
export {
    ABOUT_AREAS,
    AREAS,
    BASE_PERSONAS,
    DETERMINISM_VALUES,
    FILE_TIMESTAMP_REGEX,
    GRADE_RANK,
    GRADER_KINDS,
    GRADING_MODES,
    GRADING_TIERS,
    HARNESSES,
    LEGAL_ASSESSMENT_QUESTION_ID,
    LEGAL_DISCLAIMER,
    LETTER_GRADES,
    MIN_WORKING_TESTS,
    NA_REASONS,
    NODE_STATUSES,
    PERSONA_AREAS,
    PER_SKILL_AREAS,
    PROVIDER_AREAS,
    REGRADING_TRIGGERS,
    ROLLUP_STATUSES,
    SCORE_ENUMS,
    SELECTION_AREAS,
    SEVERITIES,
    TIER_MAX_GRADE,
    UNIT_STATUSES,
    VETO_TRIGGERS
} from './model/constants.js'
export {
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
export { SCORE_MAPPING_V1 } from './scoring/scoring.js'
export {
    GRADE_BANDS_V1,
    GRADER_KIND_PRECEDENCE,
    NO_DOMAIN_KNOWLEDGE_REASON,
    SELECTION_MEMBER_THRESHOLDS
} from './grading/aggregate.js'
export { ENTRY_RULES } from './grading/entry-levels.js'
export { CROSS_AREA_QUESTIONS } from './grading/question-index.js'
export { CATALOGUE_QUESTION_IDS, CROSS_AREA_QUESTION_IDS } from './model/question-ids.js'
export { AGING_DEFAULTS, TIME_DEPENDENT_QUESTIONS } from './grading/aging.js'
export { ARTIFACT_HANDLERS } from './artifacts/detect.js'
export { MAX_TOOLS, RECOMMENDED_TESTS, LIBRARY_ALLOWLIST } from './schema/validate-main.js'
export { CODE_PATTERNS as SECURITY_PATTERNS } from './schema/security-scan.js'
export { GENERIC_KEY_TOKENS, GENERIC_HOST_LABELS, BRAND_ALIASES, KEY_GATEWAYS } from './schema/key-domain.js'
export { PARAMETERLESS_MIN_WORKING_TESTS, PRETEST_DEFAULTS, RESPONSE_SIZE_LIMITS } from './pretest/data-pretest.js'
export {
    DEFAULT_EXTRA_WEIGHTS,
    DEFAULT_GRADER,
    EXTRA_QUESTION_IDS,
    SECURITY_SCORE_V1,
    SCHEMA_STRUCTURE_SCORE_V1,
    SPEC_STRICT_CODES
} from './deterministic/answers.js'
export {
    AREA_CATALOGUE,
    QUESTIONS,
    LEVEL_LADDER,
    MAX_ITERATIONS,
    QUESTION_CATALOGUE_VERSION,
    SCHEMA_HOST
} from './areas/catalogue.js'
export {
    SCORING_INSTRUCTIONS_V1,
    NO_SKILL_WHEN_TO_USE,
    TRANSPORT_QUESTION_IDS,
    TRANSPORT_DIMENSIONS
} from './protocol/scoring-protocol.js'
export { REDACTED, MIN_SECRET_LENGTH } from './prompts/redact.js'
export { DEFAULT_MAX_TURNS, MAX_GOAL_CONDITION_LENGTH } from './prompts/goal-block.js'
export { FILE_PLACEHOLDER_ROLES } from './prompts/emit.js'
export { CHARS_PER_TOKEN } from './grade/estimate.js'
export { BOUNDARY_PATTERN, BOUNDARY_PREFIX } from './injection/boundary.js'
export { MAX_LISTED_INVISIBLE } from './injection/invisible.js'
export { INJECTION_RULE_IDS, MAX_INJECTION_FINDINGS, MAX_SCAN_LENGTH } from './injection/scan.js'
export { SNAPSHOT_NAME_REGEX, SNAPSHOT_EXT_REGEX, SNAPSHOT_HASH_REGEX } from './naming/snapshot-filename.js'
export { AREA_TARGET_FIELDS } from './island/targets.js'
export { GRADING_DATA_ENV } from './island/root.js'
export { LAYOUT, NAME_PATTERNS } from './store/paths.js'
export { DEFAULT_READ_CONCURRENCY } from './rollup/read-listing.js'
export { INDEX_KEY_ORDER } from './rollup/index-json.js'
export { PENDING_REASONS } from './rollup/nodes.js'
export { ENVIRONMENT_CAUSES } from './rollup/standing.js'
export { CONTENT_BLOCKED_REASONS } from './model/environment.js'
export { STABLE_THRESHOLD } from './rollup/stable-promotion.js'
export { OVERRIDE_KEYS } from './rollup/lock-snapshot.js'
export { MAX_SARIF_ITEMS, SARIF_FINGERPRINT_KEY, SARIF_SCHEMA_URI, SARIF_SOURCE_ROOT } from './report/sarif.js'
export { MAX_SELECTION_SKILLS, MIN_SELECTION_DESCRIPTION } from './selection/definition.js'
export { BELOW_SOFT_THRESHOLD_REASON } from './rollup/build-selection.js'
