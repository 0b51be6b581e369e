/** A hard gate of a profile: a machine id (the key in `hardGates`) and what it means. */
export interface WorkflowProfileGate {
    readonly id: string
    readonly description: string
}

/** A weighted criterion of a profile. */
export interface WorkflowProfileCriterion {
    readonly name: string
    readonly description: string
    readonly weight: number
}

/** A workflow-family scoring profile (seed 004 §6). */
export interface WorkflowProfile {
    readonly id: WorkflowProfileId
    readonly letter: 'A' | 'B' | 'C' | 'D'
    readonly title: string
    readonly hardGates: readonly WorkflowProfileGate[]
    readonly criteria: readonly WorkflowProfileCriterion[]
}

/** Profile ids. */
export type WorkflowProfileId = 'swe' | 'dag' | 'rag' | 'agentic-tool-use'

const gate = (id: string, description: string): WorkflowProfileGate => Object.freeze({ id, description })
const criterion = (name: string, weight: number, description: string): WorkflowProfileCriterion =>
    Object.freeze({ name, weight, description })

/** The four profiles of seed 004 §6 as data: hard gates and default weights (each set sums to 1). */
export const WORKFLOW_PROFILES: Readonly<Record<WorkflowProfileId, WorkflowProfile>> = Object.freeze({
    swe: Object.freeze({
        id: 'swe' as const,
        letter: 'A' as const,
        title: 'Code repair / SWE-style iterative workflows',
        hardGates: Object.freeze([
            gate('patch_applies_cleanly', 'The patch applies cleanly'),
            gate('tests_fail_to_pass_all_green', 'FAIL_TO_PASS == 1.0'),
            gate('tests_pass_to_pass_threshold_met', 'PASS_TO_PASS >= 0.95'),
            gate('no_security_policy_violations', 'No sandbox or security policy violations')
        ]),
        criteria: Object.freeze([
            criterion('objective_tests', 0.6, 'Objective tests'),
            criterion('judge_quality', 0.25, 'Judge quality rubric'),
            criterion('patch_quality', 0.1, 'Patch similarity / semantic diff quality'),
            criterion('efficiency', 0.05, 'Efficiency / cost')
        ])
    }),
    dag: Object.freeze({
        id: 'dag' as const,
        letter: 'B' as const,
        title: 'DAG generation/review workflows (non-executable dominant)',
        hardGates: Object.freeze([
            gate('required_outputs_present', 'Required outputs present and parseable'),
            gate('no_critical_step_failures', 'Critical steps succeeded'),
            gate('schema_contract_valid', 'Output schema valid')
        ]),
        criteria: Object.freeze([
            criterion('correctness', 0.35, 'Correctness rubric'),
            criterion('completeness', 0.25, 'Completeness rubric'),
            criterion('tool_data_precision', 0.2, 'Tool/data precision'),
            criterion('documentation_quality', 0.1, 'Documentation quality'),
            criterion('efficiency', 0.1, 'Efficiency')
        ])
    }),
    rag: Object.freeze({
        id: 'rag' as const,
        letter: 'C' as const,
        title: 'RAG workflows',
        hardGates: Object.freeze([
            gate('answer_grounded_in_context', 'Answer grounded in retrieved context'),
            gate('citations_present_for_claims', 'Citation/link requirements met'),
            gate('no_high_severity_hallucinations', 'High-severity hallucination checks clear')
        ]),
        criteria: Object.freeze([
            criterion('faithfulness', 0.35, 'Faithfulness / groundedness'),
            criterion('response_relevance', 0.25, 'Response relevance'),
            criterion('context_precision', 0.2, 'Context precision'),
            criterion('context_recall', 0.1, 'Context recall / coverage'),
            criterion('efficiency', 0.1, 'Efficiency')
        ])
    }),
    'agentic-tool-use': Object.freeze({
        id: 'agentic-tool-use' as const,
        letter: 'D' as const,
        title: 'Agentic tool-use and routing workflows',
        hardGates: Object.freeze([
            gate('tool_call_schema_valid', 'Tool call JSON/schema valid'),
            gate('no_forbidden_tool_invoked', 'No forbidden tool invoked'),
            gate('handoff_graph_rules_respected', 'Handoff graph rules respected')
        ]),
        criteria: Object.freeze([
            criterion('tool_selection_accuracy', 0.25, 'Tool selection accuracy'),
            criterion('argument_correctness', 0.25, 'Argument correctness / F1'),
            criterion('handoff_accuracy', 0.2, 'Handoff accuracy'),
            criterion('final_task_correctness', 0.2, 'Final task correctness'),
            criterion('efficiency', 0.1, 'Efficiency')
        ])
    })
})

/** Profile ids in letter order. */
export const WORKFLOW_PROFILE_IDS: readonly WorkflowProfileId[] = Object.freeze([
    'swe',
    'dag',
    'rag',
    'agentic-tool-use'
])

/** Gates whose failures count as severe validation/security failures for the promotion policy (§10). */
export const WORKFLOW_DEFAULT_SEVERE_GATES: readonly string[] = Object.freeze([
    'no_security_policy_violations',
    'schema_contract_valid',
    'tool_call_schema_valid',
    'no_forbidden_tool_invoked',
    'no_high_severity_hallucinations'
])
