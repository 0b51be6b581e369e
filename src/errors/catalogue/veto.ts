import { defineCodes } from '../define.js'

/** Categorical veto (spec chapter 08/09). */
export const VETO_CODES = defineCodes({
    'VET-001': [
        'error',
        'Invalid veto trigger: {value} (expected one of [malicious-module, api-key-domain-mismatch, illegal-content, ai-security-veto])',
        'ch. 08 closed trigger list'
    ],
    'VET-002': ['error', 'evidence required for categoricalVeto', 'ch. 08 veto evidence'],
    'VET-003': ['error', 'reasoning required for ai-security-veto trigger', 'ch. 08/09 ai-security-veto obligations'],
    'VET-004': ['error', 'graderIdentity required for categoricalVeto', 'ch. 08 veto graderIdentity'],
    'VET-005': [
        'error',
        'categoricalVeto.timestamp must be an ISO-8601 date-time, got {value}',
        'ch. 08 veto timestamp'
    ],
    'VET-006': ['error', 'Unknown property {field} in categoricalVeto', 'ch. 08 veto additionalProperties: false'],
    'VET-INFO-001': [
        'info',
        'Entry marked as REJECTED due to categoricalVeto.triggeredBy={trigger}',
        'ch. 07 veto short-circuit'
    ]
})
