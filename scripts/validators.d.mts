// Declarations of scripts/validators.mjs, for the build configs and the tests that import it.
import type { Plugin as EsbuildPlugin } from 'esbuild'
import type { Plugin as VitePlugin } from 'vite'

/** Each exported validator and the schema (`$id`, or `$id#/pointer`) it checks. */
export declare const VALIDATOR_REFS: Readonly<Record<string, string>>
/** The ajv options the validators are generated with. */
export declare const AJV_OPTIONS: {
    readonly strict: false
    readonly allErrors: true
    readonly allowUnionTypes: true
    readonly inlineRefs: false
}
/** The ESM source of every validator, importing its helpers from `runtimePath` (default src/validation/runtime.ts). */
export declare function generateValidators(runtimePath?: string): string
/** esbuild (tsup): serves src/validation/generated.mjs. */
export declare const esbuildValidators: EsbuildPlugin
/** vite (vitest): serves src/validation/generated.mjs. */
export declare const viteValidators: VitePlugin
/** A JSON Schema without its prose (`description`, `title`, `$comment`, `examples`); property names stay. */
export declare function withoutProse(node: unknown, inMap?: boolean): unknown
