import { defineCodes } from '../define.js'

/** Recognising external artefacts. */
export const ARTIFACT_CODES = defineCodes({
    'ART-001': ['error', 'Not a recognised artefact: {detail}', 'library: artefact detection'],
    'ART-002': ['error', 'Unknown artefact kind {value} (expected one of {expected})', 'library: artefact detection']
})
