import { defineCodes } from '../define.js'

/** Scores and their numeric mapping (spec chapter 07). */
export const SCORING_CODES = defineCodes({
    'SCO-001': ['error', 'Score out of range: {value} (expected 1.0-5.0 or enum)', 'ch. 07 score scale'],
    'SCO-003': ['error', 'Invalid score enum: {value} (expected `pass`/`fail`/`stale`/`n/a`)', 'ch. 07 score scale'],
    'SCO-004': ['error', 'weight must be a finite number >= 0, got {value}', 'ch. 08 weight minimum 0.0 / A8'],
    'SCO-005': ['error', 'A numeric string is not a score: {value}', 'ch. 07 (schema oneOf: number or enum)'],
    'SCO-WARN-001': [
        'warning',
        'Score is `stale` due to aging threshold ({days} days) for {questionId}',
        'ch. 07/08 aging → stale'
    ],
    'SCO-INFO-001': [
        'info',
        'Answer {questionId} excluded from the mean: {reason}',
        'ch. 07 n/a and stale are excluded'
    ]
})
