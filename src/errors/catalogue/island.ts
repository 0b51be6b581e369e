import { defineCodes, RUN_NOTICE } from '../define.js'

/**
 * Ports, the workbench island, the index rollup and the gates that read it (spec chapters 14–16,
 * 18, 19, 21–23). Codes the reference implementation already has keep its meaning (06 §10).
 */
export const ISLAND_CODES = defineCodes({
    'FS-001': [
        'error',
        'Port call {op} failed for {path}: {detail}',
        'library: a failing port becomes a coded issue',
        RUN_NOTICE
    ],
    'FS-002': [
        'error',
        'Refusing to overwrite existing {path}',
        'ch. 14/19 entries and snapshots are never overwritten',
        RUN_NOTICE
    ],
    'FS-003': ['error', 'Unsafe path {path}: {detail}', 'library: paths stay inside the island root', RUN_NOTICE],
    'FS-004': ['error', 'Port contract violated by {method}: {detail}', 'library: port contract', RUN_NOTICE],
    'FS-005': [
        'warning',
        'Could not remove {path} while undoing a failed write: {detail}',
        'library: atomic writes leave nothing behind',
        RUN_NOTICE
    ],
    'FS-006': [
        'error',
        'Refusing to write at {path}: {detail}',
        'library: every write stays inside the island root',
        RUN_NOTICE
    ],

    'ISL-001': ['error', 'Required field missing: {field}', 'library: argument check', RUN_NOTICE],
    'ISL-002': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        'library: argument check',
        RUN_NOTICE
    ],
    'ISL-003': ['error', 'Unsafe {field} {value}: {detail}', 'library: ids never escape the island root', RUN_NOTICE],
    'ISL-004': [
        'error',
        'Invalid {field} {value} (expected {expected})',
        'ch. 19 naming grammar / 03 ⚠ C5',
        RUN_NOTICE
    ],
    'ISL-005': [
        'error',
        'Relative island root {value} from {source} needs cwd to resolve',
        '03 ⚠ C1 root resolution',
        RUN_NOTICE
    ],
    'ISL-006': [
        'error',
        'Target does not fit area {area}: {detail}',
        '02-areas §1 area → _gradings folder',
        RUN_NOTICE
    ],
    'ISL-008': ['error', 'Entry does not match its target: {detail}', '01-model ⚠ A14 / 02-areas §1', RUN_NOTICE],
    'ISL-009': [
        'error',
        'Target not found in the island: {detail}',
        'ch. 19 a grading belongs to an imported primitive',
        RUN_NOTICE
    ],
    'ISL-INFO-001': [
        'info',
        'Timestamp advanced from {from} to {to} so that {folder} stays monotonic',
        '01-model ⚠ A13 / 03 ⚠ C8',
        RUN_NOTICE
    ],

    'IDX-001': ['error', 'Required field missing: {field}', 'library: argument check', RUN_NOTICE],
    'IDX-002': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        'library: argument check',
        RUN_NOTICE
    ],
    'IDX-003': [
        'error',
        'Unsupported indexVersion: {value} (expected 2)',
        'index.schema.json indexVersion const 2',
        RUN_NOTICE
    ],
    'IDX-004': [
        'warning',
        'Grading entry not parseable: {path} ({detail})',
        '03 ⚠ C13 unreadable grading ⇒ blocked',
        RUN_NOTICE
    ],
    'IDX-006': ['error', 'Not found: {path}', 'ch. 23 rebuild needs the folder', RUN_NOTICE],
    'IDX-007': [
        'error',
        'Invalid status {value} at {field} (expected one of [{expected}])',
        '03 §6 node and rollup statuses never mix',
        RUN_NOTICE
    ],
    'IDX-008': ['error', 'index.json write failed: {detail}', 'ch. 23 atomic index write', RUN_NOTICE],
    'IDX-010': [
        'warning',
        'Grading file in the wrong place: {path} ({detail})',
        '02-areas §1 / ch. 19 layout',
        RUN_NOTICE
    ],
    'IDX-011': [
        'error',
        'index.json violates index.schema.json at {field}: {detail}',
        'index.schema.json 2.0.1',
        RUN_NOTICE
    ],
    'IDX-012': [
        'warning',
        'Grading entry invalid: {path} ({detail})',
        '03 ⚠ C13 invalid grading ⇒ blocked',
        RUN_NOTICE
    ],
    'IDX-013': [
        'warning',
        'Fewer than {min} working tests for tool {tool} ({found} found)',
        '02-areas §2.1 / ⚠ B4',
        RUN_NOTICE
    ],
    'IDX-014': ['warning', 'No About: {detail}', '02-areas §2.6 About detector', RUN_NOTICE],
    'IDX-015': ['warning', 'Selection member not imported: {schemaId}', '03 §8 member-resolution manifest', RUN_NOTICE],
    'IDX-016': [
        'warning',
        'Malformed schemaId {schemaId} (expected <namespace>.<schema>)',
        '03 §8 member-resolution manifest',
        RUN_NOTICE
    ],
    'IDX-017': ['warning', 'Graded nodes mix versions: {detail}', '03 ⚠ C18 mixed-version blocker', RUN_NOTICE],
    'IDX-018': [
        'warning',
        'Schema {schema} not imported: no snapshot in schema/',
        '03 §6.2 schema without snapshot',
        RUN_NOTICE
    ],
    'IDX-019': ['warning', 'One or more tools blocked: {tools}', '03 §6.2 composite schema node', RUN_NOTICE],
    'IDX-020': [
        'warning',
        'Grading entry not readable: {path} ({detail})',
        '03 ⚠ C13 unreadable grading ⇒ blocked',
        RUN_NOTICE
    ],
    'IDX-021': [
        'warning',
        'Pretest summary not usable: {path} ({detail})',
        '03 ⚠ C13 blockers from summary.json',
        RUN_NOTICE
    ],
    'IDX-022': [
        'warning',
        'Previous index.json not usable, nothing carried over from it: {detail}',
        '03 §7.1 lockSnapshot lives only in index.json',
        RUN_NOTICE
    ],
    'IDX-023': ['warning', 'Vetoed ({trigger}): {path}', '01-model §6.3 REJECTED ⇒ rejected, terminal', RUN_NOTICE],
    'IDX-024': [
        'error',
        'Selection definition missing or unreadable in {path}: {detail}',
        '03 §13.2 selection definition',
        RUN_NOTICE
    ],
    'IDX-025': [
        'warning',
        'Member {schemaId} listed more than once; counted once',
        '03 §8 member-resolution manifest',
        RUN_NOTICE
    ],
    'IDX-026': [
        'warning',
        'Veto entry {gradingId} is missing or altered; the rejection is kept',
        '01-model §6.3 editing or deleting never reverts a veto',
        RUN_NOTICE
    ],
    'IDX-027': [
        'warning',
        'About snapshots in several schemas ({schemas}); using {schema}',
        '03 §2 the About is declared in one schema',
        RUN_NOTICE
    ],
    'IDX-028': [
        'error',
        'index.json breaks the write rules at {field}: {detail}',
        '03 §7.2 stricter rules, enforced on write',
        RUN_NOTICE
    ],
    'IDX-029': [
        'error',
        '{field} {path} is not a namespace or selection folder (expected {expected}); nothing was written',
        'ch. 19 island layout: index.json lives in providers/<ns> and selections/<sel>',
        RUN_NOTICE
    ],
    'IDX-030': [
        'warning',
        'Tool {tool} was not tested ({reason}): {detail}',
        '03 ⚠ C13 blockers from summary.json; 04 §8 rule 4 key-gated tools are blocked',
        RUN_NOTICE
    ],
    'IDX-031': [
        'warning',
        'Not current: the namespace aggregate rests on every schema, and {schemas} is blocked; grade it again once they are not',
        '02-areas §3.1 an aggregate rests on the units below it; an older grade of it is not current',
        RUN_NOTICE
    ],
    'IDX-INFO-001': [
        'info',
        'Rebuild record {path} not used, every file was read: {detail}',
        'library: an incremental rebuild equals a full one or falls back to it',
        RUN_NOTICE
    ],

    'SNP-001': ['error', 'Required field missing: {field}', 'library: argument check'],
    'SNP-002': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        'library: argument check'
    ],
    'SNP-003': ['error', 'Invalid value: {detail}', 'ch. 19 snapshot naming grammar'],
    'SNP-004': [
        'error',
        'Snapshot conflict — {file} has hash {hash} but different content',
        '03 ⚠ C12 same hash, different bytes'
    ],
    'SNP-005': ['error', 'Source file not readable: {path}', 'library: reading sources'],
    'SNP-006': [
        'error',
        'Snapshot {file} is named for hash {expected} but its content hashes to {actual}',
        'ch. 19 hash in the name binds the content'
    ],
    'SNP-INFO-001': [
        'info',
        'Content equals the older snapshot {file}; copied again as the newest version',
        'library: a reverted source becomes current again'
    ],
    'SNP-INFO-002': [
        'info',
        'Content differs from {file} under the same hash {hash} (a comment, formatting or handler edit); stored as a new snapshot beside it, the entries bound to the older bytes are outdated',
        '03 ⚠ C12 resolved: grading the source is the explicit decision'
    ],

    'IMP-001': ['error', 'Import input/scan error: {detail}', 'ch. 22 IN step 1'],
    'IMP-002': ['error', 'Structural validate gate failed: {detail}', 'ch. 22 IN step 2'],
    'IMP-003': ['error', 'Invalid schema slug from filename: {detail}', '03 ⚠ C2 / C5 schema slug'],
    'IMP-004': ['error', 'One or more schemas declare no namespace: {detail}', 'ch. 22 IN step 3'],
    'IMP-005': [
        'error',
        'Single-namespace assertion failed — folder declares multiple namespaces: {detail}',
        'ch. 22 IN step 3'
    ],
    'IMP-010': [
        'error',
        'Schema {file} could not be loaded: {detail}',
        'library: sources are never executed by the core'
    ],
    'IMP-011': ['warning', 'About {file} declared by {schema} is missing: the About detector reads false', '03 ⚠ C21'],
    'IMP-012': ['info', 'Skill {skill} placed under schema {schema}: {detail}', '03 ⚠ C3 namespace skill placement'],
    'IMP-013': ['error', 'Invalid skill {file}: {detail}', '03 ⚠ C5 skill names'],

    'EXP-001': ['error', 'Required field missing or mistyped: {field} ({detail})', 'library: argument check'],
    'EXP-002': ['error', 'Cannot determine what to export: {detail}', 'ch. 22 OUT namespace or selection'],
    'EXP-003': ['error', 'Export folder already exists (no overwrite): {path}', 'ch. 22 OUT never overwrites'],
    'EXP-004': ['error', 'Artefact export failed: {detail}', 'ch. 22 OUT current artefacts'],
    'EXP-005': [
        'error',
        'index.json not found (run import/rebuild first): {path}',
        'ch. 22 OUT index.json is the hand-off'
    ],
    'EXP-006': [
        'error',
        'Export folder {path} lies inside the island root; export never writes into the source',
        'ch. 22 OUT MUST NOT overwrite the source'
    ],

    'PRE-001': ['error', 'Required field missing: {field}', 'library: argument check'],
    'PRE-002': ['error', 'lockSnapshot not readable: {detail}', 'ch. 21 the gate reads only the frozen lockSnapshot'],
    'PRE-003': ['error', 'lockSnapshot format invalid: {detail}', 'ch. 21 lockSnapshot shape'],
    'PRE-004': ['error', 'Pre-Condition not met: missing stable single-gradings: {list}', 'ch. 21 all members stable'],
    'PRE-WARN-001': ['warning', 'lockSnapshot is empty — no members to check', 'ch. 21 pre-condition'],

    'STB-001': ['error', 'Required field missing: {field}', 'library: argument check'],
    'STB-002': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        'library: argument check'
    ],
    'STB-003': ['error', 'Invalid threshold: {value} (expected one of [A, B, C, D, F])', 'ch. 21 stable threshold'],
    'STB-WARN-001': [
        'warning',
        'Stable-Promotion blocked: no full grading entry (partial entries never promote)',
        'ch. 06 only full gradings move status'
    ],
    'STB-WARN-002': [
        'warning',
        'Stable-Promotion blocked: aggregateGrade {grade} below threshold {threshold}',
        'ch. 21 stable threshold'
    ],

    'PRF-001': ['error', 'Required field missing: {field}', 'library: argument check'],
    'PRF-002': [
        'error',
        'Type mismatch for field {field}: expected {expected}, got {actual}',
        'library: argument check'
    ],
    'PRF-003': ['error', 'Empty value for field {field}', 'library: argument check'],
    'PRF-004': [
        'warning',
        'Existing grade.json not usable, monitoring values not carried over: {detail}',
        '05 §1.6 grade.json keeps monitoring'
    ],
    'PRF-008': ['error', 'grade.json write failed: {detail}', 'library: atomic proof write']
})
