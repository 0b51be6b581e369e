import { defineCodes } from '../define.js'

/** Selection definitions (ch. 16 with 03 ⚠ C24), the v4.2.0 primitive adapter and selection skill rules (ch. 13). */
export const SELECTION_CODES = defineCodes({
    'SEL-001': [
        'error',
        'Required field missing in the selection definition: {field}',
        '03 §13.2 ⚠ C24 chapter 16 field table'
    ],
    'SEL-002': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        '03 §13.2 ⚠ C24 chapter 16 field table'
    ],
    'SEL-003': [
        'error',
        '{field} {value} does not match {pattern}',
        '03 §13.2 ⚠ C24 selectionId, namespace and version patterns'
    ],
    'SEL-004': [
        'error',
        'description has {length} characters, at least {min} are required',
        '03 §13.2 ⚠ C24 description ≥ 10 characters'
    ],
    'SEL-005': [
        'error',
        '{field} needs at least {min} item(s), got {count}',
        '03 §13.2 ⚠ C24 personaIds ≥ 1, members ≥ 1'
    ],
    'SEL-006': [
        'error',
        'Member {index} is not usable: {detail}',
        '03 §13.2 ⚠ C24 members[] items { schemaId } with <namespace>.<schema>'
    ],
    'SEL-007': [
        'error',
        'Override of {schemaId} is not allowed: {detail}',
        '03 §9 overrides carry only name and description'
    ],
    'SEL-008': [
        'error',
        'The definition is for selection {actual}, but {expected} is being graded',
        '03 §13.2 the definition names the selection it defines'
    ],
    'SEL-009': [
        'error',
        '{field} is derived by the island and must not be in a 2.0 selection definition',
        '03 §13.2 no selectionHash, aboutHash, selectionVersion'
    ],
    'SEL-010': [
        'warning',
        'Member {schemaId} is listed more than once; counted once',
        '03 §8 member-resolution manifest'
    ],
    'SEL-011': ['warning', 'Unknown property {field} in the selection definition', '03 §13.2 chapter 16 field table'],
    'SEL-012': [
        'error',
        'Skill {index} is not usable: {detail}',
        '03 §13.2 skills[] items { file: skills/<skill>/<skill>--<ts>--<hash8>.mjs }'
    ],
    'SEL-013': [
        'error',
        'This is a v4.2.0 selection primitive, not a 2.0 definition: {detail}',
        '03 ⚠ C24 adapt the primitive first'
    ],
    'SEL-014': [
        'error',
        'Primitive id {value} cannot become a member: {detail}',
        '03 ⚠ C24 adapter: tools[] ids ⇒ members[].schemaId; Schemas-Spec SEL003 ids resolvable'
    ],
    'SEL-015': [
        'info',
        'Primitive {field} ids are not carried into the definition: {detail}',
        '03 ⚠ C24 adapter: skills are graded from their files'
    ],
    'SEL-016': [
        'warning',
        'Selection has {count} member namespaces, fewer than {min}: no selection areas and no selection grade',
        '02-areas §8 ⚠ B10 below the soft threshold'
    ],
    'SKL-018': [
        'error',
        '{count} selection skills, at most {max} are allowed',
        'Schemas-Spec SKL018 / 02-areas §11.1 at most four skills per selection'
    ],
    'SKC-001': [
        'error',
        'L1 skill {skill} does not name L2 skill {missing} (Rule A)',
        '02-areas §11.3 Rule A: every L1 names every L2 verbatim'
    ],
    'SKC-002': [
        'error',
        'L3 skill {skill} is not named by any L2 skill (Rule B)',
        '02-areas §11.3 Rule B: every L3 is named by at least one L2'
    ]
})
