import { ARTIFACT_CODES } from './artifacts.js'
import { BINDING_CODES } from './binding.js'
import { RECHECK_CODES } from './recheck.js'
import { ATTEST_CODES } from './attest.js'
import { CHECK_CODES } from './check.js'
import { CLI_CODES } from './cli.js'
import { CONFIG_CODES } from './config.js'
import { AREA_CODES } from './areas.js'
import { GRADE_CODES } from './grade.js'
import { GRADING_CODES } from './grading.js'
import { HASHING_CODES } from './hashing.js'
import { INJECTION_CODES } from './injection.js'
import { INPUT_CODES } from './input.js'
import { INTERNAL_CODES } from './internal.js'
import { JUDGE_CODES } from './judge.js'
import { JUDGE_COMMAND_CODES } from './judge-command.js'
import { ISLAND_CODES } from './island.js'
import { NA_CODES } from './na-reason.js'
import { REPORT_CODES } from './report.js'
import { RUBRIC_CODES } from './rubric.js'
import { SARIF_CODES } from './sarif.js'
import { PRETEST_CODES } from './pretest.js'
import { RECORDING_CODES } from './recording.js'
import { SCHEMA_CODES } from './schema.js'
import { SECURITY_CODES } from './security.js'
import { SELECTION_CODES } from './selection.js'
import { SOURCE_CODES } from './source.js'
import { PROMPT_CODES } from './prompts.js'
import { PROTOCOL_CODES } from './protocol.js'
import { SCORING_CODES } from './scoring.js'
import { VERSION_CODES } from './version.js'
import { VETO_CODES } from './veto.js'
import { WORKFLOW_CODES } from './workflow.js'

// One line per module group. Adding a group here is all it takes to register its codes.
export const CATALOGUE = Object.freeze({
    ...GRADING_CODES,
    ...BINDING_CODES,
    ...RECHECK_CODES,
    ...ATTEST_CODES,
    ...CONFIG_CODES,
    ...CLI_CODES,
    ...CHECK_CODES,
    ...SCORING_CODES,
    ...VETO_CODES,
    ...NA_CODES,
    ...HASHING_CODES,
    ...JUDGE_CODES,
    ...JUDGE_COMMAND_CODES,
    ...REPORT_CODES,
    ...SARIF_CODES,
    ...WORKFLOW_CODES,
    ...RUBRIC_CODES,
    ...INPUT_CODES,
    ...VERSION_CODES,
    ...ARTIFACT_CODES,
    ...SCHEMA_CODES,
    ...SECURITY_CODES,
    ...INJECTION_CODES,
    ...PRETEST_CODES,
    ...AREA_CODES,
    ...PROTOCOL_CODES,
    ...PROMPT_CODES,
    ...GRADE_CODES,
    ...SELECTION_CODES,
    ...ISLAND_CODES,
    ...SOURCE_CODES,
    ...RECORDING_CODES,
    ...INTERNAL_CODES
})

/** Every code the library can emit. */
export type ErrorCode = keyof typeof CATALOGUE
