import { defineCodes } from '../define.js'

/** The rules map of a config file (`rules: { "<code>": "off" | "warning" | "error" }`) and the CLI's config file. */
export const CONFIG_CODES = defineCodes({
    'CFG-001': [
        'error',
        'The rules must be an object of { "<code>": "off" | "warning" | "error" } (or 0, 1, 2 as in eslint), got {actual}',
        'cli: config rules, eslint style'
    ],
    'CFG-002': [
        'error',
        'The rule {code} is set to {actual}; use "off", "warning" or "error" (or 0, 1, 2)',
        'cli: config rules, eslint style'
    ],
    'CFG-003': [
        'error',
        'The rule name {code} is not an issue code or question id (such as SCH-WARN-012 or Q-single-test-05)',
        'cli: config rules, eslint style'
    ],
    'CFG-004': [
        'error',
        'The config file {file} is not valid: {detail}',
        'cli: flowmcp-grading.config.json (schemas/config.schema.json)'
    ],
    'CFG-005': [
        'warning',
        'The rule {code} names no issue code or question id of this version, so it sets nothing{suggestion}',
        'cli: config rules, eslint style (an unknown code is a usage error of the CLI)'
    ]
})
